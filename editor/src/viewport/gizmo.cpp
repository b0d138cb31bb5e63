#include "viewport/gizmo.h"

#include <algorithm>
#include <cmath>

namespace floptle::editor {

namespace {

constexpr int kCircleSegments = 48;
constexpr float kTwoPi = 6.28318530717959f;

Vec3 axisVector(int axis) {
  Vec3 v(0.0f);
  v[axis] = 1.0f;
  return v;
}

Vec4 axisColor(int axis, bool hot) {
  if (hot) return {1.0f, 0.85f, 0.1f, 1.0f};
  const Vec4 colors[3] = {
      {0.95f, 0.25f, 0.25f, 1.0f}, {0.3f, 0.9f, 0.3f, 1.0f}, {0.3f, 0.45f, 1.0f, 1.0f}};
  return colors[axis];
}

/// Distance from p to the segment [a, b] in the image plane (pixels).
float pixelDistanceToSegment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float s = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + ab * s));
}

/// Twelve edges of a small cube centred at c with half size h.
void addCube(std::vector<OverlayLine>& out, Vec3 c, float h, Vec4 color) {
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (int i = 0; i < 4; ++i) {
      Vec3 a = c, b = c;
      a[axis] -= h;
      b[axis] += h;
      const float su = (i & 1) ? h : -h, sv = (i & 2) ? h : -h;
      a[u] += su;
      b[u] += su;
      a[v] += sv;
      b[v] += sv;
      out.push_back({a, b, color});
    }
  }
}

}  // namespace

float snapTo(float value, float step) {
  return step > 0.0f ? std::round(value / step) * step : value;
}

float Gizmo::handleLength(const render::Camera& camera) const {
  const float depth = std::max(glm::dot(pivot_ - camera.position, camera.basis().forward), 0.05f);
  return 2.0f * depth * camera.tanHalfFovY() * kScreenFraction;
}

std::vector<Vec3> Gizmo::circle(int axis, float radius) const {
  const Vec3 u = axisVector((axis + 1) % 3), v = axisVector((axis + 2) % 3);
  std::vector<Vec3> points;
  for (int i = 0; i <= kCircleSegments; ++i) {
    const float a = kTwoPi * float(i) / float(kCircleSegments);
    points.push_back(pivot_ + (u * std::cos(a) + v * std::sin(a)) * radius);
  }
  return points;
}

std::optional<int> Gizmo::hitTest(const render::Camera& camera, int width, int height,
                                  Vec2 pixel) const {
  if (mode_ == GizmoMode::None) return std::nullopt;
  const float length = handleLength(camera);
  std::optional<int> best;
  float bestDistance = kPickPixels;
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<Vec3> polyline;
    if (mode_ == GizmoMode::Rotate) {
      polyline = circle(axis, length);
    } else {
      polyline = {pivot_ + axisVector(axis) * (0.15f * length), pivot_ + axisVector(axis) * length};
    }
    for (std::size_t i = 0; i + 1 < polyline.size(); ++i) {
      Vec2 a, b;
      if (!camera.project(polyline[i], width, height, a) ||
          !camera.project(polyline[i + 1], width, height, b))
        continue;
      const float d = pixelDistanceToSegment(pixel, a, b);
      if (d < bestDistance) {
        bestDistance = d;
        best = axis;
      }
    }
  }
  return best;
}

std::vector<OverlayLine> Gizmo::lines(const render::Camera& camera,
                                      std::optional<int> hotAxis) const {
  std::vector<OverlayLine> out;
  if (mode_ == GizmoMode::None) return out;
  const float length = handleLength(camera);
  for (int axis = 0; axis < 3; ++axis) {
    const Vec4 color = axisColor(axis, hotAxis == axis);
    if (mode_ == GizmoMode::Rotate) {
      const std::vector<Vec3> points = circle(axis, length);
      for (std::size_t i = 0; i + 1 < points.size(); ++i)
        out.push_back({points[i], points[i + 1], color});
      continue;
    }
    const Vec3 tip = pivot_ + axisVector(axis) * length;
    out.push_back({pivot_, tip, color});
    addCube(out, tip, 0.06f * length, color);
  }
  if (mode_ == GizmoMode::Scale) addCube(out, pivot_, 0.08f * length, {0.9f, 0.9f, 0.9f, 1.0f});
  return out;
}

std::optional<float> Gizmo::axisParameter(int axis, const Ray& ray) const {
  // Closest points of two lines: pivot + a s and ray.origin + d u.
  const Vec3 a = axisVector(axis), d = ray.direction, w = pivot_ - ray.origin;
  const float ad = glm::dot(a, d);
  const float denominator = 1.0f - ad * ad;
  if (denominator < 1e-6f) return std::nullopt;  // looking along the axis
  return (ad * glm::dot(w, d) - glm::dot(w, a)) / denominator;
}

std::optional<float> Gizmo::planeAngle(int axis, const Ray& ray) const {
  const Vec3 n = axisVector(axis);
  const float dn = glm::dot(ray.direction, n);
  if (std::abs(dn) < 1e-5f) return std::nullopt;
  const float t = glm::dot(pivot_ - ray.origin, n) / dn;
  if (t <= 0.0f) return std::nullopt;
  const Vec3 v = ray.at(t) - pivot_;
  const Vec3 u = axisVector((axis + 1) % 3), w = axisVector((axis + 2) % 3);
  return std::atan2(glm::dot(v, w), glm::dot(v, u));
}

bool Gizmo::beginDrag(int axis, const Ray& ray, const render::Camera& camera) {
  if (mode_ == GizmoMode::None || axis < 0 || axis > 2) return false;
  const std::optional<float> start =
      mode_ == GizmoMode::Rotate ? planeAngle(axis, ray) : axisParameter(axis, ray);
  if (!start) return false;
  dragAxis_ = axis;
  dragStartParameter_ = *start;
  dragHandleLength_ = handleLength(camera);
  return true;
}

GizmoDelta Gizmo::drag(const Ray& ray) const {
  GizmoDelta delta;
  delta.mode = mode_;
  delta.pivot = pivot_;
  if (!dragAxis_) return delta;
  const int axis = *dragAxis_;
  delta.axis = axis;
  if (mode_ == GizmoMode::Rotate) {
    const std::optional<float> angle = planeAngle(axis, ray);
    if (!angle) return delta;
    float change = *angle - dragStartParameter_;
    // Shortest way round, in (-pi, pi].
    change = std::remainder(change, kTwoPi);
    if (snap_.enabled) change = snapTo(change, snap_.rotate);
    delta.rotation = glm::angleAxis(change, axisVector(axis));
    return delta;
  }
  const std::optional<float> s = axisParameter(axis, ray);
  if (!s) return delta;
  const float moved = *s - dragStartParameter_;  // (m)
  if (mode_ == GizmoMode::Translate) {
    delta.translation = axisVector(axis) * (snap_.enabled ? snapTo(moved, snap_.translate) : moved);
  } else if (mode_ == GizmoMode::Scale) {
    // One handle length of travel doubles the size (uniform scale only).
    float factor = 1.0f + moved / dragHandleLength_;
    if (snap_.enabled) factor = snapTo(factor, snap_.scale);
    delta.scale = std::max(factor, 0.01f);
  }
  return delta;
}

}  // namespace floptle::editor
