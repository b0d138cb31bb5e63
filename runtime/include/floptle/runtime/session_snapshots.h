#pragma once
// SnapshotKeeper: saved states of a running physics simulation every N ticks, within a memory
// budget, so a timeline can go to any tick: restore the nearest kept snapshot at or before it,
// then step forward (the simulation is deterministic, so the state reached equals the one of
// a run straight to that tick). When the kept snapshots outgrow the budget, N doubles and
// every snapshot off the new grid is dropped: the gap to step grows, the memory does not.
#include <cstddef>
#include <cstdint>
#include <map>

#include "floptle/physics/simulation.h"

namespace floptle::runtime {

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
  /// The kept state of the greatest tick <= `tick` (null when none).
  const physics::SimulationState* nearest(std::uint64_t tick) const;
  /// Forgets the states after `tick` (a branch: they belong to another future).
  void dropAfter(std::uint64_t tick);
  void clear() { kept_.clear(), bytes_ = 0; }

  std::uint64_t every() const { return every_; }
  std::size_t bytes() const { return bytes_; }
  std::size_t size() const { return kept_.size(); }
  std::size_t budget() const { return budget_; }

 private:
  void thin();
  std::size_t budget_;
  std::uint64_t every_;
  std::size_t bytes_ = 0;
  std::map<std::uint64_t, physics::SimulationState> kept_;
};

}  // namespace floptle::runtime
