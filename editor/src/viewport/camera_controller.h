#pragma once
// Orbit / pan / zoom / fly navigation of the viewport camera, independent of Qt events so it
// can be tested alone. The state is an orbit around a target; every operation returns a
// render::Camera with the conventions of the CPU renderer.
#include <optional>
#include "floptle/core/math.h"

#include "floptle/core/render/camera.h"

namespace floptle::editor {

class CameraController {
 public:
  CameraController();

  /// Adopts a camera (its look_at becomes the orbit target). camera() returns it exactly,
  /// tilted up vector included (a play-mode follow camera), until the user navigates; the
  /// orbit then continues about world +Y from where it was.
  void setCamera(const render::Camera& camera);
  render::Camera camera() const;

  /// Turns around the target by mouse motion in pixels (yaw with x, pitch with y).
  void orbit(Vec2 pixels);
  /// Slides eye and target in the view plane so the scene follows the mouse; viewHeight is
  /// the widget height (pixels).
  void pan(Vec2 pixels, float viewHeight);
  /// Moves towards the target: the distance is multiplied by 0.85^steps (steps > 0 = in).
  void zoom(float steps);
  /// Fly look: turns the view direction around the eye (the eye stays put).
  void look(Vec2 pixels);
  /// Fly move in camera axes (x right, y world up, z forward) by `meters`.
  void fly(Vec3 axes, float meters);
  /// Frames a box: keeps the view direction, centres the target on the box and backs off so
  /// its bounding sphere fits the vertical field of view.
  void frame(const Aabb& bounds);

  /// Orbit distance (m).
  float distance() const { return distance_; }

 private:
  Vec3 direction() const;  ///< unit vector from target to eye

  /// The camera last adopted, shown as it is until the next navigation.
  std::optional<render::Camera> adopted_;

  Vec3 target_{0.0f};
  /// Heading around +Y and elevation above the XZ plane (rad).
  float yaw_ = 0.6f;
  float pitch_ = 0.45f;
  /// Eye-to-target distance (m), > 0.
  float distance_ = 8.0f;
  /// Vertical fov (degrees).
  float fovY_ = 60.0f;
};

}  // namespace floptle::editor
