#pragma once
// The surface of each world collider, by collider index: its node's material friction and
// restitution, and whether its field changes with time. One place for the build, the live
// tuning and the scripts' collider changes.
#include <vector>

#include "floptle/core/scene/scene.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/rigid_body_system.h"

namespace floptle::runtime {

std::vector<physics::SurfaceMaterial> worldSurfaces(const scene::Scene& sc,
                                                    const physics::CollisionWorld& world);

}  // namespace floptle::runtime
