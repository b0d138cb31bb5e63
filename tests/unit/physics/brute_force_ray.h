#pragma once
// The reference for mesh ray tests: every triangle tested with a scalar two-sided
// Moller-Trumbore; nearest hit, ties to the lower triangle index (the BVH's rule).
#include <cmath>
#include <cstdint>

#include "floptle/core/asset/triangle_mesh.h"

namespace floptle::physics::testing {

struct BruteRayHit {
  bool hit = false;
  float distance = 0.0f;  ///< (m) along the unit direction
  std::uint32_t triangle = 0;
};

inline BruteRayHit bruteForceRay(const asset::TriangleMesh& m, Vec3 o, Vec3 d, float maxDistance) {
  BruteRayHit b;
  for (std::uint32_t i = 0; i < m.triangles.size(); ++i) {
    const Vec3 a = m.positions[m.triangles[i][0]];
    const Vec3 e1 = m.positions[m.triangles[i][1]] - a, e2 = m.positions[m.triangles[i][2]] - a;
    const Vec3 p = glm::cross(d, e2);
    const float det = glm::dot(e1, p);
    if (std::abs(det) < 1e-20f) continue;
    const float inv = 1.0f / det;
    const Vec3 tv = o - a;
    const float u = glm::dot(tv, p) * inv;
    if (u < 0.0f || u > 1.0f) continue;
    const Vec3 q = glm::cross(tv, e1);
    const float v = glm::dot(d, q) * inv;
    if (v < 0.0f || u + v > 1.0f) continue;
    const float s = glm::dot(e2, q) * inv;
    if (!(s >= 0.0f) || s > maxDistance) continue;
    if (!b.hit || s < b.distance) b = {true, s, i};
  }
  return b;
}

}  // namespace floptle::physics::testing
