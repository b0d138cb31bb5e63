// Exact linear drag toward a constant water velocity (seed 003): closed forms at zero, small
// and large drag, current equilibrium, invalid input, overflow and output preservation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "floptle/drift/linear_drag.h"

namespace floptle::drift {
namespace {

constexpr double kDt = 1.0 / 60.0;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

DragCoefficients coefficients(double rate, double step) {
  DragCoefficients c;
  EXPECT_EQ(makeDragCoefficients(rate, step, c), DragStatus::ok);
  return c;
}

TEST(LinearDrag, ZeroDragIsExactlyBallisticEvenInACurrent) {
  const DragCoefficients c = coefficients(0.0, kDt);
  EXPECT_EQ(c.velocityFactor, 1.0);
  EXPECT_EQ(c.distanceFactor, kDt);
  const Vec2d x0{0.1, -7.3}, v0{0.3, 2.9}, water{0.1, -0.7};
  Vec2d x1, v1;
  ASSERT_EQ(advanceDrag(c, water, x0, v0, x1, v1), DragStatus::ok);
  EXPECT_EQ(v1.x, v0.x);  // Bitwise: the k = 0 limit is not the general formula.
  EXPECT_EQ(v1.z, v0.z);
  EXPECT_EQ(x1.x, x0.x + v0.x * kDt);
  EXPECT_EQ(x1.z, x0.z + v0.z * kDt);
}

TEST(LinearDrag, SmallDragKeepsEveryDigitOfTheDistanceFactor) {
  // (1 - exp(-k dt)) / k = dt (1 - x/2 + x^2/6 - ...), x = k dt. Naive 1 - exp(-x) loses about
  // half the digits at x ~ 1e-9; the expm1 form must agree with the series to ~1 ulp.
  for (double rate : {1e-300, 1e-14, 1e-9, 1e-7, 1e-4}) {
    const DragCoefficients c = coefficients(rate, kDt);
    const double x = rate * kDt;
    const double series = kDt * (1.0 - x / 2.0 + x * x / 6.0 - x * x * x / 24.0);
    EXPECT_NEAR(c.distanceFactor, series, 4e-16 * kDt) << "rate " << rate;
    EXPECT_NEAR(c.velocityFactor, 1.0 - x + x * x / 2.0, 2e-16) << "rate " << rate;
  }
  // The naive form is measurably worse here, so the test above can fail.
  const double rate = 1e-9, x = rate * kDt;
  const double naive = (1.0 - std::exp(-x)) / rate;
  EXPECT_GT(std::fabs(naive - kDt * (1.0 - x / 2.0)), 1e-12 * kDt);
}

TEST(LinearDrag, LargeDragSnapsToTheCurrentAndTravelsOneOverK) {
  const Vec2d x0{1.0, 2.0}, v0{5.0, -3.0}, water{0.25, 0.5};
  for (double rate : {1e6, 1e300}) {
    const DragCoefficients c = coefficients(rate, kDt);
    Vec2d x1, v1;
    ASSERT_EQ(advanceDrag(c, water, x0, v0, x1, v1), DragStatus::ok);
    EXPECT_EQ(v1.x, water.x);
    EXPECT_EQ(v1.z, water.z);
    EXPECT_DOUBLE_EQ(x1.x, x0.x + water.x * kDt + (v0.x - water.x) / rate);
    EXPECT_DOUBLE_EQ(x1.z, x0.z + water.z * kDt + (v0.z - water.z) / rate);
  }
  // Huge rate times huge step overflows k dt to infinity: still exact limits, finite output.
  const DragCoefficients c = coefficients(1e300, 1e300);
  EXPECT_EQ(c.velocityFactor, 0.0);
  EXPECT_DOUBLE_EQ(c.distanceFactor, 1e-300);
}

TEST(LinearDrag, StepsComposeToTheClosedFormTrajectory) {
  const double k = 0.7;
  const Vec2d x0{-2.0, 3.0}, v0{6.0, -1.5}, u{0.3, 0.2};
  const DragCoefficients c = coefficients(k, kDt);
  Vec2d x = x0, v = v0;
  for (int i = 0; i < 120; ++i) ASSERT_EQ(advanceDrag(c, u, x, v, x, v), DragStatus::ok);
  const double t = 2.0, e = std::exp(-k * t);
  EXPECT_NEAR(v.x, u.x + (v0.x - u.x) * e, 1e-13);
  EXPECT_NEAR(v.z, u.z + (v0.z - u.z) * e, 1e-13);
  EXPECT_NEAR(x.x, x0.x + u.x * t + (v0.x - u.x) * (1.0 - e) / k, 1e-12);
  EXPECT_NEAR(x.z, x0.z + u.z * t + (v0.z - u.z) * (1.0 - e) / k, 1e-12);
}

TEST(LinearDrag, CurrentEquilibriumIsExactlyStationary) {
  const DragCoefficients c = coefficients(0.7, kDt);
  const Vec2d u{0.3, -1.1};
  Vec2d x{4.0, 5.0}, v = u;
  for (int i = 0; i < 600; ++i) {
    const Vec2d before = x;
    ASSERT_EQ(advanceDrag(c, u, x, v, x, v), DragStatus::ok);
    EXPECT_EQ(v.x, u.x);
    EXPECT_EQ(v.z, u.z);
    EXPECT_EQ(x.x, before.x + u.x * kDt);
    EXPECT_EQ(x.z, before.z + u.z * kDt);
  }
}

TEST(LinearDrag, InvalidCoefficientInputsAreRefusedAndLeaveTheOutputAlone) {
  DragCoefficients sentinel;
  sentinel.rate = 42.0;
  sentinel.velocityFactor = 0.125;
  for (auto [rate, step] :
       {std::pair{-0.1, kDt}, {kNaN, kDt}, {kInf, kDt}, {0.7, -kDt}, {0.7, kNaN}, {0.7, kInf}}) {
    DragCoefficients c = sentinel;
    EXPECT_EQ(makeDragCoefficients(rate, step, c), DragStatus::invalidInput);
    EXPECT_EQ(c.rate, 42.0);
    EXPECT_EQ(c.velocityFactor, 0.125);
  }
}

TEST(LinearDrag, NonFiniteStateIsInvalidAndLeavesTheOutputAlone) {
  const DragCoefficients c = coefficients(0.7, kDt);
  const Vec2d good{1.0, 2.0}, bad{kNaN, 0.0}, infinite{0.0, -kInf};
  for (int which = 0; which < 6; ++which) {
    Vec2d water = good, x = good, v = good;
    Vec2d& target = which % 3 == 0 ? water : (which % 3 == 1 ? x : v);
    target = which < 3 ? bad : infinite;
    Vec2d outX{9.0, 9.0}, outV{8.0, 8.0};
    EXPECT_EQ(advanceDrag(c, water, x, v, outX, outV), DragStatus::invalidInput);
    EXPECT_EQ(outX, (Vec2d{9.0, 9.0}));
    EXPECT_EQ(outV, (Vec2d{8.0, 8.0}));
  }
  DragCoefficients broken = c;
  broken.rate = kNaN;
  Vec2d outX{9.0, 9.0}, outV{8.0, 8.0};
  EXPECT_EQ(advanceDrag(broken, good, good, good, outX, outV), DragStatus::invalidInput);
}

TEST(LinearDrag, OverflowIsANumericFailureThatLeavesTheOutputAlone) {
  const double big = std::numeric_limits<double>::max();
  {  // Position overflows: x0 + v0 dt > DBL_MAX.
    const DragCoefficients c = coefficients(0.0, 10.0);
    Vec2d outX{9.0, 9.0}, outV{8.0, 8.0};
    EXPECT_EQ(advanceDrag(c, {}, {big, 0.0}, {big, 0.0}, outX, outV), DragStatus::numericFailure);
    EXPECT_EQ(outX, (Vec2d{9.0, 9.0}));
    EXPECT_EQ(outV, (Vec2d{8.0, 8.0}));
  }
  {  // Relative velocity overflows: v0 - u = 2 DBL_MAX.
    const DragCoefficients c = coefficients(0.7, kDt);
    Vec2d outX{9.0, 9.0}, outV{8.0, 8.0};
    EXPECT_EQ(advanceDrag(c, {-big, 0.0}, {}, {big, 0.0}, outX, outV), DragStatus::numericFailure);
    EXPECT_EQ(outX, (Vec2d{9.0, 9.0}));
    EXPECT_EQ(outV, (Vec2d{8.0, 8.0}));
  }
}

}  // namespace
}  // namespace floptle::drift
