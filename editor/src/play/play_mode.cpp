// PlayMode: actions, entering and leaving play (panels bound to the copy, tint, selection,
// undo stack), the HUD widgets.
#include "floptle/editor/play_mode.h"

#include <algorithm>
#include <cmath>

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProgressDialog>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoGroup>
#include <QUndoView>

#include "floptle/editor/inspector_panel.h"
#include "floptle/editor/interaction_matrix_panel.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/materials_panel.h"
#include "floptle/editor/play_plot.h"
#include "floptle/editor/play_timeline.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/editor/scene_tree_panel.h"
#include "floptle/editor/session_panel.h"

namespace floptle::editor {
namespace {

// The play tint: amber chrome, so nobody mistakes a play test for the edit state.
const char* kTintBar = "background-color: #c77a12; color: white;";
const char* kTintFrame = "border: 3px solid #e8921a; background: transparent;";
/// Progress bar steps (-).
constexpr int kProgressSteps = 1000;

}  // namespace

PlayMode::PlayMode(MainWindow& window)
    : QObject(nullptr), window_(window), session_(&window.meshCache()) {
  connect(&session_, &PlaySession::stateChanged, this, &PlayMode::onStateChanged);
  connect(&session_, &PlaySession::buildingChanged, this, &PlayMode::onBuildingChanged);
  connect(&session_, &PlaySession::buildProgress, this, &PlayMode::onBuildProgress);
  connect(&session_, &PlaySession::buildFinished, this, &PlayMode::onBuildFinished);
  connect(&session_, &PlaySession::buildFailed, this, [this](const QString& why, bool cancelled) {
    const QString text = cancelled ? why : tr("Play refused: %1").arg(why);
    window_.log()->appendMessage(text);
    window_.statusBar()->showMessage(text, 8000);
  });
  connect(&session_, &PlaySession::ticked, this, &PlayMode::onTicked);
  connect(&session_, &PlaySession::message, window_.log(), &LogPanel::appendMessage);
  RaymarchView* view = window_.viewport();
  connect(view, &RaymarchView::clicked, this,
          [this](QPointF, floptle::Ray ray, Qt::KeyboardModifiers) { handleClick(ray); });
  connect(&window_.document(), &EditorDocument::selectionChanged, this,
          [this](const QStringList& names) { forwardSelection(names); });
}

PlayMode::~PlayMode() {
  stop();
  delete buildDialog_;
}

void PlayMode::createActions(QMenu* menu) {
  auto make = [this, menu](const QString& text, const QString& name,
                           const QList<QKeySequence>& shortcuts, auto slot) {
    QAction* action = menu->addAction(text);
    action->setObjectName(name);
    action->setShortcuts(shortcuts);
    action->setShortcutContext(Qt::WindowShortcut);
    connect(action, &QAction::triggered, this, slot);
    return action;
  };
  playAction_ =
      make(tr("&Play"), "actionPlay", {QKeySequence(tr("Ctrl+P")), QKeySequence(Qt::Key_F5)},
           [this] { window_.play(); });  // the window's hook, else togglePlay
  stepAction_ =
      make(tr("&Step One Tick"), "actionStep", {QKeySequence(Qt::Key_F10)}, [this] { step(); });
  stopAction_ =
      make(tr("S&top"), "actionStop", {QKeySequence(tr("Shift+F5")), QKeySequence(Qt::Key_Escape)},
           [this] { stop(); });
  menu->addSeparator();
  replayAction_ = make(tr("&Replay Session"), "actionReplay", {QKeySequence(tr("Ctrl+Shift+P"))},
                       [this] { replay(); });
  stepBackAction_ =
      make(tr("Step &Back One Tick"), "actionStepBack", {QKeySequence(tr("Shift+F10"))}, [this] {
        if (Expected<void> back = session_.stepBack(); !back)
          window_.log()->appendMessage(QString::fromStdString(back.error().message()));
      });
  branchAction_ =
      make(tr("&Branch Recording Here"), "actionBranch", {}, [this] { session_.branch(); });
  exportAction_ =
      make(tr("&Export Session Inputs..."), "actionExportInputs", {}, [this] { exportInputs(); });
  menu->addSeparator();
  QAction* help =
      menu->addAction(tr("Controls: WASD walk, Space jump, right-drag turn, arrows drive"));
  help->setEnabled(false);
  toolbar_ = window_.addToolBar(tr("Play"));
  toolbar_->setObjectName("playToolbar");
  toolbar_->addAction(playAction_);
  toolbar_->addAction(stepAction_);
  toolbar_->addAction(stopAction_);
  // The timeline, an overlay along the bottom of the viewport (shown while playing), and the
  // Session dock.
  timeline_ = new PlayTimeline(session_, window_.viewport());
  connect(timeline_, &PlayTimeline::message, window_.log(), &LogPanel::appendMessage);
  timeline_->hide();
  sessionPanel_ = new SessionPanel(session_);
  auto* dock = new QDockWidget(tr("Session"), &window_);
  dock->setObjectName("sessionDock");
  dock->setWidget(sessionPanel_);
  window_.addDockWidget(Qt::BottomDockWidgetArea, dock);
  if (auto* log = window_.findChild<QDockWidget*>("logDock")) {
    window_.tabifyDockWidget(log, dock);
    log->raise();
  }
  menu->addAction(dock->toggleViewAction());
  connect(&session_, &PlaySession::replayFinished, this,
          [this](bool, const QString& text) { window_.statusBar()->showMessage(text, 10000); });
  updateActions();
}

bool PlayMode::replayFile(const QString& path) {
  auto recording = runtime::readRecordingFile(path.toStdString());
  if (!recording) {
    window_.log()->appendMessage(
        tr("Replay refused: %1").arg(QString::fromStdString(recording.error().message())));
    return false;
  }
  if (session_.building()) session_.cancelBuild();
  stop();
  const EditorDocument& document = window_.document();
  Expected<void> started = session_.startReplay(document, std::move(*recording));
  if (!started) {
    window_.log()->appendMessage(
        tr("Replay refused: %1: %2").arg(path, QString::fromStdString(started.error().message())));
    return false;
  }
  window_.log()->appendMessage(tr("Replaying %1").arg(path));
  return true;
}

void PlayMode::replay() {
  const QString path = session_.active() ? session_.sessionPath()
                                         : QString::fromStdString(runtime::sessionPathFor(
                                               window_.document().filePath().toStdString()));
  if (window_.document().filePath().isEmpty()) {
    window_.log()->appendMessage(tr("Replay refused: the scene has no file, so no session"));
    return;
  }
  replayFile(path);
}

bool PlayMode::exportInputsTo(const QString& path) {
  runtime::PlayRecording recording;
  if (session_.recording() || session_.replaying()) {
    recording = session_.recordingData();
  } else {
    const std::string file = runtime::sessionPathFor(window_.document().filePath().toStdString());
    auto read = runtime::readRecordingFile(file);
    if (!read) {
      window_.log()->appendMessage(
          tr("Export refused: %1").arg(QString::fromStdString(read.error().message())));
      return false;
    }
    recording = std::move(*read);
  }
  if (Expected<void> written = runtime::writeInputsFile(recording, path.toStdString()); !written) {
    window_.log()->appendMessage(
        tr("Export refused: %1").arg(QString::fromStdString(written.error().message())));
    return false;
  }
  QString text = tr("Exported %1 inputs to %2: floptle simulate SCENE --ticks %3 --inputs %2")
                     .arg(recording.inputs.size())
                     .arg(path)
                     .arg(recording.ticks);
  if (!recording.tuning.empty())
    text += tr(" (the session's %1 tuning edits are not part of an inputs file: "
               "floptle simulate SCENE --session FILE replays them)")
                .arg(recording.tuning.size());
  window_.log()->appendMessage(text);
  return true;
}

void PlayMode::exportInputs() {
  const QString scene = window_.document().filePath();
  const QString suggested = scene.isEmpty()
                                ? QStringLiteral("inputs.json")
                                : QFileInfo(scene).absolutePath() + "/" +
                                      QFileInfo(scene).completeBaseName() + ".inputs.json";
  const QString path = QFileDialog::getSaveFileName(&window_, tr("Export Session Inputs"),
                                                    suggested, tr("Inputs (*.json)"));
  if (!path.isEmpty()) exportInputsTo(path);
}

void PlayMode::togglePlay() {
  switch (session_.state()) {
    case PlayState::Stopped:
      play();
      break;
    case PlayState::Playing:
      session_.setPaused(true);
      break;
    case PlayState::Paused:
      session_.setPaused(false);
      break;
  }
}

void PlayMode::play() {
  if (session_.building()) {  // Play again during the build: cancel it
    session_.cancelBuild();
    return;
  }
  if (session_.active()) {
    session_.setPaused(false);
    return;
  }
  const EditorDocument& document = window_.document();
  Expected<void> started = session_.start(document);
  if (!started) {
    const QString text =
        tr("Play refused: %1").arg(QString::fromStdString(started.error().message()));
    window_.log()->appendMessage(text);
    window_.statusBar()->showMessage(text, 8000);
  }
}

void PlayMode::step() {
  if (session_.building()) return;
  if (!session_.active()) {
    play();
    stepWhenStarted_ = session_.building();
    return;
  }
  session_.stepOnce();
}

void PlayMode::stop() {
  session_.stop();
}

void PlayMode::onBuildingChanged(bool building) {
  updateActions();
  if (building) {
    buildClock_.start();
    window_.statusBar()->showMessage(tr("Building the simulation... (Play or Stop cancels)"));
    return;
  }
  if (buildDialog_) {
    buildDialog_->close();
    buildDialog_->deleteLater();
  }
  buildDialog_ = nullptr;
}

void PlayMode::onBuildProgress(float fraction, const QString& stage) {
  if (!session_.building()) return;
  if (!buildDialog_) {
    if (buildClock_.elapsed() < kBuildDialogDelayMs) return;
    // Not modal: the window stays usable, and Play or Stop in it cancels as Cancel here does.
    buildDialog_ = new QProgressDialog(tr("Building the simulation..."), tr("Cancel"), 0,
                                       kProgressSteps, &window_);
    buildDialog_->setObjectName("playBuildProgress");
    buildDialog_->setWindowTitle(tr("Play"));
    buildDialog_->setWindowModality(Qt::NonModal);
    buildDialog_->setMinimumDuration(0);
    buildDialog_->setAutoClose(false);
    buildDialog_->setAutoReset(false);
    connect(buildDialog_, &QProgressDialog::canceled, &session_, &PlaySession::cancelBuild);
    buildDialog_->show();
  }
  if (!stage.isEmpty()) buildDialog_->setLabelText(tr("Building the simulation: %1").arg(stage));
  buildDialog_->setValue(int(std::lround(std::clamp(fraction, 0.0f, 1.0f) * (kProgressSteps - 1))));
}

void PlayMode::onBuildFinished(bool playing) {
  const bool stepNow = stepWhenStarted_ && playing;
  stepWhenStarted_ = false;
  if (stepNow) session_.stepOnce();
  if (!playing) updateActions();
}

void PlayMode::onStateChanged(PlayState state) {
  const bool wasTinted = frame_ != nullptr && frame_->isVisible();
  if (state != PlayState::Stopped && !wasTinted) enterPlay();
  if (state == PlayState::Stopped && wasTinted) leavePlay();
  updateActions();
  if (state != PlayState::Stopped) {
    onTicked();  // the HUD says PLAYING / PAUSED at once
    window_.statusBar()->showMessage(
        state == PlayState::Playing
            ? tr("PLAYING: edits go to the play copy; Stop (Shift+F5) restores the scene")
            : tr("PAUSED at tick %1: F10 steps one tick").arg(session_.tick()));
  }
}

void PlayMode::enterPlay() {
  RaymarchView* view = window_.viewport();
  savedCamera_ = view->camera();
  EditorDocument& document = window_.document();
  savedSelection_ = document.selection();
  swapPanels(true);
  EditorDocument* copy = session_.copy();
  // The viewport's clicks select in the copy; the document keeps an empty selection (no gizmo
  // on the document while playing).
  forwarding_ = true;
  copy->setSelection(session_.kind() == PlayKind::Drift ? QStringList{session_.driftNode()}
                                                        : savedSelection_);
  document.setSelection({});
  forwarding_ = false;
  window_.undoGroup()->addStack(copy->undoStack());
  window_.undoGroup()->setActiveStack(copy->undoStack());
  window_.undoHistory()->setStack(copy->undoStack());
  for (const char* name : {"actionNew", "actionOpen", "actionImportMesh", "actionRunTime",
                           "actionToolMove", "actionToolRotate", "actionToolScale"})
    if (QAction* a = window_.action(name)) a->setEnabled(false);
  if (QMenu* recent = window_.findChild<QMenu*>("menuRecent")) recent->setEnabled(false);
  setTint(true);
  if (timeline_) {
    timeline_->show();
    timeline_->refresh();
  }
  // An edit of the copy redraws the play field (an interaction rule blends the statics anew).
  connect(copy, &EditorDocument::documentChanged, this, [this](ChangeKind) {
    copyEdited_ = true;
    updateField();
  });
  if (sessionPanel_) {
    connect(copy, &EditorDocument::selectionChanged, sessionPanel_, &SessionPanel::followSelection);
    sessionPanel_->refresh();
  }
  placeHudWidgets();
  if (plot_) plot_->clear();
  keys_.clear();
  yaw_ = 0.0;
  cameraUp_ = session_.up();
  view->installEventFilter(this);
  view->setFocus();
  onTicked();
}

void PlayMode::leavePlay() {
  RaymarchView* view = window_.viewport();
  dropMatterMap();
  matterMapFailed_ = false;
  view->removeEventFilter(this);
  keys_.clear();
  turning_ = false;
  clearOverlays();
  setTint(false);
  if (timeline_) timeline_->hide();
  EditorDocument& document = window_.document();
  window_.undoGroup()->setActiveStack(document.undoStack());
  window_.undoHistory()->setStack(document.undoStack());
  if (EditorDocument* copy = session_.copy()) window_.undoGroup()->removeStack(copy->undoStack());
  swapPanels(false);
  for (const char* name : {"actionNew", "actionOpen", "actionImportMesh", "actionRunTime",
                           "actionToolMove", "actionToolRotate", "actionToolScale"})
    if (QAction* a = window_.action(name)) a->setEnabled(true);
  if (QMenu* recent = window_.findChild<QMenu*>("menuRecent")) recent->setEnabled(true);
  // The edit state as it was at Play: the field of the document, its selection, the camera.
  forwarding_ = true;
  document.setSelection(savedSelection_);
  forwarding_ = false;
  window_.refreshViewport();
  view->setCamera(savedCamera_);
  window_.statusBar()->showMessage(tr("Stopped: the scene is as it was before Play"), 5000);
}

void PlayMode::swapPanels(bool toCopy) {
  if (toCopy) {
    EditorDocument& copy = *session_.copy();
    auto rebind = [this](const char* dockName, QWidget* panel) {
      auto* dock = window_.findChild<QDockWidget*>(dockName);
      if (!dock) {
        delete panel;
        return;
      }
      SwappedDock swap{dock, dock->widget(), panel};
      if (swap.original) swap.original->hide();
      dock->setWidget(panel);
      panel->show();
      swapped_.push_back(swap);
    };
    auto* tree = new SceneTreePanel(copy);
    tree->setObjectName("playSceneTree");
    rebind("sceneDock", tree);
    copyInspector_ = new InspectorPanel(copy);
    copyInspector_->setObjectName("playInspector");
    rebind("inspectorDock", copyInspector_);
    auto* materials = new MaterialsPanel(copy);
    materials->setObjectName("playMaterials");
    rebind("materialsDock", materials);
    auto* matrix = new InteractionMatrixPanel(copy);
    matrix->setObjectName("playInteractionMatrix");
    rebind("interactionsDock", matrix);
    return;
  }
  for (auto it = swapped_.rbegin(); it != swapped_.rend(); ++it) {
    QWidget* panel = it->copyPanel;
    if (it->original) {
      it->dock->setWidget(it->original);
      it->original->show();
    }
    delete panel;  // bound to the copy, which goes next
  }
  swapped_.clear();
  copyInspector_ = nullptr;
}

void PlayMode::forwardSelection(const QStringList& names) {
  if (forwarding_ || !session_.active() || names.isEmpty()) return;
  forwarding_ = true;
  // A viewport click selected in the document: in physics play it selects in the copy; in
  // Drift a click is a ripple, and the Drift section stays in view.
  if (session_.kind() == PlayKind::Physics) session_.copy()->setSelection(names);
  window_.document().setSelection({});
  forwarding_ = false;
}

void PlayMode::setTint(bool on) {
  RaymarchView* view = window_.viewport();
  if (!frame_) {
    frame_ = new QWidget(view);
    frame_->setObjectName("playTintFrame");
    frame_->setAttribute(Qt::WA_TransparentForMouseEvents);
    frame_->setStyleSheet(kTintFrame);
    hud_ = new QLabel(view);
    hud_->setObjectName("playHud");
    hud_->setAttribute(Qt::WA_TransparentForMouseEvents);
    hud_->setStyleSheet(
        "background-color: rgba(20, 20, 24, 180); color: #ffd27a; padding: 4px;"
        "font-family: monospace;");
    plot_ = new PlayPlot(view);
  }
  frame_->setVisible(on);
  hud_->setVisible(on);
  plot_->setVisible(on);
  window_.menuBar()->setStyleSheet(on ? kTintBar : "");
  window_.statusBar()->setStyleSheet(on ? kTintBar : "");
  if (toolbar_) toolbar_->setStyleSheet(on ? kTintBar : "");
  window_.setProperty("playTinted", on);
}

void PlayMode::placeHudWidgets() {
  if (!frame_) return;
  RaymarchView* view = window_.viewport();
  frame_->setGeometry(view->rect());
  hud_->move(8, 8);
  hud_->adjustSize();
  // The timeline along the bottom edge, the plot above its right end.
  int bottom = view->height() - 8;
  if (timeline_) {
    const int height = timeline_->sizeHint().height();
    timeline_->setGeometry(8, bottom - height, view->width() - 16, height);
    bottom -= height + 8;
  }
  plot_->move(view->width() - plot_->width() - 8, bottom - plot_->height());
  frame_->raise();
  hud_->raise();
  plot_->raise();
  if (timeline_) timeline_->raise();
}

void PlayMode::updateActions() {
  if (!playAction_) return;
  const PlayState state = session_.state();
  if (session_.building()) {
    playAction_->setText(tr("Cancel &Build"));
    playAction_->setToolTip(tr("Cancel building the simulation (Ctrl+P / F5)"));
  } else {
    playAction_->setText(state == PlayState::Playing ? tr("&Pause") : tr("&Play"));
    playAction_->setToolTip(state == PlayState::Playing ? tr("Pause (Ctrl+P / F5)")
                                                        : tr("Play (Ctrl+P / F5)"));
  }
  stopAction_->setEnabled(state != PlayState::Stopped || session_.building());
  const bool timeline = session_.recording() || session_.replaying();
  stepBackAction_->setEnabled(timeline);
  branchAction_->setEnabled(timeline);
}

QString PlayMode::hudText() const {
  return hud_ ? hud_->text() : QString();
}

}  // namespace floptle::editor
