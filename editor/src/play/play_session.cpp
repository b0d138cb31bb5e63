// PlaySession: lifecycle (pause / step / stop) and the frame timer; the build that start()
// runs is in play_session_build.cpp.
#include "floptle/editor/play_session.h"

#include <QFileInfo>
#include <QTimer>

#include "floptle/drift/sandbox.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/scene_runtime.h"
#include "play/play_scripts.h"

namespace floptle::editor {

void PlaySession::stop() {
  cancelBuild();
  if (state_ == PlayState::Stopped) return;
  timer_->stop();
  // Every recorded session is kept beside its scene (a replay that was not branched is the
  // file it came from).
  if (recording() && recording_.ticks > 0 && !sessionPath().isEmpty()) {
    if (Expected<void> saved = saveRecording(sessionPath()); !saved)
      emit message(tr("The play session was not saved: %1")
                       .arg(QString::fromStdString(saved.error().message())));
    else
      emit message(
          tr("Play session recorded: %1 (%2 ticks)").arg(sessionPath()).arg(recording_.ticks));
  }
  recordingOn_ = false;
  replaying_ = false;
  state_ = PlayState::Stopped;
  moved_.clear();
  scripts_.reset();
  runtime_.reset();
  emit stateChanged(state_);
  // The copy goes last: panels bound to it are swapped out on stateChanged.
  copy_.reset();
}

void PlaySession::setPaused(bool paused) {
  if (state_ == PlayState::Stopped) return;
  if (paused == (state_ == PlayState::Paused)) return;
  if (paused) {
    timer_->stop();
    // Physics: the clock drops its debt. Drift: the editor's pause only stops feeding frames,
    // so a ripple clicked while paused waits for the next Step (the sandbox's own pause, which
    // drops pending placements, is the game's).
    if (simulation()) simulation()->clock().pause();
    state_ = PlayState::Paused;
  } else {
    if (simulation()) simulation()->clock().resume();
    state_ = PlayState::Playing;
    frameClock_.restart();  // the paused wall time is not fed to the clock
    timer_->start();
  }
  emit stateChanged(state_);
}

void PlaySession::stepOnce() {
  if (state_ == PlayState::Stopped) return;
  setPaused(true);
  runTicks(1);
  emit ticked();
}

int PlaySession::advanceFrame(double seconds) {
  if (state_ != PlayState::Playing) return 0;
  // The clock decides how many ticks run; runTicks runs them (recorded, both kinds).
  int granted = 0;
  if (physics::Simulation* sim = simulation())
    granted = sim->clock().advance(seconds);
  else if (drift::Sandbox* sandbox = this->sandbox())
    granted = sandbox->admitFrame(seconds);
  const int ticks = runTicks(granted);
  emit ticked();
  return ticks;
}

int PlaySession::runTicks(int ticks) {
  ticks = admitTicks(ticks);
  if (ticks <= 0) {
    finishReplay();
    return 0;
  }
  QElapsedTimer wall;
  wall.start();
  for (int i = 0; i < ticks; ++i) {
    if (simulation()) sampleMovedNodes(true);
    if (scripts_) reloadScripts();
    if (recordingOn_)
      recordedStep(true);
    else
      runtime_->step();
    if (scripts_ && !scriptsRunOn()) {  // a script error pauses play
      ticks = i + 1;
      break;
    }
  }
  if (simulation()) sampleMovedNodes(false);
  stepMs_ = double(wall.nsecsElapsed()) * 1e-6 / ticks;
  if (recordingOn_) emit timelineChanged();
  finishReplay();
  return ticks;
}

void PlaySession::onTimer() {
  const double seconds = double(frameClock_.nsecsElapsed()) * 1e-9;
  frameClock_.restart();
  advanceFrame(seconds);
}

std::uint64_t PlaySession::tick() const {
  return runtime_ ? runtime_->tick() : 0;
}

double PlaySession::alpha() const {
  if (simulation()) return simulation()->alpha();
  if (sandbox()) return sandbox()->clock().alpha();
  return 0.0;
}

double PlaySession::fixedDt() const {
  return runtime_ ? runtime_->fixedDt() : drift::kTickSeconds;
}

// The copy changed (an inspector or interaction-grid edit, or undo / redo of one): what the
// running simulation can take goes to it (SceneRuntime::applyTuning: tuning values, and the
// static colliders the interaction rules blend; other geometry waits for the next Play). A
// refused tuning keeps the old one and says which value and why.
void PlaySession::applyCopyToSimulation() {
  if (!copy_ || !runtime_) return;
  const Expected<void> applied = runtime_->applyTuning(copy_->json(), copy_->derived().scene());
  if (!applied)
    emit message(tr("Tuning refused: %1").arg(QString::fromStdString(applied.error().message())));
}

}  // namespace floptle::editor
