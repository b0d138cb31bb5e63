#pragma once
// A file's subtree brought up to date with the file: after a re-export from Blender, the scene's
// nodes of that file follow the file again while the user's edits of them survive. Used by
// `floptle import --into` and by the editor's live reload, so both resync the same way
// (format: resources/scene-format.md, "Reloading a file").
//
// Nodes are matched to the file's objects by the object's name: a mesh node by its mesh
// component's "object", an empty (and the group) by its "import" key.
//   - A node whose object is still in the file is kept: its name, "collider", "material",
//     "mesh" (its "materials" choices, "collision", "drawn") and every other key the user gave
//     it stay; its transform is the file's (the file owns the layout of its objects, the user
//     owns the group node's transform); its parent is the object's parent in the file.
//     Slots the object gained are appended to its "materials"; slots it lost are dropped.
//   - An object new in the file gets a new node, as `floptle import` makes it, under its parent.
//   - A node whose object is gone (or now skipped by the import's --skip) is removed, with the
//     nodes the user added under it; its children that are still objects of the file stay.
//   - Nodes the user added (no object reference) under a kept node or the group stay there.
//   - A node the user deleted whose object is still in the file comes back (nothing records the
//     deletion; the import's skip patterns keep an object out).
// A slot name reuses the scene material made for it (a material whose "name" is the slot's,
// preferring one the subtree already uses); a slot name the scene has no material for gets one.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/expected.h"

namespace floptle::asset {

/// How a subtree was imported: its group node's "import" key, so a reload reads the file the
/// same way and applies the same rules.
struct SubtreeSource {
  /// The mesh file as the scene writes it (relative to the scene's folder, or absolute).
  std::string file;
  MeshCollision collision = MeshCollision::TriangleMesh;
  SubtreeRules rules;
  /// Up axis and unit scale the file is read with (ImportOptions::object stays empty).
  ImportOptions options;
};

/// The group node's "import" key: {"file", "collision", "up_axis", "unit_scale", "skip",
/// "collide"} (defaults left out), as meshSubtreeEntries writes it.
nlohmann::ordered_json subtreeImportJson(const SubtreeSource& source);

/// Reads a group node's import settings. A group written before groups carried "import" is
/// read from its first mesh descendant (file, collision, up axis, unit scale; no rules).
/// Error (where = "import") when neither says which file.
Expected<SubtreeSource> subtreeSource(const nlohmann::ordered_json& group);

/// JSON pointer ("/nodes/2") of the group node of `scene` that holds `meshFile`'s subtree (its
/// import file, resolved against `sceneDir`, is the same file), or empty: none.
std::string findMeshSubtree(const nlohmann::ordered_json& scene,
                            const std::filesystem::path& meshFile,
                            const std::filesystem::path& sceneDir);

/// One object of the report: the file's object name and its node's name in the scene.
struct ResyncEntry {
  std::string object;
  std::string node;
};

struct ResyncReport {
  std::vector<ResyncEntry> kept;
  /// Kept nodes whose transform the file changed.
  std::vector<ResyncEntry> moved;
  std::vector<ResyncEntry> added;
  /// Removed nodes: objects gone from the file, and the user's nodes under them ("object"
  /// empty for those).
  std::vector<ResyncEntry> removed;
  /// "kept 6, added 1 (Lamp), removed 1 (Suzanne)"; moved nodes are counted among the kept
  /// ("kept 6 (1 moved: Block)").
  std::string line() const;
  bool changesNothing() const { return moved.empty() && added.empty() && removed.empty(); }
};

struct SubtreeResync {
  /// The group node brought up to date.
  nlohmann::ordered_json node;
  /// The scene's material array with the materials for new slot names appended.
  nlohmann::ordered_json materials;
  ResyncReport report;
};

/// Brings the group node at `groupPointer` of `scene` up to date with `tree` (the file read
/// again with subtreeSource's options). `sceneDir` as meshSubtreeEntries takes it. Error when
/// the pointer names no node.
Expected<SubtreeResync> resyncMeshSubtree(const nlohmann::ordered_json& scene,
                                          const std::string& groupPointer,
                                          const MeshObjectTree& tree,
                                          const std::filesystem::path& meshFile,
                                          const std::filesystem::path& sceneDir,
                                          const SubtreeSource& source);

}  // namespace floptle::asset
