// EditorDocument: the material table. A material is referred to by its "id" (a string or a
// number) from a node's "material" and from any shape's "material" below it.
#include "floptle/editor/editor_document.h"

#include <set>

#include "document/node_tree.h"
#include "document/patch_builder.h"

namespace floptle::editor {
namespace {

QString idText(const Json& id) {
  return QString::fromStdString(id.is_string() ? id.get<std::string>() : id.dump());
}

// Collects pointers below `value` whose "material" key equals `id`.
void findMaterialUses(const Json& value, const QString& id, const std::string& where,
                      std::vector<std::string>& uses) {
  if (value.is_object()) {
    auto it = value.find("material");
    if (it != value.end() && idText(*it) == id) uses.push_back(where + "/material");
    for (auto child = value.begin(); child != value.end(); ++child)
      if (child.value().is_structured())
        findMaterialUses(child.value(), id, where + "/" + child.key(), uses);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      findMaterialUses(value[i], id, where + "/" + std::to_string(i), uses);
  }
}

}  // namespace

QStringList EditorDocument::materialIds() const {
  QStringList ids;
  for (const Json& material : json_.value("materials", Json::array()))
    ids << idText(material.value("id", Json()));
  return ids;
}

std::string EditorDocument::materialPointer(const QString& id) const {
  const Json& materials = json_.value("materials", Json::array());
  for (std::size_t i = 0; i < materials.size(); ++i)
    if (idText(materials[i].value("id", Json())) == id) return "/materials/" + std::to_string(i);
  return {};
}

QStringList EditorDocument::materialUsers(const QString& id) const {
  QStringList users;
  for (const NodeLocation& location : listNodes(json_)) {
    const Json& node = json_.at(Json::json_pointer(location.pointer));
    std::vector<std::string> uses;
    if (node.contains("material") && idText(node["material"]) == id) uses.push_back("material");
    if (node.contains("shape"))
      findMaterialUses(node["shape"], id, location.pointer + "/shape", uses);
    if (!uses.empty()) users << QString::fromStdString(location.name);
  }
  return users;
}

Expected<QString> EditorDocument::addMaterial() {
  std::set<std::string> taken;
  for (const QString& id : materialIds()) taken.insert(id.toStdString());
  std::string id = "material";
  for (int n = 2; taken.count(id); ++n) id = "material_" + std::to_string(n);
  // Defaults: a light grey solid with the density of water (kg/m^3), mid friction (-),
  // low bounce (-), stiffness and strength of a soft rock (Pa).
  Json material = {
      {"id", id},           {"color", {0.7, 0.7, 0.7}}, {"density", 1000.0},      {"friction", 0.5},
      {"restitution", 0.2}, {"bulk_modulus", 1.0e9},    {"yield_strength", 1.0e7}};
  PatchBuilder builder(json_);
  if (!json_.contains("materials")) builder.set("/materials", Json::array());
  builder.insert("/materials/-", material);
  Expected<void> pushed =
      push(builder.take(), QStringLiteral("Add material %1").arg(QString::fromStdString(id)));
  if (!pushed) return pushed.error();
  return QString::fromStdString(id);
}

Expected<void> EditorDocument::removeMaterial(const QString& id) {
  const std::string pointer = materialPointer(id);
  if (pointer.empty()) return refuse({"/materials", "no material '" + id.toStdString() + "'"});
  const QStringList users = materialUsers(id);
  if (!users.isEmpty())
    return refuse({pointer, "material '" + id.toStdString() + "' is used by " +
                                users.join(", ").toStdString() + "; assign another first"});
  PatchBuilder builder(json_);
  // Interactions naming the material go with it (last first, so indices hold).
  const Json& interactions = json_.value("interactions", Json::array());
  for (int i = static_cast<int>(interactions.size()) - 1; i >= 0; --i) {
    if (idText(interactions[i].value("a", Json())) == id ||
        idText(interactions[i].value("b", Json())) == id)
      builder.erase("/interactions/" + std::to_string(i));
  }
  builder.erase(pointer);
  return push(builder.take(), QStringLiteral("Delete material %1").arg(id));
}

}  // namespace floptle::editor
