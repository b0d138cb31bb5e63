// Swept expanding radial band (seed 003): tangent, initial, inner and outer band contact,
// shrinking bands, stationary sweeps, negative signed radii, invalid input, overflow and
// output preservation, plus a brute-force cross-check against dense sampling.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "floptle/drift/expanding_band.h"

namespace floptle::drift {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

ExpandingBand band(Vec2d centre, double r0, double growth, double w) {
  ExpandingBand b;
  b.centre = centre;
  b.startRadius = r0;
  b.growth = growth;
  b.halfWidth = w;
  return b;
}

BandContact sentinel() {
  BandContact c;
  c.fraction = -7.0;
  c.point = {-7.0, -7.0};
  c.normal = {-7.0, -7.0};
  return c;
}

void expectUntouched(const BandContact& c) {
  EXPECT_EQ(c.fraction, -7.0);
  EXPECT_EQ(c.point, (Vec2d{-7.0, -7.0}));
  EXPECT_EQ(c.normal, (Vec2d{-7.0, -7.0}));
}

TEST(ExpandingBand, StartingOverlapIsAContactAtZero) {
  // Boat 1.2 m from the centre, ring radius 1 with half-width 0.5: |1.2 - 1| <= 0.5.
  BandContact c = sentinel();
  ASSERT_EQ(sweepExpandingBand(band({0, 0}, 1.0, 2.0, 0.5), {{0.0, 1.2}, {0.0, 9.0}}, c),
            BandSweepStatus::hit);
  EXPECT_EQ(c.fraction, 0.0);
  EXPECT_EQ(c.point, (Vec2d{0.0, 1.2}));
  EXPECT_DOUBLE_EQ(c.normal.x, 0.0);
  EXPECT_DOUBLE_EQ(c.normal.z, 1.0);
}

TEST(ExpandingBand, OuterBoundaryContactOfAnApproachingSweep) {
  // d(t) = 5 - 5t meets the outer boundary r0 + w = 1.5 at t = 0.7.
  BandContact c = sentinel();
  ASSERT_EQ(sweepExpandingBand(band({0, 0}, 1.0, 0.0, 0.5), {{5.0, 0.0}, {0.0, 0.0}}, c),
            BandSweepStatus::hit);
  EXPECT_NEAR(c.fraction, 0.7, 1e-15);
  EXPECT_NEAR(c.point.x, 1.5, 1e-15);
  EXPECT_EQ(c.point.z, 0.0);
  EXPECT_EQ(c.normal, (Vec2d{1.0, 0.0}));
}

TEST(ExpandingBand, InnerBoundaryContactFromInsideTheRing) {
  // Starting at the centre of a ring of radius 3 (band 2.5..3.5), moving out to x = 4:
  // d(t) = 4t meets the inner boundary at t = 0.625; the normal points outward.
  BandContact c = sentinel();
  ASSERT_EQ(sweepExpandingBand(band({0, 0}, 3.0, 0.0, 0.5), {{0.0, 0.0}, {4.0, 0.0}}, c),
            BandSweepStatus::hit);
  EXPECT_DOUBLE_EQ(c.fraction, 0.625);
  EXPECT_DOUBLE_EQ(c.point.x, 2.5);
  EXPECT_EQ(c.normal, (Vec2d{1.0, 0.0}));
}

TEST(ExpandingBand, TangentSweepTouchesTheOuterBoundaryOnce) {
  // The line z = 2.5 is tangent to the outer boundary radius 2.5 at x = 0, t = 0.5; the
  // discriminant is exactly zero in these numbers.
  BandContact c = sentinel();
  ASSERT_EQ(sweepExpandingBand(band({0, 0}, 2.0, 0.0, 0.5), {{-5.0, 2.5}, {5.0, 2.5}}, c),
            BandSweepStatus::hit);
  EXPECT_EQ(c.fraction, 0.5);
  EXPECT_EQ(c.point, (Vec2d{0.0, 2.5}));
  EXPECT_EQ(c.normal, (Vec2d{0.0, 1.0}));
  // A hair further out misses.
  BandContact miss = sentinel();
  EXPECT_EQ(sweepExpandingBand(band({0, 0}, 2.0, 0.0, 0.5), {{-5.0, 2.5001}, {5.0, 2.5001}}, miss),
            BandSweepStatus::miss);
  expectUntouched(miss);
}

TEST(ExpandingBand, ExpandingRingReachesAStationaryBoat) {
  // Stationary sweep: d = 2; outer boundary 0.5 + 3t reaches it at t = 0.5.
  BandContact c = sentinel();
  ASSERT_EQ(sweepExpandingBand(band({0, 0}, 0.0, 3.0, 0.5), {{0.0, -2.0}, {0.0, -2.0}}, c),
            BandSweepStatus::hit);
  EXPECT_DOUBLE_EQ(c.fraction, 0.5);
  EXPECT_EQ(c.point, (Vec2d{0.0, -2.0}));
  EXPECT_EQ(c.normal, (Vec2d{0.0, -1.0}));
}

TEST(ExpandingBand, StationarySweepOfAStaticRingIsAMissOrAStartContact) {
  BandContact c = sentinel();
  EXPECT_EQ(sweepExpandingBand(band({1, 1}, 2.0, 0.0, 0.25), {{5.0, 1.0}, {5.0, 1.0}}, c),
            BandSweepStatus::miss);
  expectUntouched(c);
  ASSERT_EQ(sweepExpandingBand(band({1, 1}, 2.0, 0.0, 0.25), {{3.1, 1.0}, {3.1, 1.0}}, c),
            BandSweepStatus::hit);
  EXPECT_EQ(c.fraction, 0.0);
}

TEST(ExpandingBand, ShrinkingRingReachesABoatInsideItsHole) {
  // Boat still at d = 1 inside a ring of radius 3 shrinking by 2 across the sweep:
  // inner boundary 2.5 - 2t = 1 at t = 0.75.
  BandContact c = sentinel();
  ASSERT_EQ(sweepExpandingBand(band({0, 0}, 3.0, -2.0, 0.5), {{0.0, 1.0}, {0.0, 1.0}}, c),
            BandSweepStatus::hit);
  EXPECT_DOUBLE_EQ(c.fraction, 0.75);
  EXPECT_EQ(c.normal, (Vec2d{0.0, 1.0}));
  // The same ring moves away from a boat outside it.
  BandContact away = sentinel();
  EXPECT_EQ(sweepExpandingBand(band({0, 0}, 3.0, -2.0, 0.5), {{0.0, 4.0}, {0.0, 4.0}}, away),
            BandSweepStatus::miss);
  expectUntouched(away);
}

TEST(ExpandingBand, RootsOnNegativeSignedRadiiAreRejected) {
  // A thin ring (w = 0) of radius 1 shrinking by 4 collapses past zero. Squaring
  // |p - o| = 1 - 4t gives 2 = -(1 - 4t) at t = 0.75, where the signed radius is -2: spurious.
  // The ring never reaches the boat at distance 2.
  BandContact c = sentinel();
  EXPECT_EQ(sweepExpandingBand(band({0, 0}, 1.0, -4.0, 0.0), {{2.0, 0.0}, {2.0, 0.0}}, c),
            BandSweepStatus::miss);
  expectUntouched(c);
}

TEST(ExpandingBand, CoincidentCentreHasAZeroNormal) {
  BandContact c = sentinel();
  ASSERT_EQ(sweepExpandingBand(band({3, 4}, 0.0, 1.0, 0.5), {{3.0, 4.0}, {3.0, 4.0}}, c),
            BandSweepStatus::hit);
  EXPECT_EQ(c.fraction, 0.0);
  EXPECT_EQ(c.normal, (Vec2d{0.0, 0.0}));
  // Passing through the centre later: the inner-boundary root of a zero-radius band.
  ASSERT_EQ(sweepExpandingBand(band({0, 0}, 0.0, 0.0, 0.0), {{-1.0, 0.0}, {1.0, 0.0}}, c),
            BandSweepStatus::hit);
  EXPECT_EQ(c.fraction, 0.5);
  EXPECT_EQ(c.normal, (Vec2d{0.0, 0.0}));
}

TEST(ExpandingBand, InvalidAndNonFiniteInputsAreRefusedAndLeaveTheOutputAlone) {
  const ExpandingBand good = band({0, 0}, 1.0, 1.0, 0.5);
  const LinearSweep move{{3.0, 0.0}, {0.0, 0.0}};
  const auto refused = [](const ExpandingBand& b, const LinearSweep& s) {
    BandContact c = sentinel();
    EXPECT_EQ(sweepExpandingBand(b, s, c), BandSweepStatus::invalidInput);
    expectUntouched(c);
  };
  ExpandingBand b = good;
  b.centre.x = kNaN;
  refused(b, move);
  b = good;
  b.startRadius = -0.1;
  refused(b, move);
  b = good;
  b.startRadius = kInf;
  refused(b, move);
  b = good;
  b.growth = -kInf;
  refused(b, move);
  b = good;
  b.halfWidth = -1e-12;
  refused(b, move);
  b = good;
  b.halfWidth = kNaN;
  refused(b, move);
  refused(good, {{kNaN, 0.0}, {0.0, 0.0}});
  refused(good, {{0.0, 0.0}, {0.0, kInf}});
}

TEST(ExpandingBand, CoordinatesNearTheDoubleRangeDoNotOverflow) {
  // |p0 - o| = 3 * 2^1023 is beyond DBL_MAX, yet the scaled solve finds the closed-form
  // contact: the ring grows from 1.5 * 2^1023 by as much and reaches the still boat at t = 1.
  const double h = std::ldexp(1.5, 1023);
  BandContact c = sentinel();
  ASSERT_EQ(sweepExpandingBand(band({-h, 0.0}, h, h, 0.0), {{h, 0.0}, {h, 0.0}}, c),
            BandSweepStatus::hit);
  EXPECT_EQ(c.fraction, 1.0);
  EXPECT_EQ(c.point, (Vec2d{h, 0.0}));
  EXPECT_EQ(c.normal, (Vec2d{1.0, 0.0}));
  // Power-of-two scaling is exact: a case scaled by 2^1000 gives the very same fraction.
  const double s = std::ldexp(1.0, 1000);
  BandContact small = sentinel(), large = sentinel();
  ASSERT_EQ(sweepExpandingBand(band({0.3, -0.2}, 1.0, 0.7, 0.35), {{5.0, 1.0}, {0.5, 0.25}}, small),
            BandSweepStatus::hit);
  ASSERT_EQ(sweepExpandingBand(band({0.3 * s, -0.2 * s}, 1.0 * s, 0.7 * s, 0.35 * s),
                               {{5.0 * s, 1.0 * s}, {0.5 * s, 0.25 * s}}, large),
            BandSweepStatus::hit);
  EXPECT_EQ(small.fraction, large.fraction);
  EXPECT_EQ(small.point.x * s, large.point.x);
  EXPECT_EQ(small.normal, large.normal);
}

// Dense sampling cross-check: the kernel's t must be in the band (to rounding) and no earlier
// sample may be in the band; a miss must have no sample in the band.
TEST(ExpandingBand, AgreesWithDenseSamplingOnRandomCases) {
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<double> coord(-4.0, 4.0), radius(0.0, 3.0), growth(-3.0, 3.0),
      width(0.0, 0.8);
  const int samples = 4000;
  int hits = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const ExpandingBand b = band({coord(rng), coord(rng)}, radius(rng), growth(rng), width(rng));
    const LinearSweep s{{coord(rng), coord(rng)}, {coord(rng), coord(rng)}};
    const auto gap = [&](double t) {  // |d - R| - w: <= 0 inside the band.
      const Vec2d p = s.start + (s.end - s.start) * t;
      return std::fabs(length(p - b.centre) - (b.startRadius + t * b.growth)) - b.halfWidth;
    };
    BandContact c = sentinel();
    const BandSweepStatus status = sweepExpandingBand(b, s, c);
    ASSERT_TRUE(status == BandSweepStatus::hit || status == BandSweepStatus::miss);
    double firstSample = 2.0;
    for (int i = 0; i <= samples; ++i) {
      const double t = static_cast<double>(i) / samples;
      if (gap(t) <= 0.0) {
        firstSample = t;
        break;
      }
    }
    if (status == BandSweepStatus::miss) {
      EXPECT_EQ(firstSample, 2.0) << "trial " << trial;
      continue;
    }
    ++hits;
    EXPECT_LE(gap(c.fraction), 1e-9) << "trial " << trial;
    EXPECT_LE(c.fraction, firstSample + 1e-12) << "trial " << trial;
    // (A graze shorter than the sampling step leaves firstSample unset; gap() checked it.)
    if (firstSample <= 1.0) {
      EXPECT_GE(c.fraction, firstSample - 1.0 / samples - 1e-12) << "trial " << trial;
    }
    if (length(c.point - b.centre) > 0.0) {
      EXPECT_NEAR(length(c.normal), 1.0, 1e-12);
    }
  }
  EXPECT_GT(hits, 50);  // The cases exercise both outcomes.
  EXPECT_LT(hits, 390);
}

}  // namespace
}  // namespace floptle::drift
