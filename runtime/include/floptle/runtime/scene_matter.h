#pragma once
// The matter part of buildSimulation: which nodes are soft bodies (the "matter" component's
// tier soft_body on a node with a shape), and their cages. A soft body's own collider stays
// in the world for its shape but answers no queries (the cage is what collides).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floptle/core/brickmap/brick_map.h"
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

/// One of the matter's current fields in the shared brickmaps (matter::SoftBodySurfaceMap), for
/// a viewer: the surface of the soft bodies of one material.
struct MatterSurface {
  const BrickMap* map = nullptr;
  /// The material id of its bodies ("" for none) and the node of its first body.
  std::string material;
  std::string firstBody;
  /// The top cells re-sampled since the previous call (each once); on the first call, when the
  /// map was just baked, empty and `whole` is set: upload the whole map.
  std::vector<glm::ivec3> changedCells;
  bool whole = false;
};

/// How far past the soft bodies' bounds the shared brickmaps reach, at most (m).
inline constexpr float kMatterReach = 16.0f;

/// The shared brickmaps of a running simulation's soft bodies, one per material in the order
/// of the materials' first bodies: baked on the first call (the bodies' current skinned field
/// over their bounds and the static world's finite bounds, within kMatterReach of the bodies;
/// each body's rest field is its node's collider at t = 0), then re-baked by every step on each
/// map's budget (SoftBodySurfaceMap::kDefaultBudget top cells a step). Only drawing reads them,
/// so a simulation nobody draws never pays for them. Empty without soft bodies; errors name the
/// body's node.
Expected<std::vector<MatterSurface>> matterSurfaces(physics::Simulation& sim);

}  // namespace floptle::runtime
