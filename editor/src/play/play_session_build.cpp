// PlaySession: start(), the simulation built on a worker thread with progress and cancel,
// and the start of playing once it is in.
#include <QFileInfo>
#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <mutex>

#include "floptle/editor/derived_scene.h"
#include "floptle/editor/play_session.h"
#include "floptle/runtime/play_recording.h"
#include "floptle/runtime/scene_runtime.h"
#include "play/play_scripts.h"

namespace floptle::editor {
namespace {
/// How often the build's progress is read and reported (ms).
constexpr int kBuildPollMs = 50;
}  // namespace

/// One build: what the worker reads (the play copy's JSON and scene, not written while it
/// runs), what it reports (progress under the mutex) and what it answers.
struct PlaySession::Build {
  const Json* document = nullptr;
  const scene::Scene* scene = nullptr;
  runtime::BuildOptions options;
  std::atomic<bool> cancel{false};
  std::mutex mutex;
  float fraction = 0.0f;  ///< (-) guarded by mutex
  std::string stage;      ///< guarded by mutex
  std::optional<Expected<runtime::SceneRuntime>> result;
  /// The document the worker read and its runtime::sceneHash: the recording's base.
  std::shared_ptr<const Json> base;
  std::uint64_t baseHash = 0;
};

PlaySession::PlaySession(physics::MeshColliderCache* meshCache, QObject* parent)
    : QObject(parent), meshCache_(meshCache) {
  timer_ = new QTimer(this);
  timer_->setInterval(16);  // ~60 Hz frames; the fixed-step clock decides the ticks
  connect(timer_, &QTimer::timeout, this, &PlaySession::onTimer);
  buildWatcher_ = new QFutureWatcher<std::shared_ptr<Build>>(this);
  connect(buildWatcher_, &QFutureWatcherBase::finished, this, &PlaySession::onBuildFinished);
  buildPoll_ = new QTimer(this);
  buildPoll_->setInterval(kBuildPollMs);
  connect(buildPoll_, &QTimer::timeout, this, &PlaySession::pollBuild);
}

PlaySession::~PlaySession() {
  cancelBuild();
  buildWatcher_->waitForFinished();  // the worker reads buildCopy_ and the mesh cache
}

Expected<void> PlaySession::start(const EditorDocument& document) {
  if (building()) return Error{"play", "the simulation is still being built"};
  stop();
  pendingReplay_.reset();
  // The copy: a document of its own. The editor's document is only read, here and never again;
  // it is valid after every change, so the copy takes its typed scene as it is.
  const QString filePath = document.filePath();
  auto copy = std::make_unique<EditorDocument>();
  copy->openDerived(document.json(), document.derived(), filePath);
  auto build = std::make_shared<Build>();
  build->document = &copy->json();
  build->scene = &copy->derived().scene();
  build->options.sceneDir =
      filePath.isEmpty() ? std::filesystem::path()
                         : std::filesystem::path(QFileInfo(filePath).absolutePath().toStdString());
  build->options.meshCache = meshCache_;
  buildCopy_ = std::move(copy);
  filePath_ = filePath;
  build_ = build;
  buildPoll_->start();
  emit buildingChanged(true);
  buildWatcher_->setFuture(QtConcurrent::run([build] {
    runtime::BuildOptions options = build->options;
    options.cancel = &build->cancel;
    options.progress = [&build](float fraction, std::string_view stage) {
      std::lock_guard lock(build->mutex);
      build->fraction = fraction;
      build->stage = std::string(stage);
    };
    // The recording's base beside the simulation's build (both only read the copy): a level's
    // document takes a while to copy and hash.
    QFuture<void> base = QtConcurrent::run([build] {
      build->base = std::make_shared<const Json>(*build->document);
      build->baseHash = runtime::sceneHash(*build->base);
    });
    build->result = runtime::SceneRuntime::build(*build->document, *build->scene, options);
    base.waitForFinished();
    return build;
  }));
  return {};
}

void PlaySession::cancelBuild() {
  if (build_) build_->cancel.store(true);
}

void PlaySession::pollBuild() {
  if (!build_) return;
  float fraction = 0.0f;
  std::string stage;
  {
    std::lock_guard lock(build_->mutex);
    fraction = build_->fraction;
    stage = build_->stage;
  }
  emit buildProgress(fraction, QString::fromStdString(stage));
}

void PlaySession::onBuildFinished() {
  buildPoll_->stop();
  const std::shared_ptr<Build> build = std::move(build_);
  std::unique_ptr<EditorDocument> copy = std::move(buildCopy_);
  if (!build) return;
  emit buildingChanged(false);
  // A cancel wins even over a finished build: the user asked for nothing to run.
  if (build->cancel.load()) {
    emit buildFailed(
        tr("Play cancelled while the simulation was being built; the scene is as it was"), true);
    emit buildFinished(false);
    return;
  }
  if (!build->result || !build->result->ok()) {
    const std::string why =
        build->result ? build->result->error().message() : "the build did not run";
    emit buildFailed(QString::fromStdString(why), false);
    emit buildFinished(false);
    return;
  }
  begin(std::move(copy), std::move(build->result->value()), std::move(build->base),
        build->baseHash);
  emit buildFinished(true);
}

void PlaySession::begin(std::unique_ptr<EditorDocument> copy, runtime::SceneRuntime runtime,
                        std::shared_ptr<const Json> base, std::uint64_t baseHash) {
  copy_ = std::move(copy);
  runtime_ = std::move(runtime);
  baseJson_ = std::move(base);
  baseHash_ = baseHash;
  driftNode_ = QString::fromStdString(runtime_->driftNode());
  kind_ = runtime_->kind() == runtime::SimulationKind::Drift ? PlayKind::Drift : PlayKind::Physics;
  if (kind_ == PlayKind::Physics) collectMovedNodes();
  beginRecording();
  startScripts();
  // Edits of the copy (inspector, materials panel, undo / redo there) go live: recorded and
  // installed through the tuning schedule (physics), or installed at once (Drift).
  connect(copy_.get(), &EditorDocument::documentChanged, this, [this](ChangeKind) {
    if (recordingOn_)
      recordEdit();
    else
      applyCopyToSimulation();
  });
  connect(copy_.get(), &EditorDocument::message, this, &PlaySession::message);
  stepMs_ = 0.0;
  state_ = PlayState::Playing;
  frameClock_.start();
  timer_->start();
  emit stateChanged(state_);
  emit ticked();
}

}  // namespace floptle::editor
