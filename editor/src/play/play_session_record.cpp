// PlaySession, recording: inputs as tick-addressed events, edits as patches by tick, hashes,
// snapshots and series per tick; replay of a recording; the timeline (seek, step back,
// branch); the session file.
#include <algorithm>
#include <cmath>

#include <QElapsedTimer>
#include <QFileInfo>
#include <QTimer>

#include "floptle/drift/drift_json.h"
#include "floptle/drift/sandbox.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/play_session.h"
#include "floptle/physics/simulation.h"

namespace floptle::editor {
namespace {

QString text(const Error& error) {
  return QString::fromStdString(error.message());
}

QString hashText(std::uint64_t hash) {
  return QString::fromStdString(physics::Simulation::hashHex(hash));
}

}  // namespace

Expected<void> PlaySession::startReplay(const EditorDocument& document,
                                        runtime::PlayRecording recording) {
  if (auto checked = runtime::checkSessionInputs(recording.simulation, recording.inputs); !checked)
    return Error{"/inputs" + checked.error().where, checked.error().what};
  if (auto started = start(document); !started) return started;
  pendingReplay_ = std::move(recording);
  return {};
}

void PlaySession::beginRecording() {
  recordingOn_ = runtime_.has_value();
  replaying_ = false;
  replayDone_ = false;
  firstDiffering_.reset();
  lastMove_.reset();
  lastVehicle_.reset();
  series_.clear();
  snapshots_.clear();
  const runtime::SessionKind kind =
      sandbox() ? runtime::SessionKind::Drift : runtime::SessionKind::Physics;
  if (pendingReplay_ && pendingReplay_->simulation != kind) {
    emit message(
        tr("Replay refused: the session was recorded on a %1 scene; this one runs %2, "
           "so it plays live and records a new session")
            .arg(pendingReplay_->simulation == runtime::SessionKind::Drift ? tr("Drift")
                                                                           : tr("physics"))
            .arg(kind == runtime::SessionKind::Drift ? tr("the Drift sandbox") : tr("physics")));
    pendingReplay_.reset();
  }
  lastCopyJson_ = baseJson_;
  if (pendingReplay_) {
    recording_ = std::move(*pendingReplay_);
    pendingReplay_.reset();
    replaying_ = true;
    if (recording_.sceneHash != baseHash_)
      emit message(tr("Replay: the scene differs from the one recorded (scene hash %1, recorded "
                      "%2); the replay runs on the scene as it is now")
                       .arg(hashText(baseHash_))
                       .arg(hashText(recording_.sceneHash)));
  } else {
    recording_ = runtime::PlayRecording();
    recording_.scene = QFileInfo(filePath_).fileName().toStdString();
    recording_.simulation = kind;
    recording_.sceneHash = baseHash_;
    recording_.fixedDt = runtime_->fixedDt();
    recording_.finalHash = stateHash();
  }
  tuning_ = runtime::TuningSchedule(baseJson_, recording_.tuning);
  rebuildEvents();
  snapshots_.offer(*runtime_);
}

std::uint64_t PlaySession::stateHash() const {
  if (simulation()) return simulation()->stateHash();
  if (sandbox()) return sandbox()->stateHash();
  return 0;
}

void PlaySession::rebuildEvents() {
  if (physics::Simulation* sim = simulation()) {
    auto events = physics::parseInputEvents(recording_.inputs);
    events_ = events ? std::move(*events) : std::vector<physics::InputEvent>();
    sim->setInputEvents(events_);
    return;
  }
  auto commands = drift::replayInputsFromJson(recording_.inputs, "inputs");
  driftInputs_ = commands ? std::move(*commands) : std::vector<drift::ReplayInput>();
}

std::uint64_t PlaySession::endTick() const {
  return std::max(recording_.ticks, tick());
}

int PlaySession::admitTicks(int ticks) {
  if (!recordingOn_ || ticks <= 0) return ticks;
  if (replaying_) {
    const std::uint64_t left = recording_.ticks > tick() ? recording_.ticks - tick() : 0;
    return int(std::min<std::uint64_t>(std::uint64_t(ticks), left));
  }
  if (tick() < recording_.ticks) branch();
  return ticks;
}

void PlaySession::recordedStep(bool fresh) {
  if (Expected<void> due = tuning_.applyDue(*runtime_); !due)
    emit message(tr("Tuning edit refused: %1").arg(text(due.error())));
  // Drift: the commands of this tick, the same path live and in a replay (a tuning edit was
  // installed when it was made too: giving it again changes nothing).
  giveDriftInputs();
  QElapsedTimer wall;
  wall.start();
  runtime_->step();
  const double seconds = double(wall.nsecsElapsed()) * 1e-9;
  const std::uint64_t now = runtime_->tick();
  const std::uint64_t hash = stateHash();
  if (fresh && !replaying_) {
    recording_.addHash(now, hash);
    recording_.ticks = now;
    recording_.finalHash = hash;
  } else if (replaying_ && !firstDiffering_) {
    const std::optional<std::uint64_t> recorded = recording_.hashAfter(now);
    const bool last = now == recording_.ticks;
    if ((recorded && *recorded != hash) || (last && recording_.finalHash != hash)) {
      firstDiffering_ = now;
      emit message(tr("Replay differs from the recording at tick %1").arg(now));
    }
  }
  snapshots_.offer(*runtime_);
  if (physics::Simulation* sim = simulation()) series_.record(*sim, seconds);
}

void PlaySession::finishReplay() {
  if (!replaying_ || replayDone_ || tick() < recording_.ticks) return;
  replayDone_ = true;
  setPaused(true);
  const bool matches = !firstDiffering_;
  const QString verdict = matches
                              ? tr("Replay equals the recording: %1 ticks, final hash %2")
                                    .arg(recording_.ticks)
                                    .arg(hashText(recording_.finalHash))
                              : tr("Replay differs from the recording at tick %1%2")
                                    .arg(*firstDiffering_)
                                    .arg(recording_.sceneHash == baseHash_
                                             ? QString()
                                             : tr(" (the scene changed since it was recorded)"));
  emit message(verdict);
  emit replayFinished(matches, verdict);
}

void PlaySession::recordInput(nlohmann::json event) {
  physics::Simulation* sim = simulation();
  if (!sim || replaying_) return;
  event["tick"] = sim->tick();
  const nlohmann::json one = nlohmann::json::array({event});
  auto parsed = physics::parseInputEvents(one);  // the reader a replay uses: the same bits
  if (!parsed) {
    emit message(tr("Input not recorded: %1").arg(text(parsed.error())));
    return;
  }
  if (tick() < recording_.ticks) branch();
  const physics::InputEvent& e = parsed->front();
  recording_.inputs.push_back(event);
  events_.push_back(e);
  sim->setInputEvents(events_);
  // The control shows at once too (the HUD, the tests); the event sets the same values when
  // the tick runs, so the tick computes what its replay computes.
  if (auto c = sim->findCharacter(e.node)) {
    if (e.move) sim->characterInput(c->index).move = *e.move;
    if (e.jump) sim->characterInput(c->index).jump = true;
  } else if (auto v = sim->findVehicle(e.node)) {
    physics::VehicleInput& in = sim->vehicleInput(v->index);
    in = {e.throttle.value_or(in.throttle), e.brake.value_or(in.brake), e.steer.value_or(in.steer)};
  }
}

void PlaySession::recordEdit() {
  if (!copy_ || !runtime_) return;
  if (sandbox()) {
    recordDriftEdit();
    return;
  }
  const Json patch = Json::diff(*lastCopyJson_, copy_->json());
  lastCopyJson_ = std::make_shared<const Json>(copy_->json());
  if (patch.empty()) return;
  if (replaying_ || tick() < recording_.ticks) branch();
  recording_.tuning.push_back({tick(), patch});
  tuning_ = runtime::TuningSchedule(baseJson_, recording_.tuning);
  if (Expected<void> installed = tuning_.seek(*runtime_); !installed)
    emit message(tr("Tuning edit refused: %1").arg(text(installed.error())));
}

void PlaySession::branch() {
  if (!recordingOn_ || !runtime_) return;
  const std::uint64_t now = tick();
  recording_.truncate(now, stateHash());
  if (replaying_) {
    // The edits recorded before now stay; the copy's own edits are patched on top from here.
    lastCopyJson_ = std::make_shared<const Json>(copy_->json());
    recording_.scene = QFileInfo(filePath_).fileName().toStdString();
  }
  replaying_ = false;
  replayDone_ = false;
  firstDiffering_.reset();
  lastMove_.reset();
  lastVehicle_.reset();
  snapshots_.dropAfter(now);
  series_.truncate(now);
  tuning_ = runtime::TuningSchedule(baseJson_, recording_.tuning);
  rebuildEvents();
  emit timelineChanged();
}

Expected<void> PlaySession::seek(std::uint64_t target) {
  if (!runtime_ || !recordingOn_) return Error{"timeline", "only a recorded play session seeks"};
  target = std::min(target, endTick());
  setPaused(true);
  // The next control change records (and so branches) whatever was recorded after here.
  lastMove_.reset();
  lastVehicle_.reset();
  if (target != tick()) {
    const std::optional<std::uint64_t> kept = snapshots_.nearestTick(target);
    if (!kept) return Error{"timeline", "no snapshot at or before tick " + std::to_string(target)};
    if (target < tick() || *kept > tick()) {
      snapshots_.restoreNearest(*runtime_, target);
      if (Expected<void> tuned = tuning_.seek(*runtime_); !tuned) return tuned.error();
    }
    while (tick() < target) recordedStep(false);
    if (simulation()) sampleMovedNodes(false);
    for (MovedNode& m : moved_) m.previous = m.current;
  }
  emit timelineChanged();
  emit ticked();
  return {};
}

Expected<void> PlaySession::stepBack() {
  if (tick() == 0) return {};
  return seek(tick() - 1);
}

QString PlaySession::sessionPath() const {
  if (filePath_.isEmpty()) return QString();
  return QString::fromStdString(runtime::sessionPathFor(filePath_.toStdString()));
}

Expected<void> PlaySession::saveRecording(const QString& path) const {
  return runtime::writeRecordingFile(recording_, path.toStdString());
}

Expected<void> PlaySession::exportInputs(const QString& path) const {
  return runtime::writeInputsFile(recording_, path.toStdString());
}

}  // namespace floptle::editor
