// MeshImporter: dialogs, the worker thread, the progress dialog and the one undo step.
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMessageBox>
#include <QProgressDialog>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <set>

#include "floptle/editor/editor_document.h"
#include "floptle/editor/import_mesh.h"
#include "floptle/editor/mesh_import_dialog.h"

namespace floptle::editor {

/// State the worker writes and the GUI thread polls (progress) or sets (cancel).
struct MeshImporter::Shared {
  std::atomic<bool> cancel{false};
  std::mutex mutex;
  float fraction = 0.0f;  ///< (-) guarded by mutex
  std::string stage;      ///< guarded by mutex
};

namespace {
/// Progress dialog refresh period (ms).
constexpr int kProgressPollMs = 50;
/// Progress bar steps (-).
constexpr int kProgressSteps = 1000;
}  // namespace

MeshImporter::MeshImporter(EditorDocument& document, physics::MeshColliderCache& cache,
                           QWidget* dialogParent)
    : QObject(dialogParent), document_(document), cache_(cache), dialogParent_(dialogParent) {
  watcher_ = new QFutureWatcher<Expected<MeshImportResult>>(this);
  connect(watcher_, &QFutureWatcherBase::finished, this, &MeshImporter::onFinished);
  progressTimer_ = new QTimer(this);
  progressTimer_->setInterval(kProgressPollMs);
  connect(progressTimer_, &QTimer::timeout, this, &MeshImporter::showProgress);
}

MeshImporter::~MeshImporter() {
  if (shared_) shared_->cancel.store(true);
  watcher_->waitForFinished();
}

bool MeshImporter::running() const {
  return watcher_->isRunning() || shared_ != nullptr;
}

void MeshImporter::runDialog() {
  if (running()) return;
  const QString path = QFileDialog::getOpenFileName(
      dialogParent_, tr("Import Mesh"), QString(),
      tr("Meshes (*.glb *.gltf *.obj *.fbx);;glTF 2.0 (*.glb *.gltf);;Wavefront OBJ (*.obj);;FBX "
         "(*.fbx);;All files (*)"));
  if (path.isEmpty()) return;
  MeshImportDialog choices(QFileInfo(path).fileName(), dialogParent_);
  if (choices.exec() != QDialog::Accepted) return;
  asset::ImportOptions options;
  options.upAxis = choices.upAxis();
  start(path, choices.collision(), options, choices.perObject());
}

bool MeshImporter::start(const QString& path, MeshCollision collision,
                         const asset::ImportOptions& options, bool perObject) {
  if (running()) return false;
  path_ = path;
  collision_ = collision;
  options_ = options;
  perObject_ = perObject;
  shared_ = std::make_shared<Shared>();
  std::shared_ptr<Shared> shared = shared_;

  progress_ = new QProgressDialog(tr("Importing %1...").arg(QFileInfo(path).fileName()),
                                  tr("Cancel"), 0, kProgressSteps, dialogParent_);
  progress_->setObjectName("importProgress");
  progress_->setWindowTitle(tr("Import Mesh"));
  progress_->setWindowModality(Qt::WindowModal);
  progress_->setMinimumDuration(0);
  progress_->setAutoClose(false);
  progress_->setAutoReset(false);
  progress_->setValue(0);
  connect(progress_, &QProgressDialog::canceled, this, &MeshImporter::cancel);
  progressTimer_->start();

  MeshImportRequest request;
  request.file = std::filesystem::path(path.toStdString());
  request.collision = collision;
  request.options = options;
  request.perObject = perObject;
  emit message(tr("Importing %1 (%2)...")
                   .arg(path, collision == MeshCollision::BakedField ? tr("baked field")
                                                                     : tr("triangle mesh")));
  watcher_->setFuture(QtConcurrent::run([request, shared, cache = &cache_] {
    return runMeshImport(
        request, *cache,
        [&shared](float fraction, std::string_view stage) {
          std::lock_guard lock(shared->mutex);
          shared->fraction = fraction;
          shared->stage = std::string(stage);
        },
        &shared->cancel);
  }));
  return true;
}

void MeshImporter::cancel() {
  if (shared_) shared_->cancel.store(true);
  if (progress_) progress_->setLabelText(tr("Cancelling..."));
}

void MeshImporter::showProgress() {
  if (!progress_ || !shared_) return;
  if (progress_->wasCanceled() && !shared_->cancel.load()) cancel();
  float fraction = 0.0f;
  std::string stage;
  {
    std::lock_guard lock(shared_->mutex);
    fraction = shared_->fraction;
    stage = shared_->stage;
  }
  if (shared_->cancel.load()) return;
  if (!stage.empty())
    progress_->setLabelText(
        tr("Importing %1: %2").arg(QFileInfo(path_).fileName(), QString::fromStdString(stage)));
  // Last: a modal QProgressDialog processes events in setValue, where the import may finish
  // and the dialog go away.
  progress_->setValue(int(std::lround(std::clamp(fraction, 0.0f, 1.0f) * (kProgressSteps - 1))));
}

void MeshImporter::fail(const QString& text) {
  emit message(text);
  emit failed(text, false);
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Import Mesh"), text, QMessageBox::Ok,
                              dialogParent_);
  box->setObjectName("importError");
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();  // window-modal, never blocks the event loop
}

