// PlaySession, Drift scenes: ripple placements and tuning edits recorded as Drift's replay
// commands (drift/replay.h), given to the sandbox by tick, the same path live and in a replay.
#include <algorithm>
#include <cmath>

#include "floptle/drift/drift_json.h"
#include "floptle/drift/sandbox.h"
#include "floptle/editor/play_session.h"

namespace floptle::editor {
namespace {

/// The tuning keys of the drift component with their values (boat_position and
/// boat_velocity are the start state, not tuning).
nlohmann::json tuningKeys(const drift::Tuning& tuning) {
  nlohmann::json keys = nlohmann::json::parse(drift::driftSetupToJson({tuning, {}}).dump());
  keys.erase("boat_position");
  keys.erase("boat_velocity");
  return keys;
}

}  // namespace

bool PlaySession::placeRipple(double x, double z) {
  if (!sandbox() || state_ == PlayState::Stopped) return false;
  return recordPlacement(x, z);
}

std::vector<drift::ReplayInput>::const_iterator PlaySession::driftInputsAt(
    std::uint64_t tick) const {
  // Ordered by tick (replayInputsFromJson); the ones of one tick keep their order.
  return std::lower_bound(
      driftInputs_.begin(), driftInputs_.end(), tick,
      [](const drift::ReplayInput& input, std::uint64_t t) { return input.tick < t; });
}

void PlaySession::giveDriftInputs() {
  drift::Sandbox* box = sandbox();
  if (!box) return;
  const std::uint64_t now = box->tickIndex();
  for (auto it = driftInputsAt(now); it != driftInputs_.end() && it->tick == now; ++it) {
    if (Expected<void> given = drift::applyReplayInput(*box, *it); !given)
      emit message(
          tr("Drift input refused: %1").arg(QString::fromStdString(given.error().message())));
  }
}

bool PlaySession::recordPlacement(double x, double z) {
  drift::Sandbox* box = sandbox();
  if (!box || replaying_ || !std::isfinite(x) || !std::isfinite(z)) return false;
  const std::uint64_t now = box->tickIndex();
  int waiting = box->queuedPlacements();
  for (auto it = driftInputsAt(now); it != driftInputs_.end() && it->tick == now; ++it)
    waiting += it->changesTuning ? 0 : 1;
  if (waiting >= drift::kMaxQueuedPlacements) return false;  // the sandbox would refuse it
  if (now < recording_.ticks) branch();
  // Given to the sandbox when its tick runs (recordedStep), as a replay gives it.
  recording_.inputs.push_back({{"tick", now}, {"place", {x, z}}});
  rebuildEvents();
  return true;
}

void PlaySession::recordDriftEdit() {
  drift::Sandbox* box = sandbox();
  const drift::Tuning before = box->tuning();
  lastCopyJson_ = std::make_shared<const Json>(copy_->json());
  // Installed as an edit outside recording would be; a refused one changes nothing.
  applyCopyToSimulation();
  const nlohmann::json was = tuningKeys(before);
  const nlohmann::json now = tuningKeys(box->tuning());
  nlohmann::json changed = nlohmann::json::object();
  for (const auto& [key, value] : now.items())
    if (was.value(key, nlohmann::json()) != value) changed[key] = value;
  if (changed.empty()) return;  // refused, or a key the physics never reads
  if (replaying_ || tick() < recording_.ticks) {
    // The edit is in: the branch keeps the sandbox as it is now.
    branch();
  }
  recording_.inputs.push_back({{"tick", box->tickIndex()}, {"tuning", changed}});
  rebuildEvents();
}

}  // namespace floptle::editor
