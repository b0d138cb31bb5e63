// runMeshImport: the worker-thread part of the editor's Import Mesh (import, then optionally
// bake). The scene JSON comes from asset::meshSceneEntries, shared with `floptle import`.

#include "floptle/editor/import_mesh.h"
#include "floptle/physics/mesh_field_bake.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::editor {
namespace {

/// Share of the progress bar the import takes when a bake follows (-): the bake dominates.
constexpr float kImportShareWithBake = 0.3f;

}  // namespace

Expected<MeshImportResult> runMeshImport(const MeshImportRequest& request,
                                         const asset::ImportProgress& progress,
                                         const std::atomic<bool>* cancel) {
  const bool bake = request.collision == MeshCollision::BakedField;
  const float importShare = bake ? kImportShareWithBake : 1.0f;
  auto report = [&](float fraction, std::string_view stage) {
    if (progress) progress(fraction, stage);
  };
  auto mesh = asset::importMesh(
      request.file, request.options,
      [&](float f, std::string_view stage) { report(f * importShare, stage); }, cancel);
  if (!mesh) return mesh.error();
  if (mesh->triangleCount() == 0) return Error{request.file.string(), "the file holds no triangles"};
  if (cancel && cancel->load()) return Error{request.file.string(), "cancelled"};
  MeshImportResult result;
  if (bake) {
    report(importShare, "building the triangle BVH");
    auto collider = physics::TriMeshCollider::create(*mesh);
    if (!collider) return Error{request.file.string(), collider.error().message()};
    physics::MeshFieldBakeSettings settings;
    settings.cellSize = kMeshFieldCellSize;
    settings.threads = 2;
    auto map = physics::bakeMeshField(
        **collider, settings,
        [&](float f, std::string_view stage) { report(importShare + f * (1.0f - importShare), stage); },
        cancel);
    if (!map) return Error{request.file.string(), map.error().message()};
    if (cancel && cancel->load()) return Error{request.file.string(), "cancelled"};
    result.bakedBricks = std::size_t(map->brickCount());
  }
  report(1.0f, "done");
  result.mesh = std::move(mesh).value();
  return result;
}

}  // namespace floptle::editor
