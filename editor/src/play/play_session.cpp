// PlaySession: lifecycle (start / pause / step / stop) and the frame timer.
#include "floptle/editor/play_session.h"

#include <QFileInfo>
#include <QTimer>

#include "floptle/drift/sandbox.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/physics/simulation.h"

namespace floptle::editor {

PlaySession::PlaySession(QObject* parent) : QObject(parent) {
  timer_ = new QTimer(this);
  timer_->setInterval(16);  // ~60 Hz frames; the fixed-step clock decides the ticks
  connect(timer_, &QTimer::timeout, this, &PlaySession::onTimer);
}

PlaySession::~PlaySession() = default;

Expected<void> PlaySession::start(const Json& documentJson, const QString& filePath) {
  stop();
  // The copy: a document of its own. The editor's document is only read, here and never again.
  auto copy = std::make_unique<EditorDocument>();
  if (auto opened = copy->openJson(documentJson, filePath); !opened) return opened.error();
  copy_ = std::move(copy);
  filePath_ = filePath;
  driftNode_.clear();
  driftPointer_.clear();
  for (const scene::SceneNode& node : copy_->derived().scene.nodes) {
    if (node.hasComponent("drift")) {
      driftNode_ = QString::fromStdString(node.name);
      driftPointer_ = node.pointer + "/drift";
      break;
    }
  }
  kind_ = driftNode_.isEmpty() ? PlayKind::Physics : PlayKind::Drift;
  Expected<void> built = kind_ == PlayKind::Drift ? buildDrift() : buildPhysics();
  if (!built) {
    copy_.reset();
    simulation_.reset();
    sandbox_.reset();
    return built.error();
  }
  // Edits of the copy (inspector, materials panel, undo / redo there) go live.
  connect(copy_.get(), &EditorDocument::documentChanged, this,
          [this](ChangeKind) { applyCopyToSimulation(); });
  connect(copy_.get(), &EditorDocument::message, this, &PlaySession::message);
  stepMs_ = 0.0;
  state_ = PlayState::Playing;
  frameClock_.start();
  timer_->start();
  emit stateChanged(state_);
  emit ticked();
  return {};
}

void PlaySession::stop() {
  if (state_ == PlayState::Stopped) return;
  timer_->stop();
  state_ = PlayState::Stopped;
  moved_.clear();
  simulation_.reset();
  sandbox_.reset();
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
    if (simulation_) simulation_->clock().pause();
    state_ = PlayState::Paused;
  } else {
    if (simulation_) simulation_->clock().resume();
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
  int ticks = 0;
  if (simulation_) {
    ticks = runTicks(simulation_->clock().advance(seconds));
  } else if (sandbox_) {
    QElapsedTimer wall;
    wall.start();
    const std::uint64_t before = sandbox_->tickIndex();
    sandbox_->advanceFrame(seconds);
    ticks = int(sandbox_->tickIndex() - before);
    if (ticks > 0) stepMs_ = double(wall.nsecsElapsed()) * 1e-6 / ticks;
  }
  emit ticked();
  return ticks;
}

int PlaySession::runTicks(int ticks) {
  if (ticks <= 0) return 0;
  QElapsedTimer wall;
  wall.start();
  for (int i = 0; i < ticks; ++i) {
    if (simulation_) {
      sampleMovedNodes(true);
      simulation_->step();
    } else if (sandbox_) {
      sandbox_->tick();
    }
  }
  if (simulation_) sampleMovedNodes(false);
  stepMs_ = double(wall.nsecsElapsed()) * 1e-6 / ticks;
  return ticks;
}

void PlaySession::onTimer() {
  const double seconds = double(frameClock_.nsecsElapsed()) * 1e-9;
  frameClock_.restart();
  advanceFrame(seconds);
}

std::uint64_t PlaySession::tick() const {
  if (simulation_) return simulation_->tick();
  if (sandbox_) return sandbox_->tickIndex();
  return 0;
}

double PlaySession::alpha() const {
  if (simulation_) return simulation_->alpha();
  if (sandbox_) return sandbox_->clock().alpha();
  return 0.0;
}

double PlaySession::fixedDt() const {
  if (simulation_) return simulation_->settings().fixedDt;
  return drift::kTickSeconds;
}

void PlaySession::applyCopyToSimulation() {
  if (!copy_) return;
  if (simulation_) applyCopyToPhysics();
  if (sandbox_) applyCopyToDrift();
}

}  // namespace floptle::editor
