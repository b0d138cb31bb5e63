#include "floptle/editor/open_progress.h"

#include <QEventLoop>
#include <QFileInfo>
#include <QProgressDialog>
#include <QTimer>

#include <optional>
#include <thread>

#include "floptle/core/scene/scene_io.h"

namespace floptle::editor {

Expected<nlohmann::ordered_json> readSceneShowingProgress(const QString& path, QWidget* parent,
                                                          int showAfterMs) {
  QProgressDialog dialog(parent);
  dialog.setObjectName("openProgress");
  dialog.setWindowTitle(QObject::tr("Opening"));
  dialog.setLabelText(QObject::tr("Opening %1...").arg(QFileInfo(path).fileName()));
  dialog.setRange(0, 0);  // busy: reading and checking a file gives no fraction done
  dialog.setCancelButton(nullptr);
  dialog.setWindowModality(Qt::WindowModal);
  dialog.setMinimumDuration(showAfterMs);
  QTimer showLater;
  showLater.setSingleShot(true);
  QObject::connect(&showLater, &QTimer::timeout, &dialog, &QProgressDialog::show);

  QEventLoop loop;
  std::optional<Expected<nlohmann::ordered_json>> result;
  std::thread worker([&] {
    result.emplace(scene::loadSceneFile(path.toStdString()));
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
