#pragma once
// A scene's physics simulation: the one assembly of colliders, bodies and controllers from a
// scene document, and the tuning a running simulation takes live.
//
// Assembly (buildSimulation): static and kinematic collidable nodes become world colliders
// (physics::buildCollisionWorld), dynamic ones rigid bodies (mass = density x volume),
// "character" and "vehicle" nodes controllers, in scene node order (so every id is
// deterministic). The gravity every body samples is the scene's settings.gravity.
#include <filesystem>

#include "floptle/core/expected.h"
#include "floptle/physics/simulation.h"

namespace floptle::scene {
struct Scene;
}

namespace floptle::runtime {

struct BuildOptions {
  /// Resolves relative asset paths (meshes, baked fields).
  std::filesystem::path sceneDir;
};

Expected<physics::Simulation> buildSimulation(const scene::Scene& scene,
                                              const BuildOptions& options = {});

/// Installs into a running simulation what it can take without being rebuilt, read from the
/// scene as it is now: surface friction and restitution (world colliders and bodies), body
/// density (mass), the character's and the vehicle's controller values. Shapes, transforms
/// and new nodes wait for the next build. A controller whose component has a value out of
/// range keeps its old values (the inspector refuses such values before they get here).
void applyTuning(const scene::Scene& scene, physics::Simulation& simulation);

}  // namespace floptle::runtime
