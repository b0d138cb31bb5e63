#pragma once
// Vector comparison for the unit tests: |a - b| <= tolerance, printing both on failure.
#include <gtest/gtest.h>

#include "floptle/core/math.h"

namespace floptle::test {

inline void expectNear(Vec3 a, Vec3 b, float tolerance) {
  EXPECT_LE(glm::length(a - b), tolerance) << "(" << a.x << ", " << a.y << ", " << a.z << ") vs ("
                                           << b.x << ", " << b.y << ", " << b.z << ")";
}

}  // namespace floptle::test
