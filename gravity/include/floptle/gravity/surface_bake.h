#pragma once
// The baked smoothing of SDF-surface gravity (seed 001, tier 2): the distance to the world's
// collidable surface sampled once on a sparse grid (BrickMap) and blurred, so the pull's
// gradient is the trilinear grid's own, smooth across folds, and a sample costs one brick
// lookup instead of four world queries.
#include <atomic>
#include <memory>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"
#include "floptle/core/scene/gravity_desc.h"
#include "floptle/physics/collision_world.h"

namespace floptle::gravity {

/// Bakes the world's collidable surface as it stands at time t over the union of its bounded
/// colliders' boxes, padded by the pull's range and the blur. Bricks cover every point within
/// range (plus the blur) of the surface, so where the grid has none the pull is zero anyway.
/// The blur averages the raw grid over the 8 corners of a cube of half size sdf.blur cells (a
/// filter of standard deviation blur cells along each axis; a plane stays the same plane). Returns
/// null when no collider is bounded (a world of planes only): nothing to bake, the live difference
/// answers. Errors name "smoothing/baked" (a grid too large for the cell size, cancellation).
Expected<std::shared_ptr<const BrickMap>> bakeSurfaceGravity(
    const physics::CollisionWorld& world, const scene::GravitySdfDesc& sdf, double t,
    const BakeProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

}  // namespace floptle::gravity
