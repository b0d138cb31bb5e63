// SnapshotKeeper: states every N ticks within a memory budget.
#include "floptle/runtime/session_snapshots.h"

namespace floptle::runtime {

std::size_t stateBytes(const physics::SimulationState& s) {
  std::size_t bytes = sizeof(physics::SimulationState);
  bytes += s.bodies.states.size() * sizeof(physics::BodyState);
  bytes += s.bodies.warmStart.size() * sizeof(physics::WarmStartEntry);
  bytes += s.characters.size() * sizeof(physics::CharacterState);
  bytes += s.characterInputs.size() * sizeof(physics::CharacterInput);
  for (const auto& wheels : s.wheels) bytes += wheels.size() * sizeof(physics::WheelState);
  bytes += s.vehicleInputs.size() * sizeof(physics::VehicleInput);
  bytes += (s.characterGravity.size() + s.bodyGravity.size()) * sizeof(Vec3);
  bytes += s.colliders.size() * sizeof(s.colliders[0]);
  return bytes;
}

SnapshotKeeper::SnapshotKeeper(std::size_t budgetBytes, std::uint64_t every)
    : budget_(budgetBytes), every_(every == 0 ? 1 : every) {}

void SnapshotKeeper::offer(const physics::Simulation& simulation) {
  const std::uint64_t tick = simulation.tick();
  if (tick % every_ != 0 || kept_.count(tick)) return;
  physics::SimulationState state = simulation.save();
  bytes_ += stateBytes(state);
  kept_.emplace(tick, std::move(state));
  // Tick 0 is always on the grid: at least one snapshot stays, whatever the budget.
  while (bytes_ > budget_ && kept_.size() > 1) thin();
}

void SnapshotKeeper::thin() {
  every_ *= 2;
  for (auto it = kept_.begin(); it != kept_.end();) {
    if (it->first % every_ != 0) {
      bytes_ -= stateBytes(it->second);
      it = kept_.erase(it);
    } else {
      ++it;
    }
  }
}

const physics::SimulationState* SnapshotKeeper::nearest(std::uint64_t tick) const {
  auto it = kept_.upper_bound(tick);
  if (it == kept_.begin()) return nullptr;
  return &std::prev(it)->second;
}

void SnapshotKeeper::dropAfter(std::uint64_t tick) {
  for (auto it = kept_.upper_bound(tick); it != kept_.end();) {
    bytes_ -= stateBytes(it->second);
    it = kept_.erase(it);
  }
}

}  // namespace floptle::runtime
