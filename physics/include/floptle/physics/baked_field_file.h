#pragma once
// Baked fields as files (issue 4): any collider baked into a BrickMap, and the scene's
// "baked_field" component, which places an OpenVDB level set (.vdb, e.g. from
// `floptle bake`, Blender or Houdini) in the scene as a collider.
//
// "baked_field": {"file": "relative/path.vdb",   (required, relative to the scene file)
//                 "grid": "surface"}              (optional; default "surface", else the
//                                                  file's first float grid)
//   -> a BakedFieldCollider over the file's level set (trilinear distance, gradient normals,
//      empty-space skipping casts), placed under the node's world transform (position,
//      rotation, uniform scale). The file is read once, when the world is built; with no
//      exact source there is no near field and no re-bake.
// Errors name the member ("baked_field/file: rock.vdb: grid 'density': is a fog volume, ...");
// the caller prefixes the node's JSON pointer.
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/physics/collision_shape.h"
#include "floptle/physics/mesh_field_bake.h"

namespace floptle::physics {

/// The scene component above -> its level set as a BrickMap in the file's own frame (what the
/// collider answers and what the viewport and `floptle render` draw, placed under the node's
/// world transform). Errors name the member, as above.
Expected<BrickMap> readBakedFieldMap(const nlohmann::ordered_json& component,
                                     const std::filesystem::path& sceneDir);

/// The scene component above -> a collider. `world` is the node's full world transform.
Expected<std::unique_ptr<CollisionShape>> makeBakedFieldFileCollider(
    const nlohmann::ordered_json& component, const std::filesystem::path& sceneDir,
    const Transform& world);

/// The mesh bake's settings (cell, band, threads) and the time a field is sampled at.
struct ColliderBakeSettings : MeshFieldBakeSettings {
  /// Time the shape is sampled at (s).
  double t = 0.0;
};

/// Bakes a collider's surface into a BrickMap in world space: a triangle mesh through
/// bakeMeshField (winding-number sign, BVH distance), a baked field by re-sampling its own
/// distance, any other shape by sampling distance(p, t) over its aabb(t). Errors: bad
/// settings, an unbounded shape (a plane: bake a bounded node), cancellation.
Expected<BrickMap> bakeColliderField(const CollisionShape& shape,
                                     const ColliderBakeSettings& settings,
                                     const BakeProgress& progress = {},
                                     const std::atomic<bool>* cancel = nullptr);

}  // namespace floptle::physics
