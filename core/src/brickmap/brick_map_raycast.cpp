// BrickMap::raycast for radii under the band: an exact first crossing of the trilinear field.
//
// The walk locates the ray's current point in the hierarchy top cell -> 4^3-cell block ->
// 2^3-cell block -> fine cell and jumps to the exit of the largest of them whose smallest
// sample exceeds the radius (the trilinear field there cannot reach it: no crossing, however
// the field curves, so no Lipschitz bound is needed and nothing can tunnel). In a fine cell
// that may hold the crossing, the trilinear field along the ray is a cubic in the ray
// parameter; its first root on the segment is bracketed between the cubic's extrema and
// refined by Illinois regula falsi.
#include <algorithm>
#include <cmath>
#include <limits>

#include "brickmap/brick_trilinear.h"
#include "floptle/core/brickmap/brick_map.h"

namespace floptle {
namespace {

/// k0 + k1 s + k2 s^2 + k3 s^3 (m), s (m) from the segment's start.
struct Cubic {
  float k0, k1, k2, k3;
  float at(float s) const { return k0 + s * (k1 + s * (k2 + s * k3)); }
};

/// The trilinear interpolant of corners c[i + 2j + 4k] along a + s * d (a: start in cell units
/// in [0, 1]^3; d: direction in cell units per meter).
Cubic cellCubic(const float* c, Vec3 a, Vec3 d) {
  // Along x on the four x edges (j, k): linear alpha + beta s.
  float alpha[4], beta[4];
  for (int e = 0; e < 4; ++e) {
    const float step = c[2 * e + 1] - c[2 * e];
    alpha[e] = c[2 * e] + step * a.x;
    beta[e] = step * d.x;
  }
  // Along y in the two z faces: quadratic.
  float f0[2], f1[2], f2[2];
  for (int k = 0; k < 2; ++k) {
    const float da = alpha[2 * k + 1] - alpha[2 * k], db = beta[2 * k + 1] - beta[2 * k];
    f0[k] = alpha[2 * k] + da * a.y;
    f1[k] = beta[2 * k] + db * a.y + da * d.y;
    f2[k] = db * d.y;
  }
  // Along z: cubic.
  const float d0 = f0[1] - f0[0], d1 = f1[1] - f1[0], d2 = f2[1] - f2[0];
  return {f0[0] + d0 * a.z, f1[0] + d1 * a.z + d0 * d.z, f2[0] + d2 * a.z + d1 * d.z, d2 * d.z};
}

/// First s in [0, length] where g(s) = cubic(s) - level <= 0, given g(0) > 0; -1 when none.
/// g is monotone between the roots of g', so a crossing shows as a sign change at the end of
/// one of those (at most three) pieces.
float firstCrossing(const Cubic& f, float level, float length) {
  float split[3];
  int n = 0;
  const float A = 3.0f * f.k3, B = 2.0f * f.k2, C = f.k1;  // g'(s) = A s^2 + B s + C
  auto keep = [&](float s) {
    if (s > 0.0f && s < length) split[n++] = s;
  };
  if (A != 0.0f) {
    const float disc = B * B - 4.0f * A * C;
    if (disc > 0.0f) {
      const float q = -0.5f * (B + std::copysign(std::sqrt(disc), B));
      const float r1 = q / A, r2 = q != 0.0f ? C / q : r1;
      keep(std::min(r1, r2));
      if (r2 != r1) keep(std::max(r1, r2));
    }
  } else if (B != 0.0f) {
    keep(-C / B);
  }
  split[n++] = length;
  float lo = 0.0f, glo = f.at(0.0f) - level;
  for (int i = 0; i < n; ++i) {
    float hi = split[i];
    float ghi = f.at(hi) - level;
    if (ghi > 0.0f) {
      lo = hi, glo = ghi;
      continue;
    }
    // Illinois regula falsi on [lo, hi], glo > 0 >= ghi: superlinear, keeps the bracket.
    int side = 0;
    for (int it = 0; it < 30 && hi - lo > 1e-7f; ++it) {
      const float s = lo + (hi - lo) * glo / (glo - ghi);
      const float gs = f.at(s) - level;
      if (gs > 0.0f) {
        lo = s, glo = gs;
        if (side == 1) ghi *= 0.5f;
        side = 1;
      } else {
        hi = s, ghi = gs;
        if (gs == 0.0f) break;
        if (side == -1) glo *= 0.5f;
        side = -1;
      }
    }
    return hi;
  }
  return -1.0f;
}

/// Prefetches the 3 x 3 sample rows (3 floats each) of a 2^3-cell block starting at `first`.
inline void prefetchBlockRows(const float* first) {
#if defined(__GNUC__)
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) __builtin_prefetch(first + BrickMap::kSamples * (j + BrickMap::kSamples * k));
#else
  (void)first;
#endif
}

}  // namespace

