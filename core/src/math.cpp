#include "floptle/core/math.h"

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>

namespace floptle {

bool intersectRayAabb(const Ray& ray, const Aabb& box, float maxT, float& tEnter, float& tExit) {
  float t0 = 0.0f, t1 = maxT;
  for (int axis = 0; axis < 3; ++axis) {
    float inv = 1.0f / ray.direction[axis];  // +-inf for axis-parallel rays, handled below
    float a = (box.min[axis] - ray.origin[axis]) * inv;
    float b = (box.max[axis] - ray.origin[axis]) * inv;
    if (std::isnan(a) || std::isnan(b)) {
      // Parallel ray lying exactly on a slab boundary: inside iff origin within the slab.
      if (ray.origin[axis] < box.min[axis] || ray.origin[axis] > box.max[axis]) return false;
      continue;
    }
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return false;
  }
  tEnter = t0;
  tExit = t1;
  return true;
}

Mat4 Transform::matrix() const {
  Mat4 m = glm::translate(Mat4(1.0f), position) * glm::mat4_cast(rotation);
  return glm::scale(m, Vec3(scale));
}

Aabb Transform::applyToAabb(const Aabb& local) const {
  Aabb out;
  if (local.empty()) return out;
  for (int i = 0; i < 8; ++i) {
    Vec3 c{(i & 1) ? local.max.x : local.min.x, (i & 2) ? local.max.y : local.min.y,
           (i & 4) ? local.max.z : local.min.z};
    out.expand(applyToPoint(c));
  }
  return out;
}

Quat quatFromEulerXYZ(Vec3 r) {
  // Intrinsic-equivalent: q = qz * qy * qx (X applied first).
  Quat qx = glm::angleAxis(r.x, Vec3(1, 0, 0));
  Quat qy = glm::angleAxis(r.y, Vec3(0, 1, 0));
  Quat qz = glm::angleAxis(r.z, Vec3(0, 0, 1));
  return glm::normalize(qz * qy * qx);
}

Vec3 eulerXYZFromQuat(Quat q) {
  // Rotation matrix R = Rz * Ry * Rx; decompose.
  Mat3 m = glm::mat3_cast(glm::normalize(q));
  // glm is column-major: m[col][row].
  float r20 = m[0][2];
  float y = std::asin(std::clamp(-r20, -1.0f, 1.0f));
  float x, z;
  if (std::abs(r20) < 0.999999f) {
    x = std::atan2(m[1][2], m[2][2]);
    z = std::atan2(m[0][1], m[0][0]);
  } else {  // gimbal lock: fold X into Z
    x = 0.0f;
    z = std::atan2(-m[1][0], m[1][1]);
  }
  return {x, y, z};
}

}  // namespace floptle
