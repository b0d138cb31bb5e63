#pragma once
// The matter part of buildSimulation: which nodes are soft bodies (the "matter" component's
// tier soft_body on a node with a shape), and their cages. A soft body's own collider stays
// in the world for its shape but answers no queries (the cage is what collides).
#include <memory>
#include <optional>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"
#include "floptle/matter/soft_body_stage.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/simulation.h"

namespace floptle::runtime {

/// Whether scene node `node` is a soft body (errors: a bad "matter" component, naming its
/// pointer).
Expected<bool> isSoftBody(const scene::SceneNode& node);

/// The soft bodies of the scene, in node order, built from their colliders' fields in `world`
/// at t = 0; null when there are none (the simulation then has no matter stage, and its
/// hash is that of a scene without matter).
Expected<std::unique_ptr<matter::SoftBodyStage>> buildSoftBodies(
    const scene::Scene& sc, const physics::CollisionWorld& world);

/// What the play HUD counts (particles, bonds, sleeping bodies, bodies) in a running
/// simulation; nullopt when it has no soft bodies.
std::optional<matter::MatterCounts> matterCounts(const physics::Simulation& sim);

}  // namespace floptle::runtime
