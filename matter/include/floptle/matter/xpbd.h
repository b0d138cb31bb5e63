#pragma once
// The XPBD constraint update of seed 002 for one distance constraint, the springy skeleton of
// the soft body's cage (tested on its own: it converges to the rest length).
//   alpha~ = alpha / dt^2;  dlambda = (-C - alpha~ lambda) / (w_a + w_b + alpha~)
//   C = |a - b| - rest, grad_a C = (a - b)/|a - b| = -grad_b C;  a += w_a n dlambda, b -= ...
#include <cmath>

#include "floptle/core/math.h"

namespace floptle::matter {

/// One update of C = |a - b| - rest (m) with inverse masses wa, wb (1/kg) and time-scaled
/// compliance alphaTilde (1/kg); `lambda` accumulates (start it at 0 each substep). Returns
/// dlambda. Coincident points are left as they are (no direction).
inline float solveDistance(Vec3& a, Vec3& b, float wa, float wb, float rest, float alphaTilde,
                           float& lambda) {
  const Vec3 d = a - b;
  const float len2 = glm::dot(d, d);
  if (len2 < 1e-24f) return 0.0f;
  const float invLen = 1.0f / std::sqrt(len2);  // one division for the direction
  const float len = len2 * invLen;
  const float dLambda = (-(len - rest) - alphaTilde * lambda) / (wa + wb + alphaTilde);
  lambda += dLambda;
  const Vec3 n = d * invLen;
  a += wa * dLambda * n;
  b -= wb * dLambda * n;
  return dLambda;
}

}  // namespace floptle::matter
