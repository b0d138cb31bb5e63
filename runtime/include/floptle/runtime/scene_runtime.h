#pragma once
// SceneRuntime: a scene document running, whichever simulation it needs. The one place that
// makes the Drift-or-physics choice: a scene with a "drift" component (the first, depth
// first) runs the Drift sandbox; every other scene runs the physics simulation
// (buildSimulation). Play mode holds one; `floptle simulate` runs one through replay().
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/runtime/scene_simulation.h"

namespace floptle::drift {
class Sandbox;
}

namespace floptle::runtime {

enum class SimulationKind { Physics, Drift };

class SceneRuntime {
 public:
  /// Builds what `document` needs. `scene` is the typed model of the same document; it is
  /// only read for physics scenes (a Drift scene needs only its component). Errors name the
  /// JSON pointer.
  static Expected<SceneRuntime> build(const nlohmann::ordered_json& document,
                                      const scene::Scene& scene, const BuildOptions& options = {});

  SceneRuntime(SceneRuntime&&) noexcept;
  SceneRuntime& operator=(SceneRuntime&&) noexcept;
  ~SceneRuntime();

  SimulationKind kind() const { return drift_ ? SimulationKind::Drift : SimulationKind::Physics; }
  /// The physics simulation (null for Drift scenes).
  physics::Simulation* physics() const { return physics_.get(); }
  /// The Drift sandbox (null for physics scenes).
  drift::Sandbox* drift() const { return drift_.get(); }
  /// Drift scenes: the boat node's name and its component's JSON pointer ("/nodes/1/drift").
  const std::string& driftNode() const { return driftNode_; }
  const std::string& driftPointer() const { return driftPointer_; }

  /// One fixed tick of whichever simulation runs.
  void step();
  /// Ticks completed (-), and the fixed step (s).
  std::uint64_t tick() const;
  double fixedDt() const;

  /// Installs the tuning `document` (and its typed `scene`) now holds into the running
  /// simulation: physics takes applyTuning's values, and when the static composition changed
  /// (an interaction's rule or k, a static node's material) its blended colliders are made
  /// again (recomposeStatics; bodies keep their state); Drift validates its whole tuning and
  /// refuses it (keeping the old) with an error naming the value and why.
  Expected<void> applyTuning(const nlohmann::ordered_json& document, const scene::Scene& scene);

 private:
  SceneRuntime() = default;
  std::unique_ptr<physics::Simulation> physics_;
  std::unique_ptr<drift::Sandbox> drift_;
  std::string driftNode_;
  std::string driftPointer_;
  /// What decides the static composition, as the running world was made
  /// (compositionSignature).
  std::string composition_;
};

}  // namespace floptle::runtime
