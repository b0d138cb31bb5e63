// BrickMap::raycastMarch: the sphere-tracing cast, kept for radii >= the band (the crossing may
// then lie in empty space, where only the coarse centre field answers): empty top cells
// stepped by their stored lower bound, bricks sphere-traced, a few regula-falsi steps at the
// crossing. Radii under the band take the exact walk in brick_map_raycast.cpp.
#include <cmath>

#include "brickmap/brick_trilinear.h"
#include "floptle/core/brickmap/brick_map.h"

namespace floptle {

BrickMap::RayHit BrickMap::raycastMarch(Vec3 origin, Vec3 dir, float maxDistance,
                                        float radius) const {
  RayHit result;
  if (dims_.x == 0 || !(maxDistance >= 0.0f)) return result;
  float tEnter = 0.0f, tExit = 0.0f;
  if (!intersectRayAabb(Ray{origin, dir}, gridBounds(), maxDistance, tEnter, tExit)) return result;
  const float tEnd = std::min(tExit, maxDistance);
  const float hitEpsilon = 1e-4f * cellSize_;  // close enough to call it contact (m)
  const float minStep = 0.2f * cellSize_;      // smallest step; a crossing within it is
                                               // found by sign and refined (m)
  constexpr float kRelaxation = 1.6f;          // over-relaxation of the brick steps (-)
  bool relaxed = false;
  const float boundaryNudge = 1e-4f * cellSize_;  // to land inside the next top cell (m)
  const bool skipEmptyCells = radius < bandWidth_;
  const Vec3 invDir(1.0f / dir.x, 1.0f / dir.y, 1.0f / dir.z);
  const glm::ivec3 last = dims_ - 1;

  float t = std::max(tEnter, 0.0f);
  float prevT = t, prevV = 0.0f;
  bool havePrev = false;
  auto field = [&](float s) { return distance(origin + dir * s) - radius; };
  auto finish = [&](float s) {
    result.hit = true;
    result.distance = s;
    result.point = origin + dir * s;
    Vec3 gradient;
    distanceGradient(result.point, gradient);
    const float len = glm::length(gradient);
    result.normal = len > 0.0f ? gradient / len : -dir;
    return result;
  };
  auto refine = [&](float a, float va, float b, float vb) {
    // Regula falsi on [a, b] with va > 0 >= vb: the crossing of the interpolated field.
    for (int i = 0; i < 6; ++i) {
      const float m = a + (b - a) * va / (va - vb);
      const float vm = field(m);
      if (std::abs(vm) <= hitEpsilon) return m;
      if (vm > 0.0f)
        a = m, va = vm;
      else
        b = m, vb = vm;
    }
    return a + (b - a) * va / (va - vb);
  };

  while (t <= tEnd) {
    const Vec3 p = origin + dir * t;
    const glm::ivec3 c =
        glm::clamp(glm::ivec3(glm::floor((p - origin_) * invBrickSize_)), glm::ivec3(0), last);
    const int index = cellIndex(c);
    const Vec3 lo = cellMin(c);
    const Vec3 hi = lo + Vec3(brickSize_);
    // Parameter where the ray leaves this top cell.
    const Vec3 exitPlane(dir.x > 0 ? hi.x : lo.x, dir.y > 0 ? hi.y : lo.y, dir.z > 0 ? hi.z : lo.z);
    const Vec3 exits = (exitPlane - origin) * invDir;
    float cellExit = std::min(std::min(std::isnan(exits.x) ? INFINITY : exits.x,
                                       std::isnan(exits.y) ? INFINITY : exits.y),
                              std::isnan(exits.z) ? INFINITY : exits.z);
    const int brick = brickOf_[index];
    if (brick < 0 && centre_[index] < 0.0f) return finish(t);  // started inside, in solid space
    if (brick < 0) {
      // No surface within the band anywhere in this cell, and none within |centre| - half
      // diagonal of any of its points.
      const float safe =
          std::max(std::abs(centre_[index]) - brickHalfDiagonal_, bandWidth_) - radius;
      relaxed = false;
      if (skipEmptyCells) {
        t = std::max(cellExit + boundaryNudge, t + safe);
        continue;
      }
      // Large sphere: the band cannot answer, march the interpolated field conservatively.
      const float v = field(t);
      if (v <= hitEpsilon) {
        if (havePrev && v < 0.0f) return finish(refine(prevT, prevV, t, v));
        return finish(t);
      }
      prevT = t, prevV = v, havePrev = true;
      t += std::max(std::max(safe, v), minStep);
      continue;
    }
    // A trilinear value is never below the smallest of its corners: a brick whose every
    // sample clears the radius is crossed in one step.
    if (brickMin_[brick] > radius + hitEpsilon) {
      relaxed = false;
      t = std::max(cellExit + boundaryNudge, t + minStep);
      continue;
    }
    // Over-relaxed sphere tracing of the brick's trilinear field up to the cell's exit
    // (Keinert et al. 2014): steps of 1.6 v, and when two consecutive spheres stop
    // overlapping the relaxed step may have jumped something, so it is retaken plainly.
    const std::int16_t* samples = pool_.data() + static_cast<std::size_t>(brick) * kBrickSamples;
    const float segmentEnd = std::min(cellExit, tEnd);
    for (;;) {
      const Vec3 l = (origin + dir * t - lo) * invCellSize_;
      const float v = brickTrilinear(samples, sampleStep_, l, nullptr, invCellSize_) - radius;
      if (v <= hitEpsilon) {
        if (havePrev && v < 0.0f) return finish(refine(prevT, prevV, t, v));
        return finish(t);
      }
      if (relaxed && prevV + v < t - prevT) {
        t = prevT + std::max(prevV, minStep);
        relaxed = false;
        if (t > segmentEnd) break;
        continue;
      }
      prevT = t, prevV = v, havePrev = true;
      // Relaxed steps stay inside this brick, so a retake never changes brick.
      const float plain = std::max(v, minStep), stretched = std::max(kRelaxation * v, minStep);
      relaxed = stretched > plain && t + stretched <= segmentEnd;
      t += relaxed ? stretched : plain;
      if (t > segmentEnd) break;
    }
    if (t <= cellExit) t = cellExit + boundaryNudge;
  }
  // The last step may have jumped past the end over a crossing: check the end point.
  if (havePrev && prevT < tEnd) {
    const float v = field(tEnd);
    if (v < 0.0f) return finish(refine(prevT, prevV, tEnd, v));
  }
  return result;
}

}  // namespace floptle
