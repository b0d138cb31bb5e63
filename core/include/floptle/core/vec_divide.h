#pragma once
// v / s (and 1 / v) for the three components in one vector division. The quotients are the same
// IEEE single-precision divisions glm's `v / s` performs one by one, so the bits are identical;
// only the latency changes (one divide instead of three queued ones), which matters on the
// short dependency chains of single queries (normalize the ray, hit the sphere, normalize the
// normal, normalize again in the hit builder).
#include "floptle/core/math.h"

namespace floptle {

inline Vec3 dividedBy(Vec3 v, float s) {
#if defined(__GNUC__)
  typedef float Lanes __attribute__((vector_size(16)));
  const Lanes q = Lanes{v.x, v.y, v.z, 1.0f} / Lanes{s, s, s, s};
  return Vec3(q[0], q[1], q[2]);
#else
  return v / s;
#endif
}

/// 1 / v per component, likewise in one vector division (glm's `1.0f / v`, same bits).
inline Vec3 reciprocal(Vec3 v) {
#if defined(__GNUC__)
  typedef float Lanes __attribute__((vector_size(16)));
  const Lanes q = Lanes{1.0f, 1.0f, 1.0f, 1.0f} / Lanes{v.x, v.y, v.z, 1.0f};
  return Vec3(q[0], q[1], q[2]);
#else
  return 1.0f / v;
#endif
}

}  // namespace floptle
