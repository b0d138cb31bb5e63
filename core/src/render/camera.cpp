#include "floptle/core/render/camera.h"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace floptle::render {

namespace {
constexpr float kPi = 3.14159265358979f;
/// Below this |cross(forward, up)| the view is treated as looking along up (-).
constexpr float kVerticalViewLimit = 1e-4f;

/// The camera's up, or a stand-in across it when the view looks along it: world -Z for the
/// default +Y up (as before up existed), else any axis across up.
Vec3 upHint(Vec3 forward, Vec3 up) {
  const float length = glm::length(up);
  if (!(length > 0.0f))
    up = kUp;
  else
    up /= length;
  if (glm::length(glm::cross(forward, up)) >= kVerticalViewLimit) return up;
  const Vec3 across = std::abs(up.z) < 0.9f ? Vec3(0.0f, 0.0f, -1.0f) : Vec3(1.0f, 0.0f, 0.0f);
  return glm::normalize(across - up * glm::dot(across, up));
}
}  // namespace

Expected<void> Camera::validate() const {
  if (!isFinite(position)) return Error{"camera.position", "must be finite"};
  if (!isFinite(lookAt)) return Error{"camera.look_at", "must be finite"};
  if (glm::length(lookAt - position) < 1e-6f)
    return Error{"camera.look_at", "must differ from the camera position"};
  if (!isFinite(up) || glm::length(up) < 1e-6f)
    return Error{"camera.up", "must be a finite, non-zero direction"};
  if (!std::isfinite(fovYDegrees) || fovYDegrees <= 0.0f || fovYDegrees >= 180.0f)
    return Error{"camera.fov", "vertical field of view must be in (0, 180) degrees"};
  return {};
}

CameraBasis Camera::basis() const {
  CameraBasis b;
  b.forward = glm::normalize(lookAt - position);
  b.right = glm::normalize(glm::cross(b.forward, upHint(b.forward, up)));
  b.up = glm::cross(b.right, b.forward);
  return b;
}

float Camera::tanHalfFovY() const {
  return std::tan(fovYDegrees * kPi / 360.0f);
}

Ray Camera::rayThroughNdc(Vec2 ndc, float aspect) const {
  const CameraBasis b = basis();
  const float ty = tanHalfFovY();
  const Vec3 d = b.forward + b.right * (ndc.x * ty * aspect) + b.up * (ndc.y * ty);
  return {position, glm::normalize(d)};
}

Ray Camera::rayThroughPixel(Vec2 pixel, int width, int height) const {
  const Vec2 ndc{2.0f * pixel.x / float(width) - 1.0f, 1.0f - 2.0f * pixel.y / float(height)};
  return rayThroughNdc(ndc, float(width) / float(height));
}

bool Camera::project(Vec3 world, int width, int height, Vec2& pixel) const {
  const CameraBasis b = basis();
  const Vec3 v = world - position;
  const float z = glm::dot(v, b.forward);
  if (z <= 0.0f) return false;
  const float ty = tanHalfFovY();
  const float aspect = float(width) / float(height);
  const Vec2 ndc{glm::dot(v, b.right) / (z * ty * aspect), glm::dot(v, b.up) / (z * ty)};
  pixel = {(ndc.x + 1.0f) * 0.5f * float(width), (1.0f - ndc.y) * 0.5f * float(height)};
  return true;
}

Mat4 Camera::viewMatrix() const {
  const CameraBasis b = basis();
  return glm::lookAt(position, lookAt, b.up);
}

Mat4 Camera::projectionMatrix(float aspect, float nearPlane, float farPlane) const {
  return glm::perspective(fovYDegrees * kPi / 180.0f, aspect, nearPlane, farPlane);
}

Camera framingCamera(const Aabb& bounds, float fovYDegrees) {
  Aabb box = bounds;
  if (box.empty()) box = Aabb::fromCenterHalf(Vec3(0.0f), Vec3(1.0f));
  box.min = glm::max(box.min, Vec3(-50.0f));
  box.max = glm::min(box.max, Vec3(50.0f));
  if (box.empty()) box = Aabb::fromCenterHalf(Vec3(0.0f), Vec3(1.0f));
  const Vec3 centre = box.center();
  const float radius = std::max(glm::length(box.halfExtents()), 0.1f);
  // Distance at which a sphere of `radius` fits the vertical fov, with a 10 % margin.
  const float distance = 1.1f * radius / std::sin(0.5f * fovYDegrees * kPi / 180.0f);
  const Vec3 direction = glm::normalize(Vec3(0.6f, 0.45f, 0.8f));
  Camera camera;
  camera.position = centre + direction * distance;
  camera.lookAt = centre;
  camera.fovYDegrees = fovYDegrees;
  return camera;
}

}  // namespace floptle::render
