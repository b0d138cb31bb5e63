#pragma once
// The problems of a valid scene: what is wrong or suspicious though the scene loads, each with
// its node (a JSON pointer) and the fix where one exists. What `floptle validate --warnings`
// prints; the editor's Problems dock lists the same.
//
// Found from the scene alone (no simulation is built): the composed collidable field
// (scene::sceneField) stands for the geometry, so a spawn inside an imported mesh or a baked
// field is not seen.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "floptle/core/math.h"

namespace floptle::scene {
struct Scene;
}

namespace floptle::runtime {

enum class ProblemKind {
  MissingFile,          ///< a mesh or baked-field file the scene names is not there
  UnusedMaterial,       ///< no node, shape, mesh slot or rule uses the material
  SpawnInsideGeometry,  ///< a character's capsule starts inside the collidable field
  EmptyCollider,        ///< a collider whose shape has no inside (zero volume)
  DynamicWithoutShape,  ///< a dynamic body with no shape and no mesh to collide as
  UnusedRule,           ///< an interaction rule for a material no node uses
  UnbakedWarp,          ///< a collider warped by a map that is not distance-preserving, unbaked
};

/// The quick fix as an action the editor applies as one undo step; None where `fix` is advice
/// only. The data an action needs travels in SceneProblem (move, bakeCell).
enum class FixAction {
  None,
  LocateFile,      ///< repoint the file member at `pointer` to a file the user picks
  DeleteMaterial,  ///< delete the material at `pointer` and the rules naming it
  MoveNode,        ///< add `move` to the node's world position
  RemoveCollider,  ///< remove the node's "collider" component
  MakeStatic,      ///< set the node's collider body to "static"
  BakeCollider,    ///< bake the node's shape (its local frame) into a .vdb as its "baked_field"
  DeleteRule,      ///< delete the interaction rule at `pointer`
};

struct SceneProblem {
  ProblemKind kind = ProblemKind::MissingFile;
  /// JSON pointer of what the problem is about ("/nodes/3", "/materials/1", "/interactions/0",
  /// "/nodes/2/mesh/file").
  std::string pointer;
  /// What is wrong, in words.
  std::string what;
  /// The quick fix, in words ("move it up 1.25 m to the surface"); empty when there is none.
  std::string fix;
  /// The name of the node the problem is about; empty for materials and rules.
  std::string node;
  /// What applying the fix does (None: `fix` is advice, or there is no fix).
  FixAction action = FixAction::None;
  /// MoveNode: what to add to the node's world position (m).
  Vec3 move{0.0f};
  /// BakeCollider: the voxel edge of the bake (m).
  float bakeCell = 0.0f;
};

/// A short stable name of the kind ("missing-file", "unused-material", ...).
std::string_view problemKindName(ProblemKind kind);

/// Every problem of `scene`, in this order: missing files (node order), then per node in
/// scene order dynamic without shape, empty collider, unbaked warp, spawn inside geometry, then
/// unused materials, then unused rules. `sceneFolder` resolves relative file names.
std::vector<SceneProblem> findSceneProblems(const scene::Scene& scene,
                                            const std::filesystem::path& sceneFolder);

}  // namespace floptle::runtime
