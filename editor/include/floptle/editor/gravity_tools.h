#pragma once
// GravityTools: the scene's gravity in the viewport.
//  - Items: each region and source of settings.gravity (and each node's "gravity_source"
//    emitter) drawn as wireframes in the "gravity/items" layer: spheres as three great
//    circles, boxes as their twelve edges with the pull's direction, lines as the segment,
//    r_outer as a dimmer shell. A region or source is selected by a click near its centre
//    (or from the Gravity section) and moved with the transform gizmo (translation; one undo
//    step per drag; Escape restores it).
//  - Slice arrows (View > Gravity Arrows): g sampled on a grid over a plane through the
//    selection (the selected item, else the selected nodes, else the origin) facing the
//    camera's nearest axis, drawn as arrows in the "gravity/arrows" layer, their length
//    relative to the strongest, their colour by |g| on a fixed scale: blue 0, green 9.81 m/s^2,
//    red 19.62 m/s^2 and more. The field is the one the simulation samples
//    (gravity::sceneGravityField of the document's scene), with the sdf tier's surface the
//    scene's collision world.
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floptle/core/math.h"
#include "floptle/editor/editor_document.h"
#include "floptle/editor/raymarch_view.h"

namespace floptle::gravity {
class GravityField;
}
namespace floptle::physics {
class CollisionWorld;
}

namespace floptle::editor {

class EditorDocument;

/// A region or source of settings.gravity as drawn and moved.
struct GravityItem {
  /// "/settings/gravity/sources/0"
  std::string pointer;
  /// "box", "sphere" (regions); "point", "sphere", "line", "planet" (sources)
  std::string kind;
  bool region = false;
  /// Where the gizmo sits (m): the centre, a line's midpoint.
  Vec3 centre{0.0f};
};

/// One arrow of the slice: the sample point (m) and g there (m/s^2).
struct GravitySample {
  Vec3 at{0.0f};
  Vec3 g{0.0f};
};

class GravityTools : public QObject {
  Q_OBJECT

 public:
  /// Observes `document` and draws into `view`; both must outlive this object.
  GravityTools(EditorDocument& document, RaymarchView& view, QObject* parent = nullptr);
  ~GravityTools() override;

  /// The regions and sources of the document's settings.gravity, in document order.
  std::vector<GravityItem> items() const;
  /// The selected item's pointer (empty: none).
  const std::string& selected() const { return selected_; }
  /// Selects an item by pointer (empty or unknown: none). Selecting one clears the node
  /// selection, and selecting a node clears this.
  void select(const std::string& pointer);
  std::optional<GravityItem> selectedItem() const;
  /// The item whose centre the ray passes nearest, within a few pixels' angle; nullopt if none.
  std::optional<std::string> pick(const Ray& ray) const;

  /// Gizmo drag of the selected item (translation only).
  void beginDrag();
  void drag(const GizmoDelta& delta);
  void finishDrag(const GizmoDelta& delta);
  void cancelDrag();
  bool dragging() const { return dragStart_.has_value(); }

  /// The slice arrows toggle (off at start).
  void setArrowsShown(bool shown);
  bool arrowsShown() const { return arrowsShown_; }
  /// The samples of the last drawn slice (empty while the arrows are off).
  const std::vector<GravitySample>& slice() const { return slice_; }
  /// The field as the simulation samples it (m/s^2) at p, time t (s); zero when the scene's
  /// gravity cannot be built (the reason went to message()).
  Vec3 sample(Vec3 p, double t = 0.0);

  /// Arrows per side of the slice (-).
  static constexpr int kSliceSamples = 15;
  static QString itemsLayer() { return QStringLiteral("gravity/items"); }
  static QString arrowsLayer() { return QStringLiteral("gravity/arrows"); }

 signals:
  /// The item selection changed (the inspector shows which one).
  void selectionChanged(const QString& pointer);
  void message(const QString& text);

 public slots:
  /// Re-reads the document: items, the field, the slice.
  void refresh();
  /// Redraws the slice (the camera turned: the plane may face another axis).
  void refreshSlice();

 private:
  /// The field of the document's scene, built when first needed after a change.
  gravity::GravityField* field();
  void drawItems();
  void drawSlice();
  Vec3 sliceCentre() const;

  EditorDocument& document_;
  RaymarchView& view_;
  std::string selected_;
  bool arrowsShown_ = false;
  std::vector<GravitySample> slice_;
  /// The field and the collision world its sdf tier reads (rebuilt after a document change).
  std::unique_ptr<physics::CollisionWorld> surface_;
  std::unique_ptr<gravity::GravityField> field_;
  bool fieldStale_ = true;
  /// The dragged item's JSON at the press.
  std::optional<std::pair<std::string, Json>> dragStart_;
  /// The slice plane's normal axis (0 X, 1 Y, 2 Z) last drawn.
  int sliceAxis_ = 1;
};

}  // namespace floptle::editor
