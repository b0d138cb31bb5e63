#pragma once
// SnapshotKeeper: saved states of a running simulation (physics, or the Drift sandbox) every N
// ticks, within a memory budget, so a timeline can go to any tick: restore the nearest kept
// snapshot at or before it, then step forward (the simulation is deterministic, so the state
// reached equals the one of a run straight to that tick). When the kept snapshots outgrow the
// budget, N doubles and every snapshot off the new grid is dropped: the gap to step grows, the
// memory does not.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "floptle/physics/simulation.h"

namespace floptle::drift {
class Sandbox;
}

namespace floptle::runtime {

class SceneRuntime;

/// Bytes a saved state holds in its vectors (bodies, contacts' warm start, characters,
/// inputs, wheels, gravity). Colliders' and the matter stage's step states are shared copy on
/// write between snapshots (SimulationState) and are not counted.
std::size_t stateBytes(const physics::SimulationState& state);

class SnapshotKeeper {
 public:
  /// `budgetBytes`: the most the kept states may hold (stateBytes); `every`: the first interval
  /// (ticks, >= 1).
  explicit SnapshotKeeper(std::size_t budgetBytes = std::size_t(64) << 20,
                          std::uint64_t every = 30);

  /// After each tick (and once at tick 0): keeps the state when its tick is on the grid and
  /// not kept yet.
  void offer(const physics::Simulation& simulation);
  /// Drift: the state is the whole sandbox (fixed arrays, no heap: sizeof(drift::Sandbox)
  /// bytes a snapshot), copied.
  void offer(const drift::Sandbox& sandbox);
  /// Whichever simulation `runtime` runs.
  void offer(const SceneRuntime& runtime);
  /// The kept state of the greatest tick <= `tick` (null when none, or of the other kind).
  const physics::SimulationState* nearest(std::uint64_t tick) const;
  const drift::Sandbox* nearestDrift(std::uint64_t tick) const;
  /// The greatest kept tick <= `tick` (empty when none).
  std::optional<std::uint64_t> nearestTick(std::uint64_t tick) const;
  /// Puts `runtime` back to the kept state of the greatest tick <= `tick`; false when there
  /// is none of its kind.
  bool restoreNearest(SceneRuntime& runtime, std::uint64_t tick) const;
  /// Forgets the states after `tick` (a branch: they belong to another future).
  void dropAfter(std::uint64_t tick);
  void clear() { kept_.clear(), bytes_ = 0; }

  /// The kept ticks, ascending.
  std::vector<std::uint64_t> ticks() const;
  std::uint64_t every() const { return every_; }
  std::size_t bytes() const { return bytes_; }
  std::size_t size() const { return kept_.size(); }
  std::size_t budget() const { return budget_; }

 private:
  void thin();
  std::size_t budget_;
  std::uint64_t every_;
  std::size_t bytes_ = 0;
  /// One kept state: exactly one of the two is set.
  struct Kept {
    std::optional<physics::SimulationState> physics;
    std::shared_ptr<const drift::Sandbox> drift;
    std::size_t bytes = 0;
  };
  void keep(std::uint64_t tick, Kept kept);
  const Kept* nearestKept(std::uint64_t tick) const;
  std::map<std::uint64_t, Kept> kept_;
};

}  // namespace floptle::runtime
