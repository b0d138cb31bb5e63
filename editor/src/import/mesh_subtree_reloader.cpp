// MeshSubtreeReloader: a changed file's subtree read again off the UI thread and applied as one
// undo step (see mesh_subtree_reloader.h).
#include "floptle/editor/mesh_subtree_reloader.h"

#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <utility>

#include "floptle/core/asset/mesh_objects.h"
#include "floptle/editor/editor_document.h"
#include "import/import_worker.h"

namespace floptle::editor {

MeshSubtreeReloader::MeshSubtreeReloader(EditorDocument& document, QObject* parent)
    : QObject(parent), document_(document) {}

MeshSubtreeReloader::~MeshSubtreeReloader() {
  for (auto* watcher : findChildren<QFutureWatcherBase*>()) watcher->waitForFinished();
}

void MeshSubtreeReloader::fileChanged(const QString& path) {
  if (pending_.empty()) QTimer::singleShot(0, this, &MeshSubtreeReloader::readPending);
  pending_.insert(path.toStdString());
}

void MeshSubtreeReloader::readPending() {
  for (const std::string& file : std::exchange(pending_, {})) {
    if (reading_.count(file))
      again_.insert(file);  // read again once the read in flight is in
    else
      startRead(file);
  }
}

void MeshSubtreeReloader::startRead(const std::string& path) {
  const auto source = document_.meshSubtreeSource(path);
  if (!source) return;  // a file the scene holds as a single node (--merge) or not at all
  reading_.insert(path);
  using Read = Expected<asset::MeshObjectTree>;
  auto* watcher = new QFutureWatcher<std::shared_ptr<Read>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
    const std::shared_ptr<Read> tree = watcher->result();
    watcher->deleteLater();
    reading_.erase(path);
    const QString file = QString::fromStdString(path);
    if (!tree->ok()) {
      emit message(tr("Cannot reload the objects of %1: %2")
                       .arg(file, QString::fromStdString(tree->error().message())));
    } else if (auto report = document_.reloadMeshSubtree(path, tree->value()); !report) {
      emit message(tr("Cannot reload the objects of %1: %2")
                       .arg(file, QString::fromStdString(report.error().message())));
    } else {
      ++applied_;
      if (!report->changesNothing())
        emit message(
            tr("Reloaded the objects of %1: %2").arg(file, QString::fromStdString(report->line())));
      emit reloadedSubtree(file);
    }
    if (again_.erase(path)) startRead(path);
  });
  watcher->setFuture(QtConcurrent::run([path, options = source->options] {
    return std::make_shared<Read>(importMeshObjectsInWorker(std::filesystem::path(path), options));
  }));
}

}  // namespace floptle::editor
