#pragma once
// Collider wireframes: the editor draws each collider's drawn_surface triangles
// (physics/drawn_surface.h, through the node's full transform) as lines in the viewport's
// "colliders" overlay layer, depth-tested against the raymarched field.
//
// Which nodes: every node that becomes a collider in physics::buildCollisionWorld (a shape, a
// "mesh" or a "terrain" component, unless "collidable": false). A global toggle (View >
// Collider Wireframes) and a per-node override (editor state, never saved in the scene):
// a node with an override follows it, the others follow the global toggle.
//
// Extraction can be slow (fractals, baked meshes), so it runs off the GUI thread
// (QtConcurrent) and is cached by the node's content (its JSON without children, its world
// transform, the cell size): moving one node re-extracts that node only, undoing a change
// finds the old lines in the cache. A newer document change cancels the running job.
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"
#include "floptle/editor/raymarch_view.h"

template <class T>
class QFutureWatcher;

namespace floptle::physics {
class MeshColliderCache;
}

namespace floptle::editor {

class EditorDocument;

/// Line colour of collider wireframes (RGBA, display-referred); half transparent so the
/// surface under a dense wireframe still shows.
inline const Vec4 kWireframeColor{0.15f, 0.95f, 1.0f, 0.55f};

/// Cells across the largest side of a bounded collider's box (-): a readable wireframe, not
/// a solid fill, at the editor's usual viewing distances.
inline constexpr float kWireframeCellsAcross = 16.0f;

/// Half size of the region drawn for an unbounded collider (a plane), centred on the world
/// origin (m): the ground grid's extent.
inline constexpr float kWireframeUnboundedHalf = 20.0f;

/// Cell size for a collider of world box `box` (m): kWireframeCellsAcross cells across its
/// largest side, within [0.02, 1] m; an unbounded box uses the kWireframeUnboundedHalf region.
float wireframeCellSize(const Aabb& box);

/// The wireframe of one node's collider(s): the unique edges of its drawn_surface triangles
/// at wireframeCellSize, coloured kWireframeColor. `node` is taken alone (its world transform
/// kept, its children not included). A node that makes no collider gives no lines. Errors
/// come from the collider build or the extraction (cancel included). A mesh is looked up in
/// `meshCache` (null: none) but not kept there (see MeshColliderRequest::keep). Thread-safe.
Expected<std::vector<OverlayLine>> extractColliderWireframe(
    const scene::SceneNode& node, const std::vector<scene::Material>& materials,
    const std::filesystem::path& sceneDir, double t,
    physics::MeshColliderCache* meshCache = nullptr, const std::atomic<bool>* cancel = nullptr);

class ColliderWireframes : public QObject {
  Q_OBJECT

 public:
  /// Observes `document` and draws into `view`'s "colliders" layer; meshes are looked up in
  /// `meshCache` (null: none), which must outlive this object.
  ColliderWireframes(EditorDocument& document, RaymarchView& view,
                     physics::MeshColliderCache* meshCache, QObject* parent = nullptr);
  ~ColliderWireframes() override;

  /// The global toggle (off at start).
  void setEnabled(bool enabled);
  bool enabled() const { return enabled_; }
  /// Per-node override: shown or hidden whatever the global toggle says.
  void setNodeShown(const QString& node, bool shown);
  /// Drops the override: the node follows the global toggle again.
  void clearNodeOverride(const QString& node);
  /// Whether `node`'s wireframe is drawn now (override, else the global toggle).
  bool nodeShown(const QString& node) const;

  /// True while an extraction runs or waits for its debounce.
  bool busy() const;
  /// Lines currently in the layer, and per node.
  std::size_t lineCount() const { return lineCount_; }
  std::size_t lineCount(const QString& node) const;
  /// Node extractions finished so far (cache hits do not count) (-).
  std::size_t extractions() const { return extractions_; }
  /// Field time at which colliders are sampled (s); animated colliders are re-extracted only
  /// when the document changes, not as time runs (extraction is too slow for that).
  void setTime(double seconds) { time_ = seconds; }

  /// Layer name in the RaymarchView.
  static QString layerName() { return QStringLiteral("colliders"); }

 signals:
  /// The layer was rebuilt (after every finished extraction or toggle).
  void updated();
  /// An extraction failed for a node (also written to the log by the window).
  void failed(const QString& node, const QString& message);

 public slots:
  /// Re-reads the document (debounced); called on every document change.
  void scheduleRefresh();
  /// Extracts every shown wireframe again: a file a node names changed on disk while the
  /// document (the cache key) did not.
  void filesChanged();

 private:
  struct Job;
  void refresh();
  void publish();
  void onJobFinished();
  std::uint64_t nodeKey(const scene::SceneNode& node) const;

  EditorDocument& document_;
  RaymarchView& view_;
  physics::MeshColliderCache* meshCache_ = nullptr;
  bool enabled_ = false;
  std::map<QString, bool> overrides_;
  double time_ = 0.0;
  QTimer debounce_;

  /// Extracted lines by content key (bounded; keys not shown are evicted first).
  std::map<std::uint64_t, std::shared_ptr<const std::vector<OverlayLine>>> cache_;
  /// Shown nodes and their keys, as of the last refresh.
  std::map<QString, std::uint64_t> shownKeys_;
  /// Lines drawn per shown node: the cached ones, or the previous ones while new ones are
  /// extracted (so a moved node does not blink out).
  std::map<QString, std::shared_ptr<const std::vector<OverlayLine>>> shownLines_;
  std::size_t lineCount_ = 0;

  std::shared_ptr<std::atomic<bool>> cancel_;
  QFutureWatcher<std::shared_ptr<Job>>* watcher_ = nullptr;
  /// From the job's start until its finished signal is handled (the future alone reads "not
  /// running" before its results are taken).
  bool jobActive_ = false;
  std::size_t extractions_ = 0;
  bool refreshAgain_ = false;
};

}  // namespace floptle::editor
