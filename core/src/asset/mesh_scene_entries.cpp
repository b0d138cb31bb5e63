// meshSceneEntries: the scene JSON of an imported mesh (see mesh_scene_entries.h).
#include "floptle/core/asset/mesh_scene_entries.h"

#include <cmath>
#include <map>

#include "floptle/core/file_path.h"
#include "mesh_scene_json.h"

namespace floptle::asset {
using namespace detail;

const char* meshCollisionName(MeshCollision collision) {
  return collision == MeshCollision::BakedField ? "field" : "mesh";
}

MeshSceneEntries meshSceneEntries(const TriangleMesh& mesh, const std::filesystem::path& meshFile,
                                  const std::filesystem::path& sceneDir, MeshCollision collision,
                                  const std::set<std::string>& takenMaterialIds,
                                  const std::set<std::string>& takenNodeNames,
                                  const ImportOptions& options) {
  MeshSceneEntries entries;
  // Materials: one per slot, ids from the slot names (made unique), physical defaults.
  Json slotIds = Json::array();
  std::map<std::string, int> used;
  std::set<std::string> taken = takenMaterialIds;
  for (const MaterialSlot& slot : mesh.materialSlots) {
    std::string id = slot.name;
    if (int n = used[slot.name]++; n > 0) id += "#" + std::to_string(n + 1);
    id = unique(id, taken, "#");
    taken.insert(id);
    entries.materials.push_back(materialJson(id, slot));
    slotIds.push_back(id);
  }

  Json& node = entries.node;
  node["name"] = unique(fileStem(meshFile), takenNodeNames, "_");
  if (!slotIds.empty()) node["material"] = slotIds[0];
  node["mesh"] = meshComponent(scenePath(meshFile, sceneDir), "", collision, options);
  node["mesh"]["materials"] = slotIds;
  node["collider"] = {{"body", "static"}};
  return entries;
}

}  // namespace floptle::asset
