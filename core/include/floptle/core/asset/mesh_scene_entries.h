#pragma once
// What a scene holds for an imported mesh: one material per material slot (ids from the slot
// names, made unique, physical defaults) and one static node (named after the file) whose
// "mesh" component references the file. One function, used by `floptle import` and by the
// editor's Import Mesh, so both write the same JSON (format: resources/scene-format.md).
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
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

/// Which objects of a file become nodes, and which collide (floptle import's --skip and
/// --collide, the editor's Import Mesh).
///
/// Name suffixes (Godot's convention): "Wall-col" is drawn and collides, "Wall-colonly"
/// collides and is not drawn ("drawn": false in its mesh component); either way the node is
/// named without the suffix ("Wall") while its mesh component names the file's object.
struct SubtreeRules {
  /// Objects whose name matches one of these globs ('*' any run, '?' one character) are
  /// left out with their children.
  std::vector<std::string> skip;
  /// True: only objects with a suffix collide; the others are drawn with a collider that is
  /// not collidable. False (default): every mesh object collides (static).
  bool collideOnlySuffixed = false;
};

/// Whether `name` matches `glob` ('*' any run of characters, '?' one), whole.
bool globMatch(std::string_view glob, std::string_view name);

/// The subtree of a file: a group node named after the file (an empty transform), under it
/// one node per object with the tree's parents, each with its local transform; mesh objects
/// carry a "mesh" component with "object" (the file's object name) and a static collider,
/// empties nothing else. One scene material per distinct slot name of the whole file. Names
/// and ids as meshSceneEntries makes them unique (against the taken ones and each other).
MeshSceneEntries meshSubtreeEntries(const MeshObjectTree& tree,
                                    const std::filesystem::path& meshFile,
                                    const std::filesystem::path& sceneDir, MeshCollision collision,
                                    const SubtreeRules& rules = {},
                                    const std::set<std::string>& takenMaterialIds = {},
                                    const std::set<std::string>& takenNodeNames = {},
                                    const ImportOptions& options = {});

}  // namespace floptle::asset
