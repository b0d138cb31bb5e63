// resyncMeshSubtree: a file's subtree brought up to date with the file, the user's edits kept
// (the rules are in mesh_subtree_resync.h).
#include "floptle/core/asset/mesh_subtree_resync.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "mesh_scene_json.h"

namespace floptle::asset {
using namespace detail;
namespace {

/// The file object a node stands for: its mesh component's "object", else its "import"'s.
std::string objectOf(const Json& node) {
  for (const char* key : {"mesh", "import"}) {
    const auto component = node.find(key);
    if (component == node.end() || !component->is_object()) continue;
    const auto object = component->find("object");
    if (object != component->end() && object->is_string()) return object->get<std::string>();
  }
  return {};
}

const Json& childrenOf(const Json& node) {
  static const Json kNone = Json::array();
  const auto children = node.find("children");
  return children != node.end() && children->is_array() ? *children : kNone;
}

void collectNames(const Json& nodes, std::set<std::string>& names) {
  if (!nodes.is_array()) return;
  for (const Json& node : nodes) {
    if (node.contains("name") && node["name"].is_string())
      names.insert(node["name"].get<std::string>());
    collectNames(childrenOf(node), names);
  }
}

/// The material ids a subtree's nodes use (node "material" and mesh "materials").
void collectMaterialIds(const Json& node, std::set<std::string>& ids) {
  if (const auto m = node.find("material"); m != node.end() && m->is_string())
    ids.insert(m->get<std::string>());
  if (const auto mesh = node.find("mesh"); mesh != node.end() && mesh->is_object())
    if (const auto slots = mesh->find("materials"); slots != mesh->end() && slots->is_array())
      for (const Json& id : *slots)
        if (id.is_string()) ids.insert(id.get<std::string>());
  for (const Json& child : childrenOf(node)) collectMaterialIds(child, ids);
}

/// A node of the scene's subtree before the resync, and whether a file object took it.
struct OldNode {
  const Json* json = nullptr;
  bool taken = false;
};

class Resync {
 public:
  Resync(const std::set<std::string>& freshEmpties, ResyncReport& report)
      : freshEmpties_(freshEmpties), report_(report) {}

  /// Indexes the old subtree under `group`: object nodes by object name, in document order.
  /// A node written before empties carried "import" (no reference, no shape, named as an empty
  /// of the file) counts as that empty. The user's own nodes are not entered.
  void index(const Json& node) {
    for (const Json& child : childrenOf(node)) {
      const std::string object = referenceOf(child);
      if (object.empty()) continue;
      oldByObject_[object].push_back({&child});
      index(child);
    }
  }

  /// The fresh node `fresh` (from meshSubtreeEntries) merged with its old node, recursively.
  Json merge(const Json& fresh) {
    const std::string object = objectOf(fresh);
    OldNode* old = take(object);
    Json out;
    if (!old) {
      out = fresh;
      out.erase("children");
      report_.added.push_back({object, fresh["name"].get<std::string>()});
    } else {
      out = keep(*old->json, fresh);
      const ResyncEntry entry{object, out["name"].get<std::string>()};
      report_.kept.push_back(entry);
      if (old->json->value("transform", Json::object()) != fresh.value("transform", Json::object()))
        report_.moved.push_back(entry);
    }
    Json children = Json::array();
    for (const Json& child : childrenOf(fresh)) children.push_back(merge(child));
    if (old) appendUserNodes(*old->json, children);
    if (!children.empty()) out["children"] = std::move(children);
    return out;
  }

  /// The old nodes no object took, reported with the user's nodes under them.
  void reportRemoved(const Json& node) {
    for (const Json& child : childrenOf(node)) {
      const std::string object = referenceOf(child);
      if (object.empty()) continue;
      if (!wasTaken(&child)) {
        report_.removed.push_back({object, child["name"].get<std::string>()});
        reportUserNodesRemoved(child);
      }
      reportRemoved(child);
    }
  }

