// EditorDocument: reading and writing single values by JSON pointer.
#include "floptle/editor/editor_document.h"

#include "document/patch_builder.h"

namespace floptle::editor {

std::optional<Json> EditorDocument::valueAt(const std::string& pointer) const {
  try {
    const Json::json_pointer p(pointer);
    if (!json_.contains(p)) return std::nullopt;
    return json_.at(p);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

Expected<void> EditorDocument::setValue(const std::string& pointer, const Json& value,
                                        int mergeId) {
  try {
    const Json::json_pointer p(pointer);
    if (!p.empty() && !json_.contains(p.parent_pointer()))
      return refuse({pointer, "no such place in the document"});
    std::optional<Json> before;
    if (json_.contains(p)) before = json_.at(p);
    if (before == value) return {};  // nothing to do
    // One op needs no PatchBuilder (whose working copy of the document serves later ops).
    JsonPatch patch;
    patch.ops.push_back({pointer, std::move(before), value});
    return push(std::move(patch), QStringLiteral("Set %1").arg(QString::fromStdString(pointer)),
                mergeId);
  } catch (const std::exception& e) {
    return refuse({pointer, e.what()});
  }
}

Expected<void> EditorDocument::setValues(const std::vector<std::pair<std::string, Json>>& values,
                                         const QString& text, int mergeId) {
  PatchBuilder builder(json_);
  for (const auto& [pointer, value] : values) {
    const Json::json_pointer p(pointer);
    if (!p.empty() && !builder.result().contains(p.parent_pointer()))
      return refuse({pointer, "no such place in the document"});
    builder.set(pointer, value);
  }
  if (builder.result() == json_ && mergeId == kNoMerge) return {};
  return push(builder.take(), text, mergeId);
}

Expected<void> EditorDocument::removeValue(const std::string& pointer) {
  if (!valueAt(pointer)) return {};
  PatchBuilder builder(json_);
  builder.erase(pointer);
  return push(builder.take(), QStringLiteral("Reset %1").arg(QString::fromStdString(pointer)));
}

Expected<void> EditorDocument::removeValues(const std::vector<std::string>& pointers,
                                            const QString& text) {
  PatchBuilder builder(json_);
  for (const std::string& pointer : pointers) {
    try {
      if (builder.result().contains(Json::json_pointer(pointer))) builder.erase(pointer);
    } catch (const std::exception& e) {
      return refuse({pointer, e.what()});
    }
  }
  if (builder.empty()) return {};
  return push(builder.take(), text);
}

}  // namespace floptle::editor
