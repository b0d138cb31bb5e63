#pragma once
// Internals shared by the collision world's query files: argument checks, the hit epsilon,
// the sphere march and the capsule axis search.
#include <cmath>
#include <optional>
#include <string>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/physics/collision_shape.h"
#include "floptle/physics/collision_world.h"

namespace floptle::physics::detail {

inline std::optional<Error> checkFinite(Vec3 v, const char* name) {
  if (!isFinite(v)) return Error{name, "must be three finite numbers"};
  return std::nullopt;
}
inline std::optional<Error> checkFinite(double v, const char* name) {
  if (!std::isfinite(v)) return Error{name, "must be a finite number"};
  return std::nullopt;
}
inline std::optional<Error> checkRadius(float r, const char* name) {
  if (!std::isfinite(r)) return Error{name, "must be a finite number"};
  if (r < 0.0f) return Error{name, "must be >= 0, got " + std::to_string(r)};
  return std::nullopt;
}
/// A direction must be finite and non-zero; its unit form is written to `unit`.
inline std::optional<Error> checkDirection(Vec3 d, const char* name, Vec3& unit) {
  if (!isFinite(d)) return Error{name, "must be three finite numbers"};
  const float len = glm::length(d);
  if (!(len > 1e-20f) || !std::isfinite(len)) return Error{name, "must not be zero"};
  unit = d / len;
  return std::nullopt;
}

/// Hit epsilon at p (m): CollisionWorld::kHitEpsilon relative to the coordinates' magnitude.
inline float hitEpsilon(Vec3 p) {
  const float m = std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z), 1.0f});
  return CollisionWorld::kHitEpsilon * m;
}

/// Result of marching one collider.
struct March {
  float distance;  ///< along the unit direction (m)
  bool inside;     ///< started inside / overlapping
};

/// Below this fraction of max(1 m, |p|_inf) from a surface, the march tries a Newton step
/// along the ray to the surface (s + f / cos(incidence)) instead of creeping towards it:
/// plain sphere marching converges only linearly, by (1 - cos) per step, which at grazing
/// incidence would take thousands of steps (-).
inline constexpr float kRefineDistance = 1e-3f;
/// Newton steps are taken only when the ray approaches the surface at least this steeply
/// (cos of the angle to the normal, -): the step is then at most kRefineDistance / this.
inline constexpr float kRefineMinCos = 0.02f;

/// Sphere-marches `shape` for a sphere of radius r (0 = ray) from origin + dir * start up to
/// `end` (m): hit when f - r < eps, step by f - r. Every plain step is bounded by the true
/// distance, so no surface is skipped. Within kRefineDistance of a surface a Newton step
/// (bracketed by regula falsi when it lands inside) finishes the approach.
inline std::optional<March> marchShape(const CollisionShape& shape, Vec3 origin, Vec3 dir, float r,
                                       float start, float end, double t) {
  float s = start;
  float prevS = start, prevF = 0.0f;  // the previous step's point and value
  auto field = [&](float at) { return shape.distance(origin + dir * at, t) - r; };
  for (int step = 0; step < CollisionWorld::kMaxMarchSteps; ++step) {
    const Vec3 p = origin + dir * s;
    const float f = shape.distance(p, t) - r;
    if (!(f == f)) return std::nullopt;  // a NaN field value is never a hit
    const float scale = std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z), 1.0f});
    const float eps = CollisionWorld::kHitEpsilon * scale;
    if (f < eps) {
      if (s == 0.0f && f < 0.0f) return March{0.0f, true};
      if (s == 0.0f) {
        const float cosIncidence = -glm::dot(shape.normal(p, t), dir);
        if (cosIncidence < 0.0f) {
          // Starting on the surface and leaving it: not a hit; step clear of the surface.
          s = 4.0f * eps;
          continue;
        }
      }
      // Within eps of the surface, the remaining distance along the ray is f / cos: small
      // unless the ray grazes. The secant of the last step estimates cos for free; only a
      // shallow approach pays for a normal and a Newton step onto the surface.
      if (f > 0.0f && step > 0 && prevF - f < 0.1f * (s - prevS)) {
        const float cosIncidence = -glm::dot(shape.normal(p, t), dir);
        if (cosIncidence > kRefineMinCos) s += f / cosIncidence;
      }
      return March{std::min(s, end), false};
    }
    if (f < kRefineDistance * scale) {
      const float cosIncidence = -glm::dot(shape.normal(p, t), dir);
      if (cosIncidence > kRefineMinCos) {
        float sHit = s + f / cosIncidence;
        float fHit = field(sHit);
        if (fHit < eps && sHit <= end) {
          // Crossed or reached: regula falsi between (s, f > 0) and (sHit, fHit).
          float sOut = s, fOut = f;
          for (int i = 0; i < 16 && fHit < -eps; ++i) {
            const float sMid = sOut + (sHit - sOut) * (fOut / (fOut - fHit));
            const float fMid = field(sMid);
            if (fMid >= 0.0f) {
              sOut = sMid;
              fOut = fMid;
              if (fMid < eps) {
                sHit = sMid;
                fHit = fMid;
                break;
              }
            } else {
              sHit = sMid;
              fHit = fMid;
            }
          }
          return March{std::min(sHit, end), false};
        }
      }
    }
    prevS = s;
    prevF = f;
    s += f;
    if (s > end) return std::nullopt;
  }
  return std::nullopt;
}

/// Axis point of segment a..b nearest a collider's surface: three coarse interior samples,
/// then five golden-section refinements in the bracket around the best one.
struct AxisPoint {
  float s;  ///< segment parameter (-)
  float f;  ///< field value there (m)
};
AxisPoint nearestAxisPoint(const CollisionShape& shape, Vec3 a, Vec3 b, double t);

}  // namespace floptle::physics::detail
