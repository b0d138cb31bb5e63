#pragma once
// File > Import Mesh: a glTF / OBJ / FBX file becomes a subtree (one node per object, each with
// its "mesh" component) or one scene node with a "mesh" component, exactly as `floptle import`
// writes it (app/cli/command_import.cpp; resources/scene-format.md),
// added to the open document as one undo step.
//
// The import (core/asset/mesh_import.h), the triangle collider and, for "baked field" collision,
// the bake (at the cell size the physics will use when the scene loads) go through the editor's
// mesh collider cache (physics/mesh_collider_cache.h, the main window's), so Play reuses them. They
// run on a worker thread behind a QProgressDialog that reports progress and can be cancelled.
// Cancel, an unreadable file or an empty one leave the document untouched; the last two show an
// error dialog and a log line.
#include <QObject>
#include <QPointer>
#include <QString>

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <QProgressDialog>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/expected.h"
#include "floptle/physics/mesh_collider_cache.h"

class QTimer;
class QWidget;
template <class T>
class QFutureWatcher;

namespace floptle::editor {

class EditorDocument;

/// How the imported mesh collides (core's, shared with `floptle import`).
using MeshCollision = asset::MeshCollision;
using asset::MeshSceneEntries;
using asset::meshSceneEntries;

/// Bake cell of a "field" mesh when the component names none (m): the physics' own constant,
/// so the editor's bake is the one the scene gets on load.
using physics::kMeshFieldCellSize;

struct MeshImportRequest {
  std::filesystem::path file;
  MeshCollision collision = MeshCollision::TriangleMesh;
  asset::ImportOptions options;
  /// One node per object of the file (asset::meshSubtreeEntries) instead of one node.
  bool perObject = false;
};

struct MeshImportResult {
  /// The whole file (one node); empty for a per-object import.
  asset::TriangleMesh mesh;
  /// The file's objects (per-object import only).
  std::optional<asset::MeshObjectTree> objects;
  /// Bricks of the baked field (BakedField only; 0 otherwise) (-).
  std::size_t bakedBricks = 0;
  /// The collider and field were already in the cache (nothing was read or baked).
  bool fromCache = false;
};

/// The worker-thread part: import, build the triangle collider and (BakedField) bake it, all
/// through `cache` for the node exactly as the scene will hold it (identity transform, the
/// request's import options, kMeshFieldCellSize), so the first Play (or wireframe) through the
/// same cache finds the result there instead of importing and baking again. A cancelled job
/// caches nothing.
/// progress: fraction of the whole job in [0, 1] and the stage in words; cancel: polled.
/// Errors name the file; a cancelled job answers an error with what = "cancelled".
Expected<MeshImportResult> runMeshImport(const MeshImportRequest& request,
                                         physics::MeshColliderCache& cache,
                                         const asset::ImportProgress& progress = {},
                                         const std::atomic<bool>* cancel = nullptr);

/// The GUI flow. One import at a time.
class MeshImporter : public QObject {
  Q_OBJECT

 public:
  /// Dialogs are parented to `dialogParent`. Imports go through `cache`, which must outlive
  /// the importer.
  MeshImporter(EditorDocument& document, physics::MeshColliderCache& cache, QWidget* dialogParent);
  ~MeshImporter() override;

  /// File dialog, then the collision and up-axis choices (MeshImportDialog), then start().
  /// Cancelling a dialog does nothing.
  void runDialog();
  /// Starts importing `path` on a worker thread with the progress dialog; false when an import
  /// is already running. The node's mesh component keeps `options` (up_axis, unit_scale).
  /// perObject: a group node named after the file with one node per object of the file (the
  /// File menu's default), else the whole file as one node.
  bool start(const QString& path, MeshCollision collision, const asset::ImportOptions& options = {},
             bool perObject = false);
  bool running() const;
  /// The progress dialog of the running import (nullptr when none).
  QProgressDialog* progressDialog() const { return progress_; }
  /// Cancels the running import (as the dialog's Cancel button does).
  void cancel();
  /// The mesh of the latest successful import (for the viewport, before it reloads the file).
  const asset::TriangleMesh* lastMesh() const { return lastMesh_.get(); }
  /// The import options of the latest import.
  const asset::ImportOptions& lastOptions() const { return options_; }

 signals:
  /// The import succeeded and lastMesh() holds the mesh; emitted just before the node is
  /// added (so the viewport can take the mesh instead of reading the file again).
  void meshReady(const QString& absolutePath);
  /// A node was added: its name and the absolute mesh path.
  void imported(const QString& node, const QString& absolutePath);
  /// The import failed (message) or was cancelled (cancelled = true); nothing changed.
  void failed(const QString& message, bool cancelled);
  /// A line for the log panel.
  void message(const QString& text);

 private:
  struct Shared;
  void onFinished();
  void showProgress();
  void fail(const QString& text);

  EditorDocument& document_;
  physics::MeshColliderCache& cache_;
  QPointer<QWidget> dialogParent_;
  QPointer<QProgressDialog> progress_;
  QTimer* progressTimer_ = nullptr;
  std::shared_ptr<Shared> shared_;
  QFutureWatcher<Expected<MeshImportResult>>* watcher_ = nullptr;
  QString path_;
  MeshCollision collision_ = MeshCollision::TriangleMesh;
  asset::ImportOptions options_;
  bool perObject_ = false;
  std::unique_ptr<asset::TriangleMesh> lastMesh_;
};

}  // namespace floptle::editor
