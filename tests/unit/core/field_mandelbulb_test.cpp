// The Mandelbulb estimate: integer powers run a trigonometry-free form (powers of unit
// complex numbers), which must equal the trigonometric definition up to rounding; per point
// and batched agree bit for bit for integer and non-integer (morphing) powers.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "../../../core/src/field/sdf_math.h"
#include "field_test_util.h"

using namespace floptle;
using namespace floptle::field;
using namespace floptle::field::test;

namespace {

std::vector<Vec3> ballPoints(int n, unsigned seed, float extent) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-extent, extent);
  std::vector<Vec3> pts(static_cast<std::size_t>(n));
  for (Vec3& p : pts) p = {u(rng), u(rng), u(rng)};
  return pts;
}

TEST(FieldMandelbulb, IntegerPowersEqualTheTrigonometricForm) {
  const std::vector<Vec3> pts = ballPoints(3000, 41, 1.5f);
  for (int power = 2; power <= 16; ++power) {
    const FieldProgram bulb = compileOrDie(node(NodeType::Mandelbulb, {float(power), 8, 2}));
    int close = 0, total = 0;
    for (const Vec3& p : pts) {
      const float d = bulb.distance(p, 0);
      const float ref = sdf::mandelbulbTrig(p.x, p.y, p.z, float(power), 8, 2.0f);
      ASSERT_TRUE(std::isfinite(d));
      // Away from the surface both forms agree on the side; near it the 8 iterations of a
      // chaotic map may turn rounding differences into visible ones at a few points.
      if (std::abs(ref) > 0.02f) {
        ASSERT_EQ(d > 0.0f, ref > 0.0f)
            << "power " << power << " at " << p.x << "," << p.y << "," << p.z;
      }
      close += std::abs(d - ref) <= 1e-5f + 1e-4f * std::abs(ref);
      ++total;
    }
    EXPECT_GE(close, total * 99 / 100) << "power " << power;
  }
  // Known values: the origin is inside; far points use |p| - bailout.
  const FieldProgram bulb = compileOrDie(node(NodeType::Mandelbulb, {8, 8, 2}));
  EXPECT_LT(bulb.distance({0, 0, 0}, 0), 0.0f);
  EXPECT_FLOAT_EQ(bulb.distance({5, 0, 0}, 0), 3.0f);
  EXPECT_TRUE(std::isfinite(bulb.distance({0, 0.5f, 0}, 0)));  // on the y axis: phi = atan2(0, 0)
}

TEST(FieldMandelbulb, BatchEqualsPerPointForIntegerAndMorphingPowers) {
  const std::vector<Vec3> pts = ballPoints(1001, 42, 2.2f);  // 15 full blocks and a partial one
  std::vector<float> out(pts.size());
  for (float power : {8.0f, 3.0f, 7.5f}) {
    const FieldProgram bulb = compileOrDie(node(NodeType::Mandelbulb, {power, 8, 2}));
    bulb.distanceBatch(pts, 0, out);
    for (std::size_t i = 0; i < pts.size(); ++i)
      ASSERT_EQ(out[i], bulb.distance(pts[i], 0)) << "power " << power << " point " << i;
  }
  // A power animated across integers: both paths switch form at the same t.
  FieldNode morph = node(NodeType::Mandelbulb, {8, 8, 2});
  morph.params[0].driver = AnimatedScalar::Driver::Keys;
  morph.params[0].keys = {{0.0, 6.0f}, {1.0, 9.0f}};
  const FieldProgram bulb = compileOrDie(morph);
  for (double t : {0.0, 0.25, 1.0 / 3.0, 0.5, 1.0}) {
    bulb.distanceBatch(pts, t, out);
    for (std::size_t i = 0; i < pts.size(); ++i)
      ASSERT_EQ(out[i], bulb.distance(pts[i], t)) << "t " << t << " point " << i;
  }
}

TEST(FieldMandelbulb, BatchEqualsPerPointForEveryIntegerPower) {
  // Power 8 runs unrolled code, the others the general binary powering: the per-point scalar
  // kernel and the four-lane batch kernel give the same bits for each.
  const std::vector<Vec3> pts = ballPoints(403, 43, 1.6f);
  std::vector<float> out(pts.size());
  for (int power = 2; power <= 16; ++power) {
    const FieldProgram bulb = compileOrDie(node(NodeType::Mandelbulb, {float(power), 8, 2}));
    bulb.distanceBatch(pts, 0, out);
    for (std::size_t i = 0; i < pts.size(); ++i)
      ASSERT_EQ(out[i], bulb.distance(pts[i], 0)) << "power " << power << " point " << i;
  }
}

TEST(FieldMandelbulb, LoneTransformedBulbMatchesBatchAndItsLocalFrame) {
  // A lone static Mandelbulb takes its own per-point shortcut; under a translation and under a
  // rotation with scale it still equals the batch path bit for bit.
  const std::vector<Vec3> pts = ballPoints(401, 44, 3.0f);
  std::vector<float> out(pts.size());
  const Quat q = glm::angleAxis(0.7f, glm::normalize(Vec3(1, 2, 3)));
  for (const FieldNode& n :
       {xform({1, 2, 3}, Quat(1, 0, 0, 0), 1.0f, node(NodeType::Mandelbulb, {8, 8, 2})),
        xform({0.5f, -0.2f, 0.1f}, q, 1.5f, node(NodeType::Mandelbulb, {8, 8, 2}))}) {
    const FieldProgram bulb = compileOrDie(n);
    bulb.distanceBatch(pts, 0, out);
    for (std::size_t i = 0; i < pts.size(); ++i)
      ASSERT_EQ(out[i], bulb.distance(pts[i], 0)) << "point " << i;
  }
  // Translation only: the point (1, 2, 3) + (5, 0, 0) is (5, 0, 0) locally, |p| - bailout = 3.
  const FieldProgram moved =
      compileOrDie(xform({1, 2, 3}, Quat(1, 0, 0, 0), 1.0f, node(NodeType::Mandelbulb, {8, 8, 2})));
  EXPECT_FLOAT_EQ(moved.distance({6, 2, 3}, 0), 3.0f);
  // Scaled by 1.5 about (0.5, -0.2, 0.1): 1.5 * the unscaled estimate at the local point.
  const FieldProgram scaled = compileOrDie(
      xform({0.5f, -0.2f, 0.1f}, Quat(1, 0, 0, 0), 1.5f, node(NodeType::Mandelbulb, {8, 8, 2})));
  EXPECT_NEAR(scaled.distance({0.5f + 1.5f * 6.0f, -0.2f, 0.1f}, 0), 1.5f * 4.0f, 1e-5f);
}

}  // namespace
