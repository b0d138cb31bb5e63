#pragma once
// The objects of a mesh file as a tree (Blender's objects: glTF and FBX nodes, OBJ `o` groups):
// each one's name, parent, transform in the scene frame (+Y up, meters, as importMesh reads the
// file) and material slots. The triangles stay in the file: importMesh with
// ImportOptions::object reads one object's, in the frame its node's transform places.
//
// What each format keeps: glTF and FBX keep parents, empties, transforms and shared meshes;
// OBJ has no hierarchy and no transforms (Blender writes every object's vertices in world
// space), so its objects are top-level with the identity transform, and it has no empties.
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/triangle_mesh.h"
#include "floptle/core/expected.h"
#include "floptle/core/math.h"

namespace floptle::asset {

struct MeshObject {
  /// The object's name in the file (Blender's object name); not unique in every file.
  std::string name;
  /// Index of the parent object in MeshObjectTree::objects (always lower), or -1: top level.
  int parent = -1;
  /// Relative to the parent object (the file's top level for -1), scene frame: position (m),
  /// rotation, uniform scale (-). A non-uniform scale or a mirror stays in the vertices.
  Transform local;
  /// Triangles of the object itself (children not counted); 0: an empty.
  std::size_t triangleCount = 0;
  /// The slots its faces use, in first-use order (faces in no slot are not listed).
  std::vector<MaterialSlot> materialSlots;
  /// Whether some of its faces are in no slot (they answer no material).
  bool hasFacesWithoutSlot = false;
  /// Name of the first object (in this list) that shows the very same meshes of the file (a
  /// Blender linked duplicate), or empty: the geometry is one in the file, read once per name.
  std::string instanceOf;
};

struct MeshObjectTree {
  /// Parents before their children, in the file's depth-first order.
  std::vector<MeshObject> objects;
  /// Every file the import read (see TriangleMesh::sourceFiles).
  std::vector<std::filesystem::path> sourceFiles;
};

/// Reads the tree of `path`. Errors (where = the path) as importMesh's, and "no objects".
Expected<MeshObjectTree> importMeshObjects(const std::filesystem::path& path,
                                           const ImportOptions& options = {},
                                           const ImportProgress& progress = {},
                                           const std::atomic<bool>* cancel = nullptr);

}  // namespace floptle::asset
