// MainWindow: New, Open, Open Recent, Save, Save As.
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QStatusBar>

#include "floptle/editor/derived_scene.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/open_progress.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/editor/recent_files.h"
#include "floptle/editor/recovery_file.h"

namespace floptle::editor {
namespace {

const QString kSceneFilter = QObject::tr("Floptle scenes (*.json);;All files (*)");

}  // namespace

void MainWindow::newFile() {
  if (!maybeSave()) return;
  document_.newDocument();
  recovery_->discard();
}

void MainWindow::openDialog() {
  if (!maybeSave()) return;
  const QString dir =
      document_.filePath().isEmpty() ? QString() : QFileInfo(document_.filePath()).path();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Scene"), dir, kSceneFilter);
  if (!path.isEmpty()) openFile(path);
}

bool MainWindow::openFile(const QString& path) {
  // The file read, checked and its typed scene built off the UI thread, once.
  Expected<scene::LoadedScene> read = readSceneShowingProgress(path, this);
  if (!read) {
    log_->appendMessage(QString::fromStdString(read.error().message()));
    log_->appendMessage(tr("Could not open %1").arg(path));
    return false;
  }
  document_.openDerived(std::move(*read), path);
  noteRecent(path);
  recovery_->discard();
  // Start from the scene's first named camera, as `floptle render --camera` would.
  const std::vector<scene::Camera>& cameras = document_.derived().scene().cameras;
  if (!cameras.empty()) {
    render::Camera camera;
    camera.position = cameras.front().position;
    camera.lookAt = cameras.front().lookAt;
    camera.fovYDegrees = cameras.front().fovDegrees;
    viewport_->setCamera(camera);
  }
  log_->appendMessage(tr("Opened %1").arg(path));
  return true;
}

bool MainWindow::save() {
  if (document_.filePath().isEmpty()) return saveAs();
  if (!document_.save()) return false;
  recovery_->discard();
  noteRecent(document_.filePath());
  statusBar()->showMessage(tr("Saved %1").arg(document_.filePath()), 3000);
  return true;
}

bool MainWindow::saveAs() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save Scene As"), document_.filePath(), kSceneFilter);
  if (path.isEmpty()) return false;
  if (!document_.saveAs(path)) return false;
  recovery_->discard();
  noteRecent(path);
  return true;
}

void MainWindow::noteRecent(const QString& path) {
  recent_->add(path);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList paths = recent_->load();
  for (const QString& path : paths) {
    QAction* entry = recentMenu_->addAction(QFileInfo(path).fileName());
    entry->setToolTip(path);
    connect(entry, &QAction::triggered, this, [this, path] {
      if (maybeSave()) openFile(path);
    });
  }
  if (paths.isEmpty()) recentMenu_->addAction(tr("(none)"))->setEnabled(false);
  recentMenu_->addSeparator();
  connect(recentMenu_->addAction(tr("Clear")), &QAction::triggered, this, [this] {
    recent_->clear();
    rebuildRecentMenu();
  });
}

}  // namespace floptle::editor