void MeshImporter::onFinished() {
  progressTimer_->stop();
  const bool cancelled = shared_ && shared_->cancel.load();
  shared_.reset();
  if (progress_) {
    progress_->close();
    progress_->deleteLater();
  }
  progress_ = nullptr;
  Expected<MeshImportResult> result = watcher_->result();
  // A cancel wins even over a finished import: the user asked for nothing to change.
  if (cancelled) {
    const QString text = tr("Import of %1 cancelled; nothing changed.").arg(path_);
    emit message(text);
    emit failed(text, true);
    return;
  }
  if (!result) {
    fail(tr("Cannot import %1: %2").arg(path_, QString::fromStdString(result.error().message())));
    return;
  }

  const Json& scene = document_.json();
  std::set<std::string> materialIds, nodeNames;
  for (const QString& id : document_.materialIds()) materialIds.insert(id.toStdString());
  for (const QString& name : document_.nodeNames()) nodeNames.insert(name.toStdString());
  const QString docPath = document_.filePath();
  const std::filesystem::path sceneDir =
      docPath.isEmpty() ? std::filesystem::path()
                        : std::filesystem::path(QFileInfo(docPath).absolutePath().toStdString());
  const std::filesystem::path file(path_.toStdString());
  const MeshSceneEntries entries =
      result->objects ? asset::meshSubtreeEntries(*result->objects, file, sceneDir, collision_, {},
                                                  materialIds, nodeNames, options_)
                      : meshSceneEntries(result->mesh, file, sceneDir, collision_, materialIds,
                                         nodeNames, options_);
  Json materials = scene.contains("materials") ? scene["materials"] : Json::array();
  for (const Json& material : entries.materials) materials.push_back(material);
  Json nodes = scene.contains("nodes") ? scene["nodes"] : Json::array();
  nodes.push_back(entries.node);
  const QString name = QString::fromStdString(entries.node["name"].get<std::string>());
  if (!result->objects) {
    lastMesh_ = std::make_unique<asset::TriangleMesh>(result->mesh);
    emit meshReady(QFileInfo(path_).absoluteFilePath());
  }
  auto pushed = document_.setValues({{"/materials", materials}, {"/nodes", nodes}},
                                    tr("Import mesh %1").arg(name));
  if (!pushed) {
    fail(tr("Cannot import %1: %2").arg(path_, QString::fromStdString(pushed.error().message())));
    return;
  }
  QString note = result->objects ? tr("Imported %1: %2 objects under node '%3'")
                                       .arg(path_)
                                       .arg(result->objects->objects.size())
                                       .arg(name)
                                 : tr("Imported %1: %2 triangles, %3 material slots as node '%4'")
                                       .arg(path_)
                                       .arg(result->mesh.triangleCount())
                                       .arg(result->mesh.materialSlots.size())
                                       .arg(name);
  if (collision_ == MeshCollision::BakedField && !result->objects)
    note += tr(" (baked field: %1 bricks)").arg(result->bakedBricks);
  emit message(note);
  document_.setSelection({name});
  emit imported(name, QFileInfo(path_).absoluteFilePath());
}

}  // namespace floptle::editor
