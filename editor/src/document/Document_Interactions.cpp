// EditorDocument: the interaction matrix, stored as a list of {a, b, rule, k} entries, one per
// ordered material pair (for carve, b bites into a; core's Scene::findInteraction is ordered).
#include "floptle/editor/editor_document.h"

#include "document/patch_builder.h"

namespace floptle::editor {
namespace {

QString idText(const Json& id) {
  return QString::fromStdString(id.is_string() ? id.get<std::string>() : id.dump());
}

}  // namespace

std::string EditorDocument::interactionPointer(const QString& a, const QString& b) const {
  const Json& interactions = json_.value("interactions", Json::array());
  for (std::size_t i = 0; i < interactions.size(); ++i) {
    const QString ia = idText(interactions[i].value("a", Json()));
    const QString ib = idText(interactions[i].value("b", Json()));
    if (ia == a && ib == b) return "/interactions/" + std::to_string(i);
  }
  return {};
}

Expected<void> EditorDocument::setInteraction(const QString& a, const QString& b,
                                              const QString& rule, double k, int mergeId) {
  const std::string pa = materialPointer(a);
  const std::string pb = materialPointer(b);
  if (pa.empty() || pb.empty())
    return refuse({"/interactions", "no material '" + (pa.empty() ? a : b).toStdString() + "'"});
  static const QStringList rules{"ignore", "merge", "carve", "hard"};
  if (!rules.contains(rule))
    return refuse({"/interactions",
                   "rule '" + rule.toStdString() + "' is not one of ignore, merge, carve, hard"});
  // Keep the ids' JSON type (string or number) as the materials spell them.
  const Json idA = valueAt(pa + "/id").value_or(Json(a.toStdString()));
  const Json idB = valueAt(pb + "/id").value_or(Json(b.toStdString()));
  std::string pointer = interactionPointer(a, b);
  Json entry = {{"a", idA}, {"b", idB}, {"rule", rule.toStdString()}, {"k", k}};
  PatchBuilder builder(json_);
  if (pointer.empty()) {
    if (!json_.contains("interactions")) builder.set("/interactions", Json::array());
    builder.insert("/interactions/-", entry);
    mergeId = kNoMerge;  // an insertion is its own step
  } else {
    if (json_.at(Json::json_pointer(pointer)) == entry) return {};
    builder.set(pointer, entry);
  }
  return push(builder.take(), QStringLiteral("Interaction %1 x %2: %3").arg(a, b, rule), mergeId);
}

}  // namespace floptle::editor
