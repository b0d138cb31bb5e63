#pragma once
// Geometry on glm. Units: meters (m), seconds (s), radians (rad); +Y is up.
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <limits>

namespace floptle {

using Vec2 = glm::vec2;
using Vec3 = glm::vec3;
using Vec4 = glm::vec4;
using Quat = glm::quat;
using Mat3 = glm::mat3;
using Mat4 = glm::mat4;
using DVec2 = glm::dvec2;

/// World up (+Y).
inline constexpr Vec3 kUp{0.0f, 1.0f, 0.0f};

/// Axis-aligned box (m). Empty when min > max on any axis (the default).
struct Aabb {
  Vec3 min{std::numeric_limits<float>::max()};
  Vec3 max{-std::numeric_limits<float>::max()};

  static Aabb fromCenterHalf(Vec3 center, Vec3 half) { return {center - half, center + half}; }
  bool empty() const { return min.x > max.x || min.y > max.y || min.z > max.z; }
  Vec3 center() const { return (min + max) * 0.5f; }
  Vec3 halfExtents() const { return (max - min) * 0.5f; }
  float surfaceArea() const {
    if (empty()) return 0.0f;
    Vec3 d = max - min;
    return 2.0f * (d.x * d.y + d.y * d.z + d.z * d.x);
  }
  void expand(Vec3 p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void expand(const Aabb& o) {
    min = glm::min(min, o.min);
    max = glm::max(max, o.max);
  }
  /// Grown by margin (m) on every side.
  Aabb inflated(float margin) const { return {min - Vec3(margin), max + Vec3(margin)}; }
  bool contains(Vec3 p) const {
    return p.x >= min.x && p.y >= min.y && p.z >= min.z && p.x <= max.x && p.y <= max.y &&
           p.z <= max.z;
  }
  bool overlaps(const Aabb& o) const {
    return min.x <= o.max.x && max.x >= o.min.x && min.y <= o.max.y && max.y >= o.min.y &&
           min.z <= o.max.z && max.z >= o.min.z;
  }
  /// Euclidean distance from p to the box (m); 0 inside.
  float distance(Vec3 p) const {
    return glm::length(glm::max(glm::max(min - p, p - max), Vec3(0)));
  }
};

/// A ray: origin (m) and unit direction.
struct Ray {
  Vec3 origin{0.0f};
  Vec3 direction{0.0f, 0.0f, -1.0f};
  Vec3 at(float t) const { return origin + direction * t; }
};

/// Slab test. Returns true and the entry/exit parameters (m along a unit direction) when the
/// ray meets the box within [0, maxT].
bool intersectRayAabb(const Ray& ray, const Aabb& box, float maxT, float& tEnter, float& tExit);

/// Rigid transform with uniform scale: p_world = position + rotation * (scale * p_local).
struct Transform {
  /// Translation (m).
  Vec3 position{0.0f};
  /// Rotation (unit quaternion).
  Quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  /// Uniform scale (-), > 0.
  float scale = 1.0f;

  static Transform identity() { return {}; }
  bool isIdentity() const {
    return position == Vec3(0.0f) && rotation == Quat(1, 0, 0, 0) && scale == 1.0f;
  }

  Vec3 applyToPoint(Vec3 p) const { return position + rotation * (p * scale); }
  /// Directions rotate and scale but do not translate.
  Vec3 applyToDirection(Vec3 d) const { return rotation * (d * scale); }
  /// Unit normals only rotate.
  Vec3 applyToNormal(Vec3 n) const { return rotation * n; }
  Vec3 inverseApplyToPoint(Vec3 p) const {
    return (glm::conjugate(rotation) * (p - position)) / scale;
  }
  Vec3 inverseApplyToDirection(Vec3 d) const { return (glm::conjugate(rotation) * d) / scale; }

  /// this * child: apply child first, then this.
  Transform compose(const Transform& child) const {
    return {applyToPoint(child.position), glm::normalize(rotation * child.rotation),
            scale * child.scale};
  }
  Transform inverse() const {
    Quat inv = glm::conjugate(rotation);
    return {inv * (-position) / scale, inv, 1.0f / scale};
  }
  Mat4 matrix() const;
  /// World AABB of a local box under this transform (exact for the box's 8 corners).
  Aabb applyToAabb(const Aabb& local) const;
};

/// Closest point on segment [a, b] to p.
inline Vec3 closestPointOnSegment(Vec3 p, Vec3 a, Vec3 b) {
  Vec3 ab = b - a;
  float len2 = glm::dot(ab, ab);
  if (len2 <= 0.0f) return a;
  float s = std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f);
  return a + ab * s;
}

/// Parameter s in [0, 1] of closestPointOnSegment.
inline float closestParameterOnSegment(Vec3 p, Vec3 a, Vec3 b) {
  Vec3 ab = b - a;
  float len2 = glm::dot(ab, ab);
  if (len2 <= 0.0f) return 0.0f;
  return std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f);
}

inline bool isFinite(Vec3 v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

/// Euler angles (rad, XYZ order: rotate about X, then Y, then Z) <-> quaternion.
Quat quatFromEulerXYZ(Vec3 radians);
Vec3 eulerXYZFromQuat(Quat q);

}  // namespace floptle
