// importMeshObjects: the file's node tree -> MeshObjectTree (see mesh_objects.h).
#include "floptle/core/asset/mesh_objects.h"

#include <map>
#include <set>

#include "assimp_scene.h"

namespace floptle::asset {
namespace {

struct TreeBuilder {
  const detail::AssimpFile& file;
  const aiScene& scene;
  const std::map<const aiNode*, detail::NodePlacement>& placements;
  MeshObjectTree& tree;
  std::map<std::vector<unsigned>, std::string> firstUserOfMeshes;

  void visit(const aiNode& node, int parent) {
    int self = parent;
    if (detail::isObjectNode(scene, node)) {
      self = static_cast<int>(tree.objects.size());
      tree.objects.push_back(objectOf(node, parent));
    }
    for (unsigned i = 0; i < node.mNumChildren; ++i) visit(*node.mChildren[i], self);
  }

  MeshObject objectOf(const aiNode& node, int parent) {
    MeshObject object;
    object.name = node.mName.C_Str();
    object.parent = parent;
    object.local = placements.at(&node).local;
    std::set<unsigned> seenMaterials;
    std::vector<unsigned> meshes(node.mMeshes, node.mMeshes + node.mNumMeshes);
    for (unsigned index : meshes) {
      const aiMesh& mesh = *scene.mMeshes[index];
      if (!(mesh.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
      std::size_t triangles = 0;
      for (unsigned f = 0; f < mesh.mNumFaces; ++f) triangles += mesh.mFaces[f].mNumIndices == 3;
      object.triangleCount += triangles;
      if (triangles == 0) continue;
      if (detail::withoutSlot(file, node, mesh)) {
        object.hasFacesWithoutSlot = true;
      } else if (seenMaterials.insert(mesh.mMaterialIndex).second) {
        object.materialSlots.push_back(*detail::materialSlot(scene, mesh.mMaterialIndex, file.ext));
      }
    }
    if (object.triangleCount > 0) {
      auto [it, first] = firstUserOfMeshes.emplace(meshes, object.name);
      if (!first) object.instanceOf = it->second;
    }
    return object;
  }
};

}  // namespace

Expected<MeshObjectTree> importMeshObjects(const std::filesystem::path& path,
                                           const ImportOptions& options,
                                           const ImportProgress& progress,
                                           const std::atomic<bool>* cancel) {
  auto file = detail::readAssimpFile(path, progress, cancel);
  if (!file) return file.error();
  const aiScene& scene = *file->scene;
  const aiMatrix4x4 frame = detail::sceneFrame(scene, file->ext, options);
  const auto placements =
      detail::placeNodes(scene, frame, detail::objectFrame(*file, frame, options));
  MeshObjectTree tree;
  tree.sourceFiles = file->sourceFiles;
  TreeBuilder{*file, scene, placements, tree, {}}.visit(*scene.mRootNode, -1);
  if (cancel && cancel->load()) return Error{path.string(), "import cancelled"};
  if (tree.objects.empty()) return Error{path.string(), "the file holds no objects"};
  for (const MeshObject& object : tree.objects)
    if (!isFinite(object.local.position) || !std::isfinite(object.local.scale) ||
        !(object.local.scale > 0.0f))
      return Error{path.string(),
                   "object '" + object.name + "' has a non-finite or zero transform"};
  if (progress) progress(1.0f, "done");
  return tree;
}

}  // namespace floptle::asset
