// EditorDocument: the node tree. Top-level nodes live in "nodes", a node's children in its
// "children" array; names are unique across the tree. Every operation here is one undo step.
#include "floptle/editor/editor_document.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "document/node_tree.h"
#include "document/patch_builder.h"
#include "floptle/core/field/field_json.h"
#include "floptle/core/field/node_spec.h"
#include "floptle/editor/derived_scene.h"

namespace floptle::editor {
namespace {

// Where new children of `parent` go ("/nodes" at top level), creating "children" if needed.
std::string childArray(PatchBuilder& builder, const std::string& parent) {
  if (parent.empty()) {
    if (!builder.result().contains("nodes")) builder.set("/nodes", Json::array());
    return "/nodes";
  }
  const std::string pointer = findNode(builder.result(), parent).pointer;
  if (!builder.result().at(Json::json_pointer(pointer)).contains("children"))
    builder.set(pointer + "/children", Json::array());
  return pointer + "/children";
}

// World transform of node `name` in `scene` (identity for an empty name = the scene root).
std::optional<Transform> worldOf(const scene::Scene& scene, const std::string& name) {
  if (name.empty()) return Transform{};
  const int index = scene.findNode(name);
  if (index < 0) return std::nullopt;
  return scene.nodes[std::size_t(index)].world;
}

// Rewrites `node`'s "transform" so that under `newParent` it keeps the world transform it had,
// as users expect when dragging a node in the tree (rotation and uniform scale compose exactly,
// see Transform). Keys at identity that were absent stay absent, so a node without a transform
// moved between untransformed parents is written unchanged. A parent with a degenerate scale
// cannot be inverted: the local transform is then kept as it was.
void keepWorldTransform(Json& node, const scene::Scene& scene, const std::string& name,
                        const std::string& newParent) {
  const std::optional<Transform> world = worldOf(scene, name);
  const std::optional<Transform> parentWorld = worldOf(scene, newParent);
  if (!world || !parentWorld || !(parentWorld->scale > 0.0f) || !std::isfinite(parentWorld->scale))
    return;
  const Transform local = parentWorld->inverse().compose(*world);
  if (!isFinite(local.position) || !std::isfinite(local.scale)) return;
  const Json before = node.contains("transform") ? node["transform"] : Json::object();
  Json transform = Json::object();
  const bool moved = local.position != Vec3(0.0f);
  if (moved || before.contains("position"))
    transform["position"] = {local.position.x, local.position.y, local.position.z};
  const bool turned = std::abs(std::abs(local.rotation.w) - 1.0f) > 1e-7f;
  if (turned || before.contains("rotation"))
    transform["rotation"] = {local.rotation.x, local.rotation.y, local.rotation.z,
                             local.rotation.w};
  if (local.scale != 1.0f || before.contains("scale")) transform["scale"] = local.scale;
  if (transform.empty() && !node.contains("transform")) return;
  node["transform"] = transform;
}

// Pointers sorted so that erasing them one by one keeps the rest valid: reverse document order.
bool laterInDocument(const std::string& a, const std::string& b) {
  const Json::json_pointer pa(a), pb(b);
  // Compare token by token, numbers numerically.
  std::vector<std::string> xa, xb;
  for (Json::json_pointer p = pa; !p.empty(); p = p.parent_pointer())
    xa.insert(xa.begin(), p.back());
  for (Json::json_pointer p = pb; !p.empty(); p = p.parent_pointer())
    xb.insert(xb.begin(), p.back());
  for (std::size_t i = 0; i < std::min(xa.size(), xb.size()); ++i) {
    if (xa[i] == xb[i]) continue;
    const bool numeric = !xa[i].empty() && !xb[i].empty() &&
                         std::isdigit(static_cast<unsigned char>(xa[i][0])) &&
                         std::isdigit(static_cast<unsigned char>(xb[i][0]));
    return numeric ? std::stoul(xa[i]) > std::stoul(xb[i]) : xa[i] > xb[i];
  }
  return xa.size() > xb.size();
}

}  // namespace

// Name look-ups go through the derived scene's index: it is derived from json_ after every
// change, and its nodes carry their pointers.
std::string EditorDocument::nodePointer(const QString& name) const {
  const int index = derived_->findNode(name.toStdString());
  return index < 0 ? std::string() : derived_->scene().nodes[std::size_t(index)].pointer;
}

QStringList EditorDocument::nodeNames() const {
  QStringList names;
  for (const NodeLocation& node : listNodes(json_)) names << QString::fromStdString(node.name);
  return names;
}

QString EditorDocument::parentOf(const QString& name) const {
  const int index = derived_->findNode(name.toStdString());
  if (index < 0) return {};
  const int parent = derived_->scene().nodes[std::size_t(index)].parent;
  return parent < 0 ? QString()
                    : QString::fromStdString(derived_->scene().nodes[std::size_t(parent)].name);
}

Expected<QString> EditorDocument::addNode(field::NodeType shapeType, const QString& parentName) {
  if (!parentName.isEmpty() && nodePointer(parentName).empty())
    return refuse({"/nodes", "no node called '" + parentName.toStdString() + "' to add under"});
  const field::NodeSpec& spec = field::nodeSpec(shapeType);
  const std::string name = uniqueName(std::string(spec.name), allNodeNames(json_));
  Json node = Json::object();
  node["name"] = name;
  // Operators (CSG, transform, repeat, twist) need children to be valid: give them the fewest
  // they accept, unit spheres the user then edits.
  field::FieldNode shape = field::makeDefaultNode(shapeType);
  for (int i = 0; i < spec.minChildren; ++i)
    shape.children.push_back(field::makeDefaultNode(field::NodeType::Sphere));
  node["shape"] = field::shapeToJson(shape, [](field::MaterialIndex) { return Json(); });
  PatchBuilder builder(json_);
  builder.insert(childArray(builder, parentName.toStdString()) + "/-", node);
  Expected<void> pushed =
      push(builder.take(), QStringLiteral("Add %1").arg(QString::fromStdString(name)));
  if (!pushed) return pushed.error();
  return QString::fromStdString(name);
}

Expected<void> EditorDocument::renameNode(const QString& name, const QString& newName) {
  const std::string from = name.toStdString();
  const std::string to = newName.trimmed().toStdString();
  const std::string pointer = nodePointer(name);
  if (pointer.empty()) return refuse({"/nodes", "no node called '" + from + "'"});
  if (to.empty()) return refuse({pointer + "/name", "a node name cannot be empty"});
  if (to == from) return {};
  if (!nodePointer(QString::fromStdString(to)).empty())
    return refuse({pointer + "/name", "another node is already called '" + to + "'"});
  PatchBuilder builder(json_);
  builder.set(pointer + "/name", to);
  Expected<void> pushed =
      push(builder.take(), QStringLiteral("Rename %1 to %2").arg(name, newName.trimmed()));
  if (!pushed) return pushed;
  if (selection_.contains(name)) {
    QStringList renamed = selection_;
    for (QString& selected : renamed)
      if (selected == name) selected = newName.trimmed();
    setSelection(renamed);
  }
  return {};
}

Expected<QStringList> EditorDocument::duplicateNodes(const QStringList& names) {
  PatchBuilder builder(json_);
  std::set<std::string> taken = allNodeNames(json_);
  QStringList created;
  for (const QString& name : names) {
    const std::string pointer = findNode(builder.result(), name.toStdString()).pointer;
    if (pointer.empty())
      return refuse({"/nodes", "no node called '" + name.toStdString() + "' to duplicate"});
    Json copy = builder.result().at(Json::json_pointer(pointer));
    renameSubtreeUniquely(copy, taken);
    // The copy goes right after the original, among the same siblings.
    const Json::json_pointer original(pointer);
    const std::string after = original.parent_pointer().to_string() + "/" +
                              std::to_string(std::stoul(original.back()) + 1);
    builder.insert(after, copy);
    created << QString::fromStdString(copy["name"].get<std::string>());
  }
  if (builder.empty()) return created;
  Expected<void> pushed =
      push(builder.take(), QStringLiteral("Duplicate %1").arg(names.join(", ")));
  if (!pushed) return pushed.error();
  setSelection(created);
  return created;
}

Expected<void> EditorDocument::removeNodes(const QStringList& names) {
  std::vector<std::string> pointers;
  for (const QString& name : names) {
    const std::string pointer = nodePointer(name);
    if (pointer.empty())
      return refuse({"/nodes", "no node called '" + name.toStdString() + "' to delete"});
    pointers.push_back(pointer);
  }
  // A node inside another deleted node goes with it.
  std::vector<std::string> roots;
  for (const std::string& p : pointers) {
    const bool inside = std::any_of(pointers.begin(), pointers.end(), [&](const std::string& q) {
      return q != p && p.rfind(q + "/", 0) == 0;
    });
    if (!inside && std::find(roots.begin(), roots.end(), p) == roots.end()) roots.push_back(p);
  }
  if (roots.empty()) return {};
  std::sort(roots.begin(), roots.end(), laterInDocument);
  PatchBuilder builder(json_);
  for (const std::string& p : roots) builder.erase(p);
  return push(builder.take(), QStringLiteral("Delete %1").arg(names.join(", ")));
}

Expected<void> EditorDocument::reparentNode(const QString& name, const QString& newParent,
                                            int index) {
  const std::string child = name.toStdString();
  const std::string parent = newParent.toStdString();
  const NodeLocation from = findNode(json_, child);
  if (from.pointer.empty()) return refuse({"/nodes", "no node called '" + child + "'"});
  if (!parent.empty()) {
    if (nodePointer(newParent).empty())
      return refuse({from.pointer, "no node called '" + parent + "' to move under"});
    if (isInSubtree(json_, parent, child))
      return refuse(
          {from.pointer,
           "'" + child + "' cannot be moved under itself or its descendant '" + parent + "'"});
  }
  if (from.parent == parent && index < 0) return {};
  PatchBuilder builder(json_);
  Json node = json_.at(Json::json_pointer(from.pointer));
  if (from.parent != parent) keepWorldTransform(node, derived().scene(), child, parent);
  builder.erase(from.pointer);
  const std::string array = childArray(builder, parent);
  const std::size_t size = builder.result().at(Json::json_pointer(array)).size();
  const std::size_t at = index < 0 ? size : std::min<std::size_t>(index, size);
  builder.insert(array + "/" + std::to_string(at), node);
  if (builder.result() == json_) return {};
  return push(builder.take(),
              QStringLiteral("Move %1 under %2")
                  .arg(name, parent.empty() ? QStringLiteral("the scene") : newParent));
}

}  // namespace floptle::editor