BrickMap::RayHit BrickMap::raycast(Vec3 origin, Vec3 dir, float maxDistance, float radius) const {
  if (!(radius < bandWidth_)) return raycastMarch(origin, dir, maxDistance, radius);
  RayHit result;
  if (dims_.x == 0 || !(maxDistance >= 0.0f)) return result;
  float tEnter = 0.0f, tExit = 0.0f;
  if (!intersectRayAabb(Ray{origin, dir}, gridBounds(), maxDistance, tEnter, tExit)) return result;
  // The walk runs from where the ray enters the grid (or its origin inside it), with its own
  // parameter s: a ray from far away keeps the precision of a short one.
  const float t0 = std::max(tEnter, 0.0f);
  const Vec3 from = origin + dir * t0;
  const float sEnd = std::min(tExit, maxDistance) - t0;
  // Past a box's exit plane by this much, to land in the next box (m). A crossing inside the
  // gap shows as a start already at or under the level in the next cell: found within it.
  const float nudge = 1e-4f * cellSize_;
  // Axis-parallel rays: a huge inverse keeps the exit of that axis far away (no 0 * inf).
  Vec3 invDir;
  for (int a = 0; a < 3; ++a) invDir[a] = std::abs(dir[a]) > 1e-30f ? 1.0f / dir[a] : std::copysign(1e30f, dir[a]);
  const Vec3 dirCells = dir * invCellSize_;
  const glm::ivec3 last = dims_ - 1;
  auto exitOf = [&](Vec3 lo, float size) {
    const Vec3 plane(invDir.x > 0.0f ? lo.x + size : lo.x, invDir.y > 0.0f ? lo.y + size : lo.y,
                     invDir.z > 0.0f ? lo.z + size : lo.z);
    const Vec3 e = (plane - from) * invDir;
    return std::min(std::min(e.x, e.y), e.z);
  };
  auto finish = [&](float s, const float* samples, Vec3 brickLo) {
    result.hit = true;
    result.distance = t0 + s;
    result.point = from + dir * s;
    Vec3 gradient(0.0f);
    if (samples)
      brickTrilinear(samples, glm::clamp((result.point - brickLo) * invCellSize_, Vec3(0.0f), Vec3(float(kCells))),
                     &gradient, invCellSize_);
    else
      distanceGradient(result.point, gradient);
    const float len = glm::length(gradient);
    result.normal = len > 0.0f ? gradient / len : -dir;
    return result;
  };

  // A block whose stored step count q exceeds this has every sample >= q * step > radius
  // (q >= skipAbove + 1 > radius / step); clamped below so a saturated -128 never skips.
  const int skipAbove = static_cast<int>(std::max(std::floor(double(radius) / blockStep_), -128.0));
  // Past the box's exit plane by the nudge, and never standing still however coarse the floats.
  auto advance = [&](float t, float exit) {
    const float next = std::max(exit, t) + nudge;
    return next > t ? next : std::nextafter(t, std::numeric_limits<float>::infinity());
  };
  float t = 0.0f;  // the walk's parameter s (m)
  while (t <= sEnd) {
    const Vec3 p = from + dir * t;
    // Truncation is floor here: a point a rounding error below the grid clamps to cell 0.
    const glm::ivec3 c = glm::clamp(glm::ivec3((p - origin_) * invBrickSize_), glm::ivec3(0), last);
    const int index = cellIndex(c);
    const int brick = brickOf_[index];
    const Vec3 brickLo = cellMin(c);
    Vec3 lo = brickLo;      // the box to skip (m)
    float size = brickSize_;  // its edge (m)
    if (brick < 0) {
      // Empty: |field| >= band > radius throughout, so only a negative (solid) cell is a hit.
      if (centre_[index] < 0.0f) return finish(t, nullptr, brickLo);
    } else if (brickMin_[brick] <= radius) {
      const glm::ivec3 fine = glm::clamp(glm::ivec3((p - brickLo) * invCellSize_), glm::ivec3(0),
                                         glm::ivec3(kCells - 1));
      const std::int8_t* mins = blockMin_.data() + static_cast<std::size_t>(brick) * kBlockMins;
      const glm::ivec3 b4 = fine >> 2, b2 = fine >> 1;
      if (mins[b4.x + 2 * (b4.y + 2 * b4.z)] > skipAbove) {
        lo = brickLo + Vec3(b4) * (4.0f * cellSize_);
        size = 4.0f * cellSize_;
      } else if (mins[8 + b2.x + 4 * (b2.y + 4 * b2.z)] > skipAbove) {
        lo = brickLo + Vec3(b2) * (2.0f * cellSize_);
        size = 2.0f * cellSize_;
      } else {
        lo = brickLo + Vec3(fine) * cellSize_;
        size = cellSize_;
        const float* samples = pool_.data() + static_cast<std::size_t>(brick) * kBrickSamples;
        // The walk is bound by cache misses in the 3 KB bricks: ask for the 2^3-cell block's nine
        // sample rows at once, so the cells after this one find theirs on the way.
        prefetchBlockRows(samples + 2 * b2.x + kSamples * (2 * b2.y + kSamples * 2 * b2.z));
        const float* s = samples + fine.x + kSamples * (fine.y + kSamples * fine.z);
        const float corners[8] = {s[0],
                                  s[1],
                                  s[kSamples],
                                  s[kSamples + 1],
                                  s[kSamples * kSamples],
                                  s[kSamples * kSamples + 1],
                                  s[kSamples * kSamples + kSamples],
                                  s[kSamples * kSamples + kSamples + 1]};
        float smallest = corners[0];
        for (int i = 1; i < 8; ++i) smallest = std::min(smallest, corners[i]);
        if (smallest <= radius) {
          const float cellExit = exitOf(lo, size);
          const float length = std::max(std::min(cellExit, sEnd) - t, 0.0f);
          const Vec3 a = glm::clamp((p - lo) * invCellSize_, Vec3(0.0f), Vec3(1.0f));
          const Cubic f = cellCubic(corners, a, dirCells);
          if (f.k0 <= radius) return finish(t, samples, brickLo);
          const float s0 = firstCrossing(f, radius, length);
          if (s0 >= 0.0f) return finish(t + s0, samples, brickLo);
          t = advance(t, cellExit);
          continue;
        }
      }
    }
    t = advance(t, exitOf(lo, size));
  }
  return result;
}

}  // namespace floptle
