// meshSubtreeEntries: a file's objects as a subtree of scene nodes (see mesh_scene_entries.h).
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/asset/mesh_subtree_resync.h"
#include "mesh_scene_json.h"

namespace floptle::asset {
using namespace detail;
namespace {

enum class Suffix { None, Col, ColOnly };

/// The Godot-style collision suffix of an object name, and the name without it.
std::pair<Suffix, std::string> splitSuffix(const std::string& name) {
  for (auto [suffix, text] : {std::pair{Suffix::ColOnly, std::string_view("-colonly")},
                              std::pair{Suffix::Col, std::string_view("-col")}}) {
    if (name.size() > text.size() && std::string_view(name).ends_with(text))
      return {suffix, name.substr(0, name.size() - text.size())};
  }
  return {Suffix::None, name};
}

/// Rounded as meshSceneEntries rounds (1e-6, no negative zero); what rounds to the default
/// (origin, identity, 1) is left out.
Json transformJson(const Transform& t) {
  auto round = [](double v) { return clean(v) + 0.0; };
  const Json position = {round(t.position.x), round(t.position.y), round(t.position.z)};
  const Json rotation = {round(t.rotation.x), round(t.rotation.y), round(t.rotation.z),
                         round(t.rotation.w)};
  Json out = Json::object();
  if (position != Json({0.0, 0.0, 0.0})) out["position"] = position;
  if (rotation != Json({0.0, 0.0, 0.0, 1.0})) out["rotation"] = rotation;
  if (round(t.scale) != 1.0) out["scale"] = round(t.scale);
  return out;
}

}  // namespace

bool globMatch(std::string_view glob, std::string_view name) {
  // Iterative match with one backtrack point for the last '*': linear in practice.
  std::size_t g = 0, n = 0, starG = std::string_view::npos, starN = 0;
  while (n < name.size()) {
    if (g < glob.size() && (glob[g] == '?' || glob[g] == name[n])) {
      ++g, ++n;
    } else if (g < glob.size() && glob[g] == '*') {
      starG = g++, starN = n;
    } else if (starG != std::string_view::npos) {
      g = starG + 1, n = ++starN;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

MeshSceneEntries meshSubtreeEntries(const MeshObjectTree& tree,
                                    const std::filesystem::path& meshFile,
                                    const std::filesystem::path& sceneDir, MeshCollision collision,
                                    const SubtreeRules& rules,
                                    const std::set<std::string>& takenMaterialIds,
                                    const std::set<std::string>& takenNodeNames,
                                    const ImportOptions& options) {
  MeshSceneEntries entries;
  // One scene material per distinct slot name of the file, in first-use order.
  std::map<std::string, std::string> idOfSlot;
  std::set<std::string> takenIds = takenMaterialIds;
  std::set<std::string> takenNames = takenNodeNames;
  const std::string file = scenePath(meshFile, sceneDir);

  Json& group = entries.node;
  group["name"] = unique(fileStem(meshFile), takenNames, "_");
  takenNames.insert(group["name"].get<std::string>());
  group["import"] = subtreeImportJson({file, collision, rules, options});
  group["children"] = Json::array();

  // Each object's node, built in the tree's order (parents first); a skipped object's index
  // maps to none, and so do its children's.
  std::vector<Json> nodes(tree.objects.size());
  std::vector<bool> kept(tree.objects.size(), false);
  for (std::size_t i = 0; i < tree.objects.size(); ++i) {
    const MeshObject& object = tree.objects[i];
    bool skipped = object.parent >= 0 && !kept[static_cast<std::size_t>(object.parent)];
    for (const std::string& glob : rules.skip) skipped = skipped || globMatch(glob, object.name);
    if (skipped) continue;
    kept[i] = true;
    const auto [suffix, bareName] = splitSuffix(object.name);
    Json& node = nodes[i];
    node["name"] = unique(bareName.empty() ? std::string("object") : bareName, takenNames, "_");
    takenNames.insert(node["name"].get<std::string>());
    if (Json t = transformJson(object.local); !t.empty()) node["transform"] = t;
    if (object.triangleCount > 0) {
      Json slotIds = Json::array();
      for (const MaterialSlot& slot : object.materialSlots) {
        auto [it, added] = idOfSlot.emplace(slot.name, "");
        if (added) {
          it->second = unique(slot.name, takenIds, "#");
          takenIds.insert(it->second);
          entries.materials.push_back(materialJson(it->second, slot));
        }
        slotIds.push_back(it->second);
      }
      if (!slotIds.empty()) node["material"] = slotIds[0];
      node["mesh"] = meshComponent(file, object.name, collision, options);
      node["mesh"]["materials"] = slotIds;
      if (suffix == Suffix::ColOnly) node["mesh"]["drawn"] = false;
      node["collider"] = {{"body", "static"}};
      if (rules.collideOnlySuffixed && suffix == Suffix::None)
        node["collider"]["collidable"] = false;
    } else {
      node["import"] = {{"object", object.name}};
    }
  }
  // Children into parents, deepest first (a child's index is always above its parent's).
  for (std::size_t i = tree.objects.size(); i-- > 0;) {
    if (!kept[i]) continue;
    Json& parent = tree.objects[i].parent < 0
                       ? group
                       : nodes[static_cast<std::size_t>(tree.objects[i].parent)];
    if (!parent.contains("children")) parent["children"] = Json::array();
    parent["children"].insert(parent["children"].begin(), std::move(nodes[i]));
  }
  return entries;
}

}  // namespace floptle::asset
