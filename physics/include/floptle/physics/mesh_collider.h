#pragma once
// Colliders for the scene's "mesh" and "terrain" components; called by buildCollisionWorld.
//
// "mesh": {"file": "relative/path.glb|.gltf|.obj|.fbx",   (required, relative to the scene file)
//          "collision": "mesh" | "field",                   (default "mesh")
//          "cell_size": m,                                  (field only, default 0.25, > 0)
//          "near_radius": m,                                (field only, default 2: exact mesh
//                                                            within this radius of active bodies)
//          "up_axis": "auto" | "y" | "z",                   (default "auto", see mesh_import.h)
//          "unit_scale": meters per file unit,              (default from the format)
//          "object": "Suzanne"}                             (default: the whole file; else
//                                                            that object alone, in its own
//                                                            frame: the node places it)
//   "mesh"  -> a TriMeshCollider (labelled with the file's material slots);
//   "field" -> a BakedFieldCollider baked from it (the TriMeshCollider kept as the near field).
//   Both go through the caller's mesh collider cache when it passes one
//   (ColliderBuildOptions::meshCache, mesh_collider_cache.h): the same file (unchanged on disk),
//   options, transform and cell size are imported, built and baked once per cache; each call
//   gets its own collider over the shared BVH and its own copy of the baked map.
// "terrain": {"collision": "drawn" | "field", "cell_size": m, "bounds": {"min": [..], "max": [..]}}
//   "drawn" (default) -> the field collider's drawn_surface at cell_size (default 0.25) as an
//            unlabelled TriMeshCollider (a terrain has one surface: faceLabel answers none);
//   "field"  -> the field collider itself.
//   "bounds" limits the drawn region (needed when the field is unbounded, e.g. a plane).
// Errors name the offending member ("mesh/file", "terrain/cell_size", ...); the caller prefixes
// the node's JSON pointer.
#include <atomic>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/physics/collision_shape.h"
#include "floptle/physics/mesh_collider_cache.h"

namespace floptle::physics {

/// How colliders from files are built (makeMeshCollider, buildCollisionWorld): where meshes
/// are cached, and the long job's progress and cancel.
struct ColliderBuildOptions {
  /// Finds and keeps colliders here; null builds every mesh afresh and keeps it nowhere. Not
  /// owned; must outlive the build.
  MeshColliderCache* meshCache = nullptr;
  /// See MeshColliderRequest::keep (false for a transform that only passes by).
  bool keepInCache = true;
  /// Fraction in [0, 1] of the whole build and the stage in words; called on the building
  /// thread.
  BakeProgress progress;
  /// Polled by the import and the bake: once set, the build stops with an error.
  const std::atomic<bool>* cancel = nullptr;
};

/// The mesh component read into a cache request under `world` (file resolved against
/// sceneDir, import options, field choice and cell). Errors as makeMeshCollider's.
Expected<MeshColliderRequest> meshColliderRequest(const nlohmann::ordered_json& meshComponent,
                                                  const std::filesystem::path& sceneDir,
                                                  const Transform& world);

/// `world` is the node's full world transform, applied to the mesh's vertices.
Expected<std::unique_ptr<CollisionShape>> makeMeshCollider(
    const nlohmann::ordered_json& meshComponent, const std::filesystem::path& sceneDir,
    const Transform& world, const ColliderBuildOptions& options = {});

/// `field` is the terrain node's analytic field collider (its shape under its full transform).
Expected<std::unique_ptr<CollisionShape>> makeTerrainCollider(
    const nlohmann::ordered_json& terrainComponent, std::unique_ptr<CollisionShape> field,
    double t = 0.0);

}  // namespace floptle::physics