  /// The user's nodes (no object reference) directly under `old`, in their order.
  void appendUserNodes(const Json& old, Json& children) const {
    for (const Json& child : childrenOf(old))
      if (referenceOf(child).empty()) children.push_back(child);
  }

 private:
  std::string referenceOf(const Json& node) const {
    std::string object = objectOf(node);
    if (object.empty() && !node.contains("shape") && node.contains("name") &&
        node["name"].is_string() && freshEmpties_.count(node["name"].get<std::string>()) &&
        !node.contains("mesh") && !node.contains("collider"))
      object = node["name"].get<std::string>();
    return object;
  }

  OldNode* take(const std::string& object) {
    const auto found = oldByObject_.find(object);
    if (found == oldByObject_.end()) return nullptr;
    for (OldNode& old : found->second)
      if (!old.taken) return old.taken = true, &old;
    return nullptr;
  }

  bool wasTaken(const Json* node) const {
    for (const auto& [object, olds] : oldByObject_)
      for (const OldNode& old : olds)
        if (old.json == node) return old.taken;
    return false;
  }

  void reportUserNodesRemoved(const Json& node) {
    for (const Json& child : childrenOf(node)) {
      if (!referenceOf(child).empty()) continue;
      report_.removed.push_back({"", child["name"].get<std::string>()});
    }
  }

  /// The old node with the file's say: its transform; a mesh it gained or lost; the slots'
  /// count. Everything else is the user's.
  static Json keep(const Json& old, const Json& fresh) {
    Json out = old;
    out.erase("children");
    if (fresh.contains("transform"))
      out["transform"] = fresh["transform"];
    else
      out.erase("transform");
    const bool freshMesh = fresh.contains("mesh");
    if (!freshMesh) {
      // Now an empty: its mesh, and a collider with nothing left to collide, go.
      if (out.contains("mesh") && !out.contains("shape")) out.erase("collider");
      out.erase("mesh");
      out["import"] = fresh["import"];
      return out;
    }
    out.erase("import");
    if (!out.contains("mesh") || !out["mesh"].is_object()) {
      // Was an empty: the object's mesh, slots and collider as a new import makes them.
      out["mesh"] = fresh["mesh"];
      if (!out.contains("collider")) out["collider"] = fresh["collider"];
      if (!out.contains("material") && fresh.contains("material"))
        out["material"] = fresh["material"];
      return out;
    }
    // The user's slot choices, as many as the object has slots now.
    const Json& freshSlots = fresh["mesh"]["materials"];
    Json slots = out["mesh"].value("materials", Json::array());
    if (!slots.is_array()) slots = Json::array();
    const bool hadSlots = !slots.empty();
    while (slots.size() > freshSlots.size()) slots.erase(slots.size() - 1);
    for (std::size_t i = slots.size(); i < freshSlots.size(); ++i) slots.push_back(freshSlots[i]);
    out["mesh"]["materials"] = std::move(slots);
    if (!hadSlots && !out.contains("material") && fresh.contains("material"))
      out["material"] = fresh["material"];
    return out;
  }

