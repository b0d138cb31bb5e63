// SnapshotKeeper: states every N ticks within a memory budget.
#include "floptle/runtime/session_snapshots.h"

#include "floptle/drift/sandbox.h"
#include "floptle/runtime/scene_runtime.h"

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
  Kept kept;
  kept.physics = simulation.save();
  kept.bytes = stateBytes(*kept.physics);
  keep(tick, std::move(kept));
}

void SnapshotKeeper::offer(const drift::Sandbox& sandbox) {
  const std::uint64_t tick = sandbox.tickIndex();
  if (tick % every_ != 0 || kept_.count(tick)) return;
  Kept kept;
  kept.drift = std::make_shared<const drift::Sandbox>(sandbox);
  kept.bytes = sizeof(drift::Sandbox);
  keep(tick, std::move(kept));
}

void SnapshotKeeper::offer(const SceneRuntime& runtime) {
  if (const physics::Simulation* simulation = runtime.physics()) offer(*simulation);
  if (const drift::Sandbox* sandbox = runtime.drift()) offer(*sandbox);
}

void SnapshotKeeper::keep(std::uint64_t tick, Kept kept) {
  bytes_ += kept.bytes;
  kept_.emplace(tick, std::move(kept));
  // Tick 0 is always on the grid: at least one snapshot stays, whatever the budget.
  while (bytes_ > budget_ && kept_.size() > 1) thin();
}

void SnapshotKeeper::thin() {
  every_ *= 2;
  for (auto it = kept_.begin(); it != kept_.end();) {
    if (it->first % every_ != 0) {
      bytes_ -= it->second.bytes;
      it = kept_.erase(it);
    } else {
      ++it;
    }
  }
}

const SnapshotKeeper::Kept* SnapshotKeeper::nearestKept(std::uint64_t tick) const {
  auto it = kept_.upper_bound(tick);
  if (it == kept_.begin()) return nullptr;
  return &std::prev(it)->second;
}

std::optional<std::uint64_t> SnapshotKeeper::nearestTick(std::uint64_t tick) const {
  auto it = kept_.upper_bound(tick);
  if (it == kept_.begin()) return std::nullopt;
  return std::prev(it)->first;
}

const physics::SimulationState* SnapshotKeeper::nearest(std::uint64_t tick) const {
  const Kept* kept = nearestKept(tick);
  return kept && kept->physics ? &*kept->physics : nullptr;
}

const drift::Sandbox* SnapshotKeeper::nearestDrift(std::uint64_t tick) const {
  const Kept* kept = nearestKept(tick);
  return kept ? kept->drift.get() : nullptr;
}

bool SnapshotKeeper::restoreNearest(SceneRuntime& runtime, std::uint64_t tick) const {
  if (physics::Simulation* simulation = runtime.physics()) {
    const physics::SimulationState* state = nearest(tick);
    if (!state) return false;
    simulation->restore(*state);
    return true;
  }
  drift::Sandbox* sandbox = runtime.drift();
  const drift::Sandbox* kept = nearestDrift(tick);
  if (!sandbox || !kept) return false;
  *sandbox = *kept;
  return true;
}

std::vector<std::uint64_t> SnapshotKeeper::ticks() const {
  std::vector<std::uint64_t> out;
  out.reserve(kept_.size());
  for (const auto& [tick, kept] : kept_) out.push_back(tick);
  return out;
}

void SnapshotKeeper::dropAfter(std::uint64_t tick) {
  for (auto it = kept_.upper_bound(tick); it != kept_.end();) {
    bytes_ -= it->second.bytes;
    it = kept_.erase(it);
  }
}

}  // namespace floptle::runtime
