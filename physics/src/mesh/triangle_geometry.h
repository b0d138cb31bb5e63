#pragma once
// Point, segment and ray queries against one triangle (a, b, c), after Ericson,
// "Real-Time Collision Detection" (5.1.5, 5.1.9) and Moller-Trumbore.
#include <algorithm>
#include <cmath>

#include "floptle/core/math.h"

namespace floptle::physics::mesh {

/// Which feature of the triangle the closest point lies on.
enum class Feature : unsigned char { Face, VertexA, VertexB, VertexC, EdgeAB, EdgeBC, EdgeCA };

/// Closest point on triangle abc to p; `feature` says where it lies.
inline Vec3 closestPointOnTriangle(Vec3 p, Vec3 a, Vec3 b, Vec3 c, Feature& feature) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) {
    feature = Feature::VertexA;
    return a;
  }
  const Vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) {
    feature = Feature::VertexB;
    return b;
  }
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    feature = Feature::EdgeAB;
    return a + ab * (d1 / (d1 - d3));
  }
  const Vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) {
    feature = Feature::VertexC;
    return c;
  }
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    feature = Feature::EdgeCA;
    return a + ac * (d2 / (d2 - d6));
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    feature = Feature::EdgeBC;
    return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  }
  const float sum = va + vb + vc;
  if (!(sum > 0.0f)) {  // degenerate (zero-area) triangle: nearest of its three edges
    feature = Feature::EdgeAB;
    Vec3 best = closestPointOnSegment(p, a, b);
    const Vec3 q2 = closestPointOnSegment(p, b, c), q3 = closestPointOnSegment(p, c, a);
    if (glm::dot(q2 - p, q2 - p) < glm::dot(best - p, best - p))
      best = q2, feature = Feature::EdgeBC;
    if (glm::dot(q3 - p, q3 - p) < glm::dot(best - p, best - p))
      best = q3, feature = Feature::EdgeCA;
    return best;
  }
  const float denom = 1.0f / sum;
  feature = Feature::Face;
  return a + ab * (vb * denom) + ac * (vc * denom);
}

/// Closest points between segments p1q1 and p2q2 (Ericson 5.1.9); returns squared distance.
inline float closestSegmentSegment(Vec3 p1, Vec3 q1, Vec3 p2, Vec3 q2, Vec3& c1, Vec3& c2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const float a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
  float s = 0.0f, t = 0.0f;
  constexpr float kEps = 1e-12f;
  if (a <= kEps && e <= kEps) {
    c1 = p1, c2 = p2;
    return glm::dot(c1 - c2, c1 - c2);
  }
  if (a <= kEps) {
    t = std::clamp(f / e, 0.0f, 1.0f);
  } else {
    const float c = glm::dot(d1, r);
    if (e <= kEps) {
      s = std::clamp(-c / a, 0.0f, 1.0f);
    } else {
      const float b = glm::dot(d1, d2), denom = a * e - b * b;
      s = denom != 0.0f ? std::clamp((b * f - c * e) / denom, 0.0f, 1.0f) : 0.0f;
      t = (b * s + f) / e;
      if (t < 0.0f)
        t = 0.0f, s = std::clamp(-c / a, 0.0f, 1.0f);
      else if (t > 1.0f)
        t = 1.0f, s = std::clamp((b - c) / a, 0.0f, 1.0f);
    }
  }
  c1 = p1 + d1 * s, c2 = p2 + d2 * t;
  return glm::dot(c1 - c2, c1 - c2);
}

/// Moller-Trumbore, two-sided. Returns the ray parameter or a negative number for a miss.
inline float intersectRayTriangle(Vec3 origin, Vec3 dir, Vec3 a, Vec3 e1, Vec3 e2) {
  const Vec3 pvec = glm::cross(dir, e2);
  const float det = glm::dot(e1, pvec);
  if (std::abs(det) < 1e-20f) return -1.0f;
  const float inv = 1.0f / det;
  const Vec3 tvec = origin - a;
  const float u = glm::dot(tvec, pvec) * inv;
  if (u < 0.0f || u > 1.0f) return -1.0f;
  const Vec3 qvec = glm::cross(tvec, e1);
  const float v = glm::dot(dir, qvec) * inv;
  if (v < 0.0f || u + v > 1.0f) return -1.0f;
  return glm::dot(e2, qvec) * inv;
}

/// Entry parameter of a ray (unit dir) into the capsule around segment pa-pb of radius r;
/// negative for a miss or when the origin is already inside.
inline float intersectRayCapsule(Vec3 ro, Vec3 rd, Vec3 pa, Vec3 pb, float r) {
  const Vec3 ba = pb - pa, oa = ro - pa;
  const float baba = glm::dot(ba, ba), bard = glm::dot(ba, rd), baoa = glm::dot(ba, oa);
  const float rdoa = glm::dot(rd, oa), oaoa = glm::dot(oa, oa);
  const float a = baba - bard * bard;
  float y = 0.0f;
  if (a > 1e-12f * baba) {
    const float b = baba * rdoa - baoa * bard;
    const float c = baba * oaoa - baoa * baoa - r * r * baba;
    const float h = b * b - a * c;
    if (h < 0.0f) return -1.0f;
    const float t = (-b - std::sqrt(h)) / a;
    y = baoa + t * bard;
    if (y > 0.0f && y < baba) return t;
  } else {
    y = baoa;  // parallel to the axis: only the caps can be met first
    if (bard > 0.0f)
      y = -1.0f;
    else
      y = baba + 1.0f;
  }
  const Vec3 oc = (y <= 0.0f) ? oa : ro - pb;
  const float b = glm::dot(rd, oc), c = glm::dot(oc, oc) - r * r;
  const float h = b * b - c;
  if (h <= 0.0f) return -1.0f;
  return -b - std::sqrt(h);
}

}  // namespace floptle::physics::mesh
