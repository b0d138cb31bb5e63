#pragma once
// The gravity field of a scene, composed once for the simulation and `floptle query`: the
// settings' "gravity" (the vector form as the global tier) plus each node's "gravity_source"
// emitter ("planet": a planet source at the node's world position; "newtonian": a uniform
// ball of the node's mass, m = rho V with V integrated from the node's field, at its centroid,
// of the radius that holds V), and tier 3 over the scene's collision world.
#include <memory>

#include "floptle/core/expected.h"
#include "floptle/core/scene/gravity_desc.h"

namespace floptle::scene {
struct Scene;
}
namespace floptle::physics {
class CollisionWorld;
}

namespace floptle::gravity {

class DensityGravity;

/// Errors name the emitter's JSON pointer.
Expected<scene::GravityFieldDesc> sceneGravityField(const scene::Scene& scene);

/// Tier 3 of the scene's field `desc` over `world` (built from the same scene; does not own
/// it): the density grid's matter is every collider of a node that is collidable fixed
/// geometry (no dynamic body, character, vehicle or Drift boat), at its material's density.
/// Null when `desc` has neither a density tier nor bodies_attract.
Expected<std::shared_ptr<DensityGravity>> sceneDensityGravity(const scene::Scene& scene,
                                                              const scene::GravityFieldDesc& desc,
                                                              const physics::CollisionWorld& world);

/// Whether the scene's gravity is one constant vector (no field needed: settings.gravity).
bool isUniform(const scene::Scene& scene);

}  // namespace floptle::gravity
