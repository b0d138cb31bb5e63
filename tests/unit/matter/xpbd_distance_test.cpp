// The XPBD distance constraint (seed 002): each update closes the closed-form fraction
// (w_a + w_b) / (w_a + w_b + alpha~) of the error, so repeated substeps converge to the rest
// length; a hard constraint (alpha = 0) lands on it in one update.
#include <cmath>

#include <gtest/gtest.h>

#include "floptle/matter/xpbd.h"

namespace floptle::matter {
namespace {

TEST(XpbdDistance, AHardConstraintReachesItsRestLengthInOneUpdate) {
  Vec3 a(0, 0, 0), b(2, 0, 0);
  float lambda = 0.0f;
  solveDistance(a, b, 1.0f, 3.0f, 0.5f, 0.0f, lambda);
  EXPECT_NEAR(glm::length(a - b), 0.5f, 1e-6f);
  // The heavier end (w = 1) moves a quarter of the correction: the centre of mass stays.
  EXPECT_NEAR(a.x, 0.375f, 1e-6f);
  EXPECT_NEAR((3.0f * a.x + 1.0f * b.x) / 4.0f, (3.0f * 0.0f + 2.0f) / 4.0f, 1e-6f);
}

TEST(XpbdDistance, ACompliantConstraintConvergesGeometricallyToItsRestLength) {
  const float w = 2.0f, alphaTilde = 6.0f, rest = 1.0f;
  const float kept = alphaTilde / (2.0f * w + alphaTilde);  // error left per update: 0.6
  Vec3 a(0, 0, 0), b(0, 3, 0);
  float error = 2.0f;
  for (int i = 0; i < 60; ++i) {
    float lambda = 0.0f;  // a new substep each time
    solveDistance(a, b, w, w, rest, alphaTilde, lambda);
    error *= kept;
    ASSERT_NEAR(glm::length(a - b) - rest, error, 1e-5f) << "update " << i;
  }
  EXPECT_NEAR(glm::length(a - b), rest, 1e-5f);
}

TEST(XpbdDistance, TheMultiplierMakesRepeatedSweepsOfOneStepSolveTheImplicitSpring) {
  // Within one step lambda accumulates: the fixed point has C = -alpha~ lambda.
  const float w = 1.0f, alphaTilde = 1.0f;
  Vec3 a(0, 0, 0), b(3, 0, 0);
  float lambda = 0.0f;
  for (int i = 0; i < 200; ++i) solveDistance(a, b, w, w, 1.0f, alphaTilde, lambda);
  EXPECT_NEAR(glm::length(a - b) - 1.0f, -alphaTilde * lambda, 1e-5f);
  // The closed form: C = 2 / (1 + 2 w / alpha~) = 2/3.
  EXPECT_NEAR(glm::length(a - b) - 1.0f, 2.0f / 3.0f, 1e-5f);
}

}  // namespace
}  // namespace floptle::matter
