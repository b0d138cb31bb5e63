#include "floptle/editor/open_progress.h"

#include <QEventLoop>
#include <QFileInfo>
#include <QProgressDialog>
#include <QTimer>

#include <optional>
#include <thread>

#include "floptle/core/scene/scene_io.h"

namespace floptle::editor {

Expected<scene::LoadedScene> readSceneShowingProgress(const QString& path, QWidget* parent,
                                                      int showAfterMs) {
  QProgressDialog dialog(parent);
  dialog.setObjectName("openProgress");
  dialog.setWindowTitle(QObject::tr("Opening"));
  dialog.setLabelText(QObject::tr("Opening %1...").arg(QFileInfo(path).fileName()));
  dialog.setRange(0, 0);  // busy: reading and checking a file gives no fraction done
  dialog.setCancelButton(nullptr);
  dialog.setWindowModality(Qt::WindowModal);
  // The dialog shows itself once its own timer runs out, which its constructor starts at 4 s;
  // setMinimumDuration restarts it only while the bar's value is its minimum, and a new bar's
  // value is one below. reset() stops it, so `showLater` alone decides (a threshold of 60 s
  // would otherwise still show at 4 s).
  dialog.reset();
  QTimer showLater;
  showLater.setSingleShot(true);
  QObject::connect(&showLater, &QTimer::timeout, &dialog, &QProgressDialog::show);

  QEventLoop loop;
  std::optional<Expected<scene::LoadedScene>> result;
  std::thread worker([&] {
    result.emplace(scene::loadScene(path.toStdString()));
    // Queued: delivered by `loop` (if it is not running yet, as soon as it runs).
    QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
  });
  showLater.start(showAfterMs);
  loop.exec(QEventLoop::ExcludeUserInputEvents);
  worker.join();
  showLater.stop();
  dialog.hide();
  return std::move(*result);
}

}  // namespace floptle::editor
