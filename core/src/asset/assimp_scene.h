#pragma once
// Internal to core's asset import: reading a file with Assimp, the file -> scene frame, the
// material slots, and where each object of the file sits (mesh_import.cpp, mesh_objects.cpp).
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/triangle_mesh.h"
#include "floptle/core/expected.h"

namespace floptle::asset::detail {

/// A file as Assimp reads it: triangles only (no points or lines), FBX pivots part of the node
/// transforms. `scene` is owned by `importer`.
struct AssimpFile {
  std::unique_ptr<Assimp::Importer> importer;
  const aiScene* scene = nullptr;
  /// Lower-case extension with the dot (".glb").
  std::string ext;
  /// Every file the read opened, absolute: the named file first.
  std::vector<std::filesystem::path> sourceFiles;
  /// Written by Blender's FBX exporter: its objects' vertices and child transforms are in
  /// Blender's own frame (+Z up, meters), the conversion to the file's axes and units sits in
  /// the top-level objects' transforms.
  bool blenderFbx = false;
  /// OBJ objects (`o` names) with no `usemtl` of their own: Blender writes none for an object
  /// without material, and Assimp would carry the previous object's material over to it.
  std::set<std::string> objObjectsWithoutMaterial;
};

/// Reads `path` (progress: the first half of the job). Errors (where = the path): missing,
/// empty or unreadable file, an unsupported extension, a format Assimp refuses, a cancel.
Expected<AssimpFile> readAssimpFile(const std::filesystem::path& path,
                                    const ImportProgress& progress,
                                    const std::atomic<bool>* cancel);

/// The file -> scene frame (+Y up, meters): axes and unit scale, from the options and the
/// format (see mesh_import.h). A similarity: uniform scale times an orthogonal matrix.
aiMatrix4x4 sceneFrame(const aiScene& scene, const std::string& ext, const ImportOptions& options);

/// The slot of Assimp material `index`, or nothing when it is the default material Assimp
/// injects for faces the file gave none (OBJ and FBX: named "DefaultMaterial"; glTF: the
/// unnamed material appended last).
std::optional<MaterialSlot> materialSlot(const aiScene& scene, unsigned index,
                                         const std::string& ext);

/// Where one node of the file sits in the scene: `local` is what a scene node can hold
/// (position, rotation, uniform scale, relative to its parent's node) and `residual` the rest
/// of the node's linear map (non-uniform scale, mirroring, shear), which its own vertices carry:
/// node world = parent world * local * residual, exactly. Identity residual for a rigid or
/// uniformly scaled node.
struct NodePlacement {
  Transform local;
  aiMatrix3x3 residual;
  /// residual * frame: object-local file coordinates -> the node's frame in scene axes.
  aiMatrix4x4 vertexMap;
};

/// The frame of the objects' own coordinates (vertices, child transforms) -> scene axes: the
/// file frame `frame`, except in a Blender FBX read with automatic axes and scale, where it is
/// Blender's +Z up turned to +Y up; the root's coordinates are always in `frame`.
aiMatrix4x4 objectFrame(const AssimpFile& file, const aiMatrix4x4& frame,
                        const ImportOptions& options);

/// Every node of the file, the root included, each placed in the scene: the root's content in
/// `frame`, every other node's in `objects` (objectFrame).
std::map<const aiNode*, NodePlacement> placeNodes(const aiScene& scene, const aiMatrix4x4& frame,
                                                  const aiMatrix4x4& objects);

/// Whether the faces of `mesh` on `node` are in no slot (see materialSlot and
/// AssimpFile::objObjectsWithoutMaterial).
bool withoutSlot(const AssimpFile& file, const aiNode& node, const aiMesh& mesh);

/// Whether a node is a file object: not a camera's or a light's node, and the root only when
/// it holds meshes or moves them (Assimp's root is a file object in a glTF with one top node).
bool isObjectNode(const aiScene& scene, const aiNode& node);

/// The first node (depth first from the root) with this name, or null.
const aiNode* findNode(const aiNode& root, const std::string& name);

}  // namespace floptle::asset::detail
