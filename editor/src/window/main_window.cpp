// MainWindow: construction, docks, title, settings and closing.
#include "floptle/editor/main_window.h"
#include "floptle/editor/preferences.h"

#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QUndoGroup>
#include <QUndoView>

#include "floptle/editor/inspector_panel.h"
#include "floptle/editor/interaction_matrix_panel.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/materials_panel.h"
#include "floptle/editor/play_mode.h"
#include "floptle/editor/problems_panel.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/editor/recent_files.h"
#include "floptle/editor/recovery_file.h"
#include "floptle/editor/scene_tree_panel.h"
#include "floptle/editor/sweep_dialog.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "import/import_worker.h"
#include "import/mesh_tools.h"

namespace floptle::editor {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      meshCache_(std::make_unique<physics::MeshColliderCache>()),
      recovery_(std::make_unique<RecoveryFile>(document_)),
      recent_(std::make_unique<RecentFiles>()) {
  setObjectName("mainWindow");
  // Every mesh file the editor reads (import, drawing, play) goes through the import worker,
  // so a file that breaks Assimp cannot take the editor down.
  meshCache_->setImporter([](const std::filesystem::path& file, const asset::ImportOptions& options,
                             const asset::ImportProgress& progress,
                             const std::atomic<bool>* cancel) {
    return importMeshInWorker(file, options, progress, cancel);
  });
  viewport_ = new RaymarchView(this);
  viewport_->setObjectName("viewport");
  viewport_->setMinimumSize(320, 200);
  setCentralWidget(viewport_);
  createDocks();
  undoGroup_ = new QUndoGroup(this);
  undoGroup_->addStack(document_.undoStack());
  undoGroup_->setActiveStack(document_.undoStack());
  playMode_ = std::make_unique<PlayMode>(*this);
  createMenus();
  frameTimeLabel_ = new QLabel(tr("frame: -"));
  frameTimeLabel_->setObjectName("frameTime");
  statusBar()->addPermanentWidget(frameTimeLabel_);
  connectViewport();

  connect(&document_, &EditorDocument::message, log_, &LogPanel::appendMessage);
  connect(&document_, &EditorDocument::message, this,
          [this](const QString& text) { statusBar()->showMessage(text, 8000); });
  connect(&document_, &EditorDocument::dirtyChanged, this, &MainWindow::updateTitle);
  connect(&document_, &EditorDocument::filePathChanged, this, &MainWindow::updateTitle);
  connect(recovery_.get(), &RecoveryFile::autosaved, log_,
          [this](const QString& path) { log_->appendMessage(tr("Autosaved to %1").arg(path)); });
  connect(recovery_.get(), &RecoveryFile::autosaveFailed, log_, &LogPanel::appendMessage);
  // The Problems dock's panel (found by its object name, "problemsPanel").
  connect(findChild<ProblemsPanel*>("problemsPanel"), &ProblemsPanel::fixFailed, log_,
          &LogPanel::appendMessage);
  connect(materials_, &MaterialsPanel::refused, this, [this](const QString& text) {
    QMessageBox* box =
        new QMessageBox(QMessageBox::Warning, tr("Material in use"), text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // window-modal, never blocks the event loop
  });
  restoreSettings();
  updateTitle();
  syncViewport(true);
}

MainWindow::~MainWindow() {
  playMode_.reset();       // stops play: rebinds the docks to the document before they go
  removeMeshTools(*this);  // their workers finish while the mesh cache still lives
}

void MainWindow::refreshViewport() {
  syncViewport(true);
}

void MainWindow::createDocks() {
  auto dock = [this](const QString& title, const QString& name, QWidget* content,
                     Qt::DockWidgetArea area) {
    auto* widget = new QDockWidget(title, this);
    widget->setObjectName(name);  // QSettings keys the dock layout by object name
    widget->setWidget(content);
    addDockWidget(area, widget);
    return widget;
  };
  sceneTree_ = new SceneTreePanel(document_);
  inspector_ = new InspectorPanel(document_);
  materials_ = new MaterialsPanel(document_);
  matrix_ = new InteractionMatrixPanel(document_);
  log_ = new LogPanel;
  undoView_ = new QUndoView(document_.undoStack());
  undoView_->setObjectName("undoHistory");
  undoView_->setEmptyLabel(tr("<opened>"));

  dock(tr("Scene"), "sceneDock", sceneTree_, Qt::LeftDockWidgetArea);
  QDockWidget* history = dock(tr("History"), "historyDock", undoView_, Qt::LeftDockWidgetArea);
  QDockWidget* inspector =
      dock(tr("Inspector"), "inspectorDock", inspector_, Qt::RightDockWidgetArea);
  QDockWidget* materials =
      dock(tr("Materials"), "materialsDock", materials_, Qt::RightDockWidgetArea);
  QDockWidget* matrix =
      dock(tr("Interactions"), "interactionsDock", matrix_, Qt::BottomDockWidgetArea);
  QDockWidget* log = dock(tr("Log"), "logDock", log_, Qt::BottomDockWidgetArea);
  QDockWidget* problems =
      dock(tr("Problems"), "problemsDock", new ProblemsPanel(document_), Qt::BottomDockWidgetArea);
  tabifyDockWidget(inspector, materials);
  inspector->raise();
  tabifyDockWidget(log, matrix);
  tabifyDockWidget(log, problems);
  log->raise();
  Q_UNUSED(history);
}

void MainWindow::updateTitle() {
  const QString name =
      document_.filePath().isEmpty() ? tr("untitled") : QFileInfo(document_.filePath()).fileName();
  setWindowTitle(QStringLiteral("%1[*] - Floptle Editor").arg(name));
  setWindowModified(document_.isDirty());
}

void MainWindow::restoreSettings() {
  QSettings settings;
  if (settings.contains("window/geometry")) {
    restoreGeometry(settings.value("window/geometry").toByteArray());
  } else {
    resize(1280, 800);
  }
  if (!restoreState(settings.value("window/state").toByteArray())) applyDefaultDockSizes();
  applyPreferences(Preferences::load(), *this);
}

void MainWindow::applyDefaultDockSizes() {
  // Left to themselves the docks split the window by their size hints, and the log (one line
  // at first) took a third of its height from the viewport. The log and the interaction grid
  // get a few lines, the side panels what their columns need; the viewport the rest.
  auto named = [this](const char* name) { return findChild<QDockWidget*>(QLatin1String(name)); };
  resizeDocks({named("logDock")}, {150}, Qt::Vertical);
  resizeDocks({named("sceneDock"), named("inspectorDock")}, {260, 320}, Qt::Horizontal);
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
}

bool MainWindow::maybeSave() {
  if (!document_.isDirty()) return true;
  const QMessageBox::StandardButton answer = QMessageBox::question(
      this, tr("Unsaved changes"), tr("The scene has unsaved changes. Save them before closing?"),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Save) return save();
  return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  playMode_->stop();
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  saveSettings();
  recovery_->discard();  // a clean exit: nothing to recover next time
  // A sweep under way stops with the window (its dialog cancels and joins the worker).
  if (auto* sweep = findChild<SweepDialog*>("sweepDialog")) sweep->close();
  event->accept();
}

void MainWindow::offerRecovery() {
  // Newest first; what the user neither recovers nor discards stays for a later start.
  for (const QString& file : recovery_->pendingFiles()) {
    const QString original = RecoveryFile::originalPathOf(file);
    QMessageBox box(QMessageBox::Question, tr("Recover unsaved work?"),
                    tr("An editor session ended without closing and left unsaved work (%1, "
                       "autosaved %2). Recover it?")
                        .arg(original.isEmpty() ? tr("an untitled scene") : original,
                             QFileInfo(file).lastModified().toString(Qt::ISODate)),
                    QMessageBox::NoButton, this);
    QPushButton* recover = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
    QPushButton* discard = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.addButton(tr("Keep for Later"), QMessageBox::RejectRole);
    box.setDefaultButton(recover);
    box.exec();
    if (box.clickedButton() == discard) {
      recovery_->discardPending(file);
      log_->appendMessage(tr("Discarded the autosaved work in %1").arg(file));
    } else if (box.clickedButton() == recover) {
      if (recovery_->recoverInto(document_, file)) {
        log_->appendMessage(tr("Recovered the autosaved scene from %1").arg(file));
        return;  // one document at a time: further pending files wait for the next start
      }
      log_->appendMessage(
          tr("Could not recover %1: it is not a valid scene (kept for inspection)").arg(file));
    } else {
      log_->appendMessage(tr("Kept the autosaved work in %1 for a later start").arg(file));
    }
  }
}

}  // namespace floptle::editor
