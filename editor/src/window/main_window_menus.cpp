// MainWindow: actions, menus and shortcuts.
#include <QActionGroup>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QUndoGroup>

#include "floptle/editor/log_panel.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/play_mode.h"
#include "floptle/editor/preferences.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/editor/scene_tree_panel.h"
#include "floptle/editor/sweep_dialog.h"

namespace floptle::editor {

QAction* MainWindow::action(const QString& objectName) const {
  return findChild<QAction*>(objectName);
}

void MainWindow::createMenus() {
  auto make = [this](QMenu* menu, const QString& text, const QString& name,
                     const QKeySequence& shortcut, auto slot) {
    QAction* action = menu->addAction(text);
    action->setObjectName(name);
    if (!shortcut.isEmpty()) action->setShortcut(shortcut);
    connect(action, &QAction::triggered, this, slot);
    return action;
  };

  QMenu* file = menuBar()->addMenu(tr("&File"));
  make(file, tr("&New"), "actionNew", QKeySequence::New, [this] { newFile(); });
  make(file, tr("&Open..."), "actionOpen", QKeySequence::Open, [this] { openDialog(); });
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  recentMenu_->setObjectName("menuRecent");
  rebuildRecentMenu();
  file->addSeparator();
  make(file, tr("&Save"), "actionSave", QKeySequence::Save, [this] { save(); });
  make(file, tr("Save &As..."), "actionSaveAs", QKeySequence::SaveAs, [this] { saveAs(); });
  file->addSeparator();
  make(file, tr("&Import Mesh..."), "actionImportMesh", QKeySequence(tr("Ctrl+I")),
       [this] { importMesh(); });
  file->addSeparator();
  make(file, tr("&Quit"), "actionQuit", QKeySequence::Quit, [this] { close(); });

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  // Undo / Redo act on the group's active stack: the document's, or the play copy's.
  QAction* undo = undoGroup_->createUndoAction(this, tr("&Undo"));
  undo->setObjectName("actionUndo");
  undo->setShortcut(QKeySequence::Undo);
  edit->addAction(undo);
  QAction* redo = undoGroup_->createRedoAction(this, tr("&Redo"));
  redo->setObjectName("actionRedo");
  redo->setShortcuts({QKeySequence::Redo, QKeySequence(tr("Ctrl+Y"))});
  edit->addAction(redo);
  edit->addSeparator();
  edit->addMenu(sceneTree_->addNodeMenu());
  make(edit, tr("&Duplicate"), "actionDuplicate", QKeySequence(tr("Ctrl+D")),
       [this] { duplicateSelection(); });
  QAction* remove = make(edit, tr("De&lete"), "actionDelete", QKeySequence::Delete,
                         [this] { deleteSelection(); });
  // Delete in a text field deletes text, not nodes: the shortcut lives on the window's
  // non-text widgets only.
  remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  sceneTree_->addAction(remove);
  viewport_->addAction(remove);
  make(edit, tr("Select &None"), "actionSelectNone", QKeySequence(tr("Ctrl+Shift+A")),
       [this] { document_.setSelection({}); });
  edit->addSeparator();
  make(edit, tr("&Preferences..."), "actionPreferences", QKeySequence(tr("Ctrl+,")),
       [this] { PreferencesDialog::editFor(*this); });

  QMenu* view = menuBar()->addMenu(tr("&View"));
  QAction* frame = make(view, tr("&Frame Selected"), "actionFrameSelected", QKeySequence(tr("F")),
                        [this] { frameSelected(); });
  // A bare letter must not steal typing in fields: only the viewport and tree take it.
  frame->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  viewport_->addAction(frame);
  sceneTree_->addAction(frame);
  // Transform tools, as in most editors: W move, E rotate, R scale (bare letters: viewport and
  // tree only; while flying with the right mouse button the view keeps W and E for itself).
  auto* tools = new QActionGroup(this);
  view->addSeparator();
  const struct {
    const char* text;
    const char* name;
    const char* key;
    GizmoMode mode;
  } toolSpecs[] = {{QT_TR_NOOP("&Move Tool"), "actionToolMove", "W", GizmoMode::Translate},
                   {QT_TR_NOOP("R&otate Tool"), "actionToolRotate", "E", GizmoMode::Rotate},
                   {QT_TR_NOOP("&Scale Tool"), "actionToolScale", "R", GizmoMode::Scale}};
  for (const auto& spec : toolSpecs) {
    const GizmoMode mode = spec.mode;
    QAction* tool =
        make(view, tr(spec.text), spec.name, QKeySequence(QString::fromLatin1(spec.key)),
             [this, mode] { setGizmoTool(mode); });
    tool->setCheckable(true);
    tool->setChecked(mode == GizmoMode::Translate);
    tool->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    tools->addAction(tool);
    viewport_->addAction(tool);
    sceneTree_->addAction(tool);
  }
  gizmoTool_ = GizmoMode::Translate;
  view->addSeparator();
  QAction* runTime = make(view, tr("&Run Time"), "actionRunTime", QKeySequence(tr("T")),
                          [this] { setTimeRunning(!timeRunning()); });
  runTime->setCheckable(true);
  runTime->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  viewport_->addAction(runTime);
  sceneTree_->addAction(runTime);
  installGravityTools(view);
  view->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

  QMenu* run = menuBar()->addMenu(tr("&Play"));
  run->setObjectName("menuPlay");
  playMode_->createActions(run);

  QMenu* toolsMenu = menuBar()->addMenu(tr("&Tools"));
  toolsMenu->setObjectName("menuTools");
  // One sweep dialog per window, made on first use (object name "sweepDialog"): closing it
  // hides it, so its last rows and plot are still there when it is opened again.
  make(toolsMenu, tr("&Sweep..."), "actionSweep", QKeySequence(), [this] {
    auto* sweep = findChild<SweepDialog*>("sweepDialog");
    if (!sweep) sweep = new SweepDialog(document_, this);
    sweep->show();
    sweep->raise();
    sweep->activateWindow();
  });

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->setObjectName("menuHelp");
  QAction* about = help->addAction(tr("&About Floptle Editor"), this, [this] {
    QMessageBox::about(this, tr("About Floptle Editor"), aboutText());
  });
  about->setObjectName("actionAbout");
}

QString MainWindow::aboutText() {
  // The version and the build's commit, as the program's main set them
  // (QCoreApplication::applicationVersion: "0.1.0 (commit 3031e8195cd9)").
  const QString version = QCoreApplication::applicationVersion();
  return tr("<h3>Floptle Editor %1</h3>"
            "<p>A level editor around an SDF-first physics core: every shape is one "
            "signed-distance field, raymarched in the viewport and collided against by the same "
            "function.</p><p>Qt %2</p>")
      .arg(version.isEmpty() ? tr("(version unknown)") : version, QString::fromLatin1(qVersion()));
}

void MainWindow::play() {
  if (playHandler_) {
    playHandler_();
    return;
  }
  playMode_->togglePlay();
}

void MainWindow::importMesh() {
  if (importHandler_) {
    importHandler_();
    return;
  }
  const QString note = tr("Import Mesh arrives with the mesh-import feature.");
  log_->appendMessage(note);
  statusBar()->showMessage(note, 5000);
}

void MainWindow::duplicateSelection() {
  if (!document_.selection().isEmpty()) document_.duplicateNodes(document_.selection());
}

void MainWindow::deleteSelection() {
  if (!document_.selection().isEmpty()) document_.removeNodes(document_.selection());
}

}  // namespace floptle::editor
