#pragma once
// A scene's physics simulation: the one assembly of colliders, bodies and controllers from a
// scene document, and the tuning a running simulation takes live.
//
// Assembly (buildSimulation): static and kinematic collidable nodes become world colliders
// (physics::buildCollisionWorld), dynamic ones rigid bodies (mass = density x volume),
// "character" and "vehicle" nodes controllers, in scene node order (so every id is
// deterministic). The gravity every body samples is the scene's settings.gravity.
#include <atomic>
#include <filesystem>
#include <functional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/physics/simulation.h"

namespace floptle::scene {
struct Scene;
}
namespace floptle::physics {
class MeshColliderCache;
}

namespace floptle::runtime {

struct BuildOptions {
  /// Resolves relative asset paths (meshes, baked fields).
  std::filesystem::path sceneDir;
  /// Mesh colliders are found and kept here (physics/mesh_collider_cache.h); null builds every
  /// mesh afresh. Not owned; must outlive the build.
  physics::MeshColliderCache* meshCache = nullptr;
  /// Fraction in [0, 1] of the whole build and the stage in words (mesh imports and bakes
  /// report through it); called on the building thread.
  std::function<void(float fraction, std::string_view stage)> progress;
  /// Polled by the build (between colliders, inside imports and bakes): once set, the build
  /// stops and answers an error with what = "cancelled". Not owned.
  const std::atomic<bool>* cancel = nullptr;
  /// The scene document's "scripts" array (its scene-level scripts; the typed Scene carries
  /// node components only), or null for none. Not owned. SceneRuntime::build sets it.
  const nlohmann::ordered_json* sceneScripts = nullptr;
};

Expected<physics::Simulation> buildSimulation(const scene::Scene& scene,
                                              const BuildOptions& options = {});

/// Installs into a running simulation what it can take without being rebuilt, read from the
/// scene as it is now: surface friction and restitution (world colliders and bodies), body
/// density (mass), the character's and the vehicle's controller values. Shapes, transforms
/// and new nodes wait for the next build. A controller whose component has a value out of
/// range keeps its old values (the inspector refuses such values before they get here).
void applyTuning(const scene::Scene& scene, physics::Simulation& simulation);

/// The running simulation's static composition made again from `scene` (its interaction rules
/// changed): physics::recomposeBlendedColliders at the simulation's time, then the bodies'
/// per-collider surfaces re-read and every body woken. An error (naming the node) leaves the
/// world as it was.
Expected<void> recomposeStatics(const scene::Scene& scene, physics::Simulation& simulation);

}  // namespace floptle::runtime
