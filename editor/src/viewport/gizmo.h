#pragma once
// The transform gizmo's geometry, hit test and drag arithmetic (no GL, no Qt widgets), so the
// snapping and the drag results can be tested alone. Sizes follow the screen: the gizmo is
// kScreenFraction of the view height tall whatever the distance.
#include <array>
#include <optional>
#include <vector>

#include "floptle/core/math.h"
#include "floptle/core/render/camera.h"
#include "floptle/editor/raymarch_view.h"

namespace floptle::editor {

class Gizmo {
 public:
  void setMode(GizmoMode mode) { mode_ = mode; }
  GizmoMode mode() const { return mode_; }
  void setPivot(Vec3 pivot) { pivot_ = pivot; }
  Vec3 pivot() const { return pivot_; }
  void setSnap(const GizmoSnap& snap) { snap_ = snap; }
  const GizmoSnap& snap() const { return snap_; }

  /// World length of an axis handle for this camera (m).
  float handleLength(const render::Camera& camera) const;
  /// Axis (0 = X, 1 = Y, 2 = Z) under the pixel, or nothing; within kPickPixels.
  std::optional<int> hitTest(const render::Camera& camera, int width, int height, Vec2 pixel) const;
  /// Line segments to draw; `hotAxis` is highlighted.
  std::vector<OverlayLine> lines(const render::Camera& camera, std::optional<int> hotAxis) const;

  /// Starts a drag on `axis` with the mouse ray; false when the ray cannot define one (e.g.
  /// parallel to the rotation plane).
  bool beginDrag(int axis, const Ray& ray, const render::Camera& camera);
  /// The snapped change since beginDrag for the current mouse ray.
  GizmoDelta drag(const Ray& ray) const;
  bool dragging() const { return dragAxis_.has_value(); }
  std::optional<int> dragAxis() const { return dragAxis_; }
  void endDrag() { dragAxis_.reset(); }

  /// Hit tolerance around a drawn handle (pixels).
  static constexpr float kPickPixels = 8.0f;
  /// Gizmo height as a fraction of the view height (-).
  static constexpr float kScreenFraction = 0.18f;

 private:
  /// Parameter along pivot + axis * s of the point on that line closest to the ray (m).
  std::optional<float> axisParameter(int axis, const Ray& ray) const;
  /// Angle of the ray's hit on the plane through the pivot normal to `axis` (rad).
  std::optional<float> planeAngle(int axis, const Ray& ray) const;
  /// Points of the rotation circle about `axis` (closed polyline).
  std::vector<Vec3> circle(int axis, float radius) const;

  GizmoMode mode_ = GizmoMode::None;
  Vec3 pivot_{0.0f};
  GizmoSnap snap_;
  std::optional<int> dragAxis_;
  float dragStartParameter_ = 0.0f;  ///< (m) or (rad)
  float dragHandleLength_ = 1.0f;    ///< (m)
};

/// Rounds value to a multiple of step (step <= 0: unchanged).
float snapTo(float value, float step);

}  // namespace floptle::editor
