#include "viewport/camera_controller.h"

#include <algorithm>
#include <cmath>

namespace floptle::editor {

namespace {
/// Orbit speed (rad per pixel).
constexpr float kOrbitRate = 0.008f;
/// Elevation limit short of straight up/down (rad), so the basis never degenerates.
constexpr float kPitchLimit = 1.55f;
constexpr float kMinDistance = 0.05f;    // (m)
constexpr float kMaxDistance = 5000.0f;  // (m)
constexpr float kPi = 3.14159265358979f;
}  // namespace

CameraController::CameraController() = default;

Vec3 CameraController::direction() const {
  return {std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_)};
}

void CameraController::setCamera(const render::Camera& camera) {
  if (!camera.validate()) return;
  target_ = camera.lookAt;
  const Vec3 offset = camera.position - camera.lookAt;
  distance_ = std::clamp(glm::length(offset), kMinDistance, kMaxDistance);
  const Vec3 d = glm::normalize(offset);
  pitch_ = std::clamp(std::asin(std::clamp(d.y, -1.0f, 1.0f)), -kPitchLimit, kPitchLimit);
  yaw_ = std::atan2(d.x, d.z);
  fovY_ = camera.fovYDegrees;
  adopted_ = camera;
}

render::Camera CameraController::camera() const {
  if (adopted_) return *adopted_;
  render::Camera camera;
  camera.lookAt = target_;
  camera.position = target_ + direction() * distance_;
  camera.fovYDegrees = fovY_;
  return camera;
}

void CameraController::orbit(Vec2 pixels) {
  adopted_.reset();
  yaw_ -= pixels.x * kOrbitRate;
  pitch_ = std::clamp(pitch_ + pixels.y * kOrbitRate, -kPitchLimit, kPitchLimit);
}

void CameraController::pan(Vec2 pixels, float viewHeight) {
  const render::CameraBasis basis = camera().basis();
  adopted_.reset();
  // World size of one pixel at the target's depth (m).
  const float metersPerPixel =
      2.0f * distance_ * std::tan(fovY_ * kPi / 360.0f) / std::max(viewHeight, 1.0f);
  target_ += (-basis.right * pixels.x + basis.up * pixels.y) * metersPerPixel;
}

void CameraController::zoom(float steps) {
  adopted_.reset();
  distance_ = std::clamp(distance_ * std::pow(0.85f, steps), kMinDistance, kMaxDistance);
}

void CameraController::look(Vec2 pixels) {
  const Vec3 eye = target_ + direction() * distance_;
  orbit({pixels.x, -pixels.y});
  // The eye stays put: the target swings around it.
  target_ = eye - direction() * distance_;
}

void CameraController::fly(Vec3 axes, float meters) {
  const render::CameraBasis basis = camera().basis();
  adopted_.reset();
  const Vec3 move = basis.right * axes.x + kUp * axes.y + basis.forward * axes.z;
  if (glm::length(move) <= 0.0f) return;
  target_ += glm::normalize(move) * meters;
}

void CameraController::frame(const Aabb& bounds) {
  if (bounds.empty()) return;
  adopted_.reset();
  Aabb box = bounds;
  box.min = glm::max(box.min, Vec3(-500.0f));
  box.max = glm::min(box.max, Vec3(500.0f));
  target_ = box.center();
  const float radius = std::max(glm::length(box.halfExtents()), 0.05f);
  distance_ =
      std::clamp(1.1f * radius / std::sin(fovY_ * kPi / 360.0f), kMinDistance, kMaxDistance);
}

}  // namespace floptle::editor