  const std::set<std::string>& freshEmpties_;
  ResyncReport& report_;
  std::map<std::string, std::vector<OldNode>> oldByObject_;
};

/// Every node's material ids renamed by `ids` (fresh id -> scene id).
void renameMaterials(Json& node, const std::map<std::string, std::string>& ids) {
  auto rename = [&](Json& id) {
    if (!id.is_string()) return;
    if (const auto to = ids.find(id.get<std::string>()); to != ids.end()) id = to->second;
  };
  if (node.contains("material")) rename(node["material"]);
  if (node.contains("mesh") && node["mesh"].contains("materials"))
    for (Json& id : node["mesh"]["materials"]) rename(id);
  if (node.contains("children"))
    for (Json& child : node["children"]) renameMaterials(child, ids);
}

void collectEmpties(const Json& node, std::set<std::string>& empties) {
  for (const Json& child : childrenOf(node)) {
    if (!child.contains("mesh")) empties.insert(objectOf(child));
    collectEmpties(child, empties);
  }
}

std::string names(const std::vector<ResyncEntry>& entries) {
  std::string out;
  for (const ResyncEntry& e : entries) out += (out.empty() ? "" : ", ") + e.node;
  return out;
}

}  // namespace

std::string ResyncReport::line() const {
  std::string out = "kept " + std::to_string(kept.size());
  if (!moved.empty()) out += " (" + std::to_string(moved.size()) + " moved: " + names(moved) + ")";
  out += ", added " + std::to_string(added.size());
  if (!added.empty()) out += " (" + names(added) + ")";
  out += ", removed " + std::to_string(removed.size());
  if (!removed.empty()) out += " (" + names(removed) + ")";
  return out;
}

Expected<SubtreeResync> resyncMeshSubtree(const Json& scene, const std::string& groupPointer,
                                          const MeshObjectTree& tree,
                                          const std::filesystem::path& meshFile,
                                          const std::filesystem::path& sceneDir,
                                          const SubtreeSource& source) {
  Json::json_pointer pointer;
  try {
    pointer = Json::json_pointer(groupPointer);
  } catch (const nlohmann::json::exception&) {
    return Error{groupPointer, "not a JSON pointer"};
  }
  if (groupPointer.empty() || !scene.contains(pointer) || !scene.at(pointer).is_object())
    return Error{groupPointer, "no node there to reload"};
  const Json& group = scene.at(pointer);

  // The file as a first import would bring it in: new names and ids unique in the scene.
  std::set<std::string> nodeNames, materialIds;
  collectNames(scene.value("nodes", Json::array()), nodeNames);
  const Json sceneMaterials = scene.value("materials", Json::array());
  for (const Json& m : sceneMaterials)
    if (m.contains("id") && m["id"].is_string()) materialIds.insert(m["id"].get<std::string>());
  MeshSceneEntries fresh = meshSubtreeEntries(tree, meshFile, sceneDir, source.collision,
                                              source.rules, materialIds, nodeNames, source.options);

  // A slot name takes the scene material made for it: one named so that the subtree uses, else
  // the first named so; a slot with none gets its new material.
  std::set<std::string> usedBySubtree;
  collectMaterialIds(group, usedBySubtree);
  std::map<std::string, std::string> sceneIdOf;
  std::vector<Json> newMaterials;
  for (const Json& material : fresh.materials) {
    const std::string name = material["name"].get<std::string>();
    std::string chosen;
    for (const Json& m : sceneMaterials) {
      if (!m.contains("id") || !m["id"].is_string()) continue;
      const bool named =
          m.value("name", Json()) == name || (!m.contains("name") && m["id"] == name);
      if (!named) continue;
      const std::string id = m["id"].get<std::string>();
      if (chosen.empty() || (usedBySubtree.count(id) && !usedBySubtree.count(chosen))) chosen = id;
    }
    if (chosen.empty())
      newMaterials.push_back(material);
    else
      sceneIdOf[material["id"].get<std::string>()] = chosen;
  }
  renameMaterials(fresh.node, sceneIdOf);

  SubtreeResync out;
  std::set<std::string> freshEmpties;
  collectEmpties(fresh.node, freshEmpties);
  Resync resync(freshEmpties, out.report);
  resync.index(group);
  out.node = group;
  out.node.erase("children");
  out.node["import"] = fresh.node["import"];
  Json children = Json::array();
  for (const Json& child : childrenOf(fresh.node)) children.push_back(resync.merge(child));
  resync.appendUserNodes(group, children);
  out.node["children"] = std::move(children);
  resync.reportRemoved(group);

  // Only the new materials some node now uses join the scene.
  std::set<std::string> used;
  collectMaterialIds(out.node, used);
  out.materials = sceneMaterials;
  for (Json& material : newMaterials)
    if (used.count(material["id"].get<std::string>())) out.materials.push_back(std::move(material));
  return out;
}

}  // namespace floptle::asset
