#pragma once
// The brute-force reference for BrickMap::raycast: distance() - radius sampled at a fine step
// along the ray, the first sample at or under zero bisected against the previous one. Shared
// by the traversal tests.
#include <algorithm>

#include "floptle/core/brickmap/brick_map.h"

namespace floptle {

struct March {
  bool hit = false;
  float distance = 0.0f;     // (m)
  float smallest = 1e30f;    // smallest field - radius seen along the ray (m)
  bool startInside = false;  // already at or under the level where the ray enters the grid
};

/// Brute force: distance() - radius sampled every `step` along the part of the ray in the grid;
/// the first sample at or under zero is bisected against the previous one.
inline March fineMarch(const BrickMap& map, Vec3 o, Vec3 d, float maxDistance, float radius,
                       float step) {
  March m;
  float tEnter = 0.0f, tExit = 0.0f;
  if (!intersectRayAabb(Ray{o, d}, map.gridBounds(), maxDistance, tEnter, tExit)) return m;
  const float end = std::min(tExit, maxDistance);
  float prev = std::max(tEnter, 0.0f);
  if (map.distance(o + d * prev) - radius <= 0.0f) return {true, prev, 0.0f, true};
  for (float t = prev + step;; t += step) {
    const float s = std::min(t, end);
    const float g = map.distance(o + d * s) - radius;
    m.smallest = std::min(m.smallest, g);
    if (g <= 0.0f) {
      float a = prev, b = s;
      for (int i = 0; i < 40; ++i) {
        const float mid = 0.5f * (a + b);
        (map.distance(o + d * mid) - radius > 0.0f ? a : b) = mid;
      }
      m.hit = true;
      m.distance = b;
      return m;
    }
    if (s >= end) return m;
    prev = s;
  }
}

}  // namespace floptle
