// runMeshImport: the worker-thread part of the editor's Import Mesh (import, collider, optional
// bake, through the editor's mesh collider cache), or the file's object tree. The scene JSON
// comes from asset::meshSceneEntries / meshSubtreeEntries, shared with `floptle import`.

#include "floptle/editor/import_mesh.h"
#include "import/import_worker.h"

namespace floptle::editor {

Expected<MeshImportResult> runMeshImport(const MeshImportRequest& request,
                                         physics::MeshColliderCache& cache,
                                         const asset::ImportProgress& progress,
                                         const std::atomic<bool>* cancel) {
  const std::string file = request.file.string();
  if (request.perObject) {
    // The tree only: each object's collider is built (and cached) when its node is first
    // drawn or played, under the node's own transform.
    auto objects = importMeshObjectsInWorker(request.file, request.options, progress, cancel);
    if (cancel && cancel->load()) return Error{file, "cancelled"};
    if (!objects) return Error{"", objects.error().message()};
    MeshImportResult result;
    result.objects = std::move(objects).value();
    return result;
  }
  // The node as the scene will hold it: meshSceneEntries writes no transform (identity), the
  // request's up axis and unit scale, and no cell size (the physics default).
  physics::MeshColliderRequest collider;
  collider.file = request.file;
  collider.options = request.options;
  collider.world = Transform::identity();
  collider.bakeField = request.collision == MeshCollision::BakedField;
  collider.cellSize = kMeshFieldCellSize;
  if (cancel && cancel->load()) return Error{file, "cancelled"};
  auto built = cache.build(collider, progress, cancel);
  if (cancel && cancel->load()) return Error{file, "cancelled"};
  if (!built) {
    // "file" errors name the path in their text; a bake's ("cell_size") get it here.
    const std::string& what = built.error().what;
    return built.error().where == "file" ? Error{"", what} : Error{file, what};
  }
  MeshImportResult result;
  result.mesh = built->mesh->mesh();  // world space under the identity: the file's own vertices
  if (built->field) result.bakedBricks = std::size_t(built->field->brickCount());
  result.fromCache = built->fromCache;
  return result;
}

}  // namespace floptle::editor
