#pragma once
// What a scene holds for an imported mesh: one material per material slot (ids from the slot
// names, made unique, physical defaults) and one static node (named after the file) whose
// "mesh" component references the file. One function, used by `floptle import` and by the
// editor's Import Mesh, so both write the same JSON (format: resources/scene-format.md).
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/triangle_mesh.h"

namespace floptle::asset {

/// How an imported mesh collides ("collision" of the mesh component).
enum class MeshCollision {
  /// A triangle-mesh collider (BVH), "mesh".
  TriangleMesh,
  /// A sparse brickmap baked from the mesh, "field".
  BakedField,
};

/// "mesh" or "field".
const char* meshCollisionName(MeshCollision collision);

struct MeshSceneEntries {
  nlohmann::ordered_json node;
  std::vector<nlohmann::ordered_json> materials;
};

/// `sceneDir` empty: the file path is written absolute; otherwise relative to it. Ids and
/// names already in `takenMaterialIds` / `takenNodeNames` get a "#2", "#3" ... (materials) or
/// "_2", "_3" ... (nodes) suffix; repeated slot names within the mesh get "#2", "#3" ...
/// Colours are rounded to 1e-6 (non-finite: 0). The import options the mesh was read with
/// are written beside the file ("up_axis" unless automatic, "unit_scale" unless from the
/// format), so whoever loads the scene reads the file the same way.
MeshSceneEntries meshSceneEntries(const TriangleMesh& mesh, const std::filesystem::path& meshFile,
                                  const std::filesystem::path& sceneDir, MeshCollision collision,
                                  const std::set<std::string>& takenMaterialIds = {},
                                  const std::set<std::string>& takenNodeNames = {},
                                  const ImportOptions& options = {});

}  // namespace floptle::asset
