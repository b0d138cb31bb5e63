// FixedStepClock: each timing rule of seed 003 "Timing and numerical model".
#include "floptle/core/fixed_step_clock.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace floptle {
namespace {

constexpr double kDt = 1.0 / 60.0;

TEST(FixedStepClock, OneFrameOfOneStepRunsOneTick) {
  FixedStepClock clock;
  EXPECT_EQ(clock.advance(kDt), 1);
  EXPECT_NEAR(clock.alpha(), 0.0, 1e-9);
}

TEST(FixedStepClock, FractionalDebtIsKeptAcrossFrames) {
  FixedStepClock clock;
  EXPECT_EQ(clock.advance(0.4 * kDt), 0);
  EXPECT_NEAR(clock.alpha(), 0.4, 1e-9);
  EXPECT_EQ(clock.advance(0.4 * kDt), 0);
  EXPECT_NEAR(clock.alpha(), 0.8, 1e-9);
  EXPECT_EQ(clock.advance(0.4 * kDt), 1);  // 1.2 steps owed: one tick, 0.2 carried
  EXPECT_NEAR(clock.alpha(), 0.2, 1e-9);
  EXPECT_NEAR(clock.debt(), 0.2 * kDt, 1e-12);
}

TEST(FixedStepClock, FrameDeltaIsClampedTo100ms) {
  FixedStepClock::Settings s;
  s.maxTicksPerFrame = 100;  // isolate the clamp from the tick cap
  FixedStepClock clock(s);
  // 5 s of frame time counts as 0.1 s = 6 ticks at 60 Hz; nothing is discarded by the cap.
  EXPECT_EQ(clock.advance(5.0), 6);
  EXPECT_EQ(clock.discardedTicks(), 0u);
}

TEST(FixedStepClock, AtMostFourTicksPerFrameAndTheRestWholeTicksAreDiscardedAndCounted) {
  FixedStepClock clock;
  // 0.1 s = 6 whole ticks + 0 fraction: 4 run, 2 discarded.
  EXPECT_EQ(clock.advance(0.1), 4);
  EXPECT_EQ(clock.discardedTicks(), 2u);
  EXPECT_EQ(clock.ticksIssued(), 4u);
  // 5.5 ticks (under the clamp): 4 run, 1 discarded, the half tick kept as debt.
  FixedStepClock c2;
  EXPECT_EQ(c2.advance(5.5 * kDt), 4);
  EXPECT_EQ(c2.discardedTicks(), 1u);
  EXPECT_NEAR(c2.alpha(), 0.5, 1e-9);
}

TEST(FixedStepClock, TickCapIsConfigurable) {
  FixedStepClock::Settings s;
  s.maxTicksPerFrame = 2;
  FixedStepClock clock(s);
  EXPECT_EQ(clock.advance(5.0 * kDt), 2);
  EXPECT_EQ(clock.discardedTicks(), 3u);
}

TEST(FixedStepClock, PauseClearsDebtAndRunsNothingUntilResumed) {
  FixedStepClock clock;
  clock.advance(0.7 * kDt);
  clock.pause();
  EXPECT_TRUE(clock.paused());
  EXPECT_EQ(clock.alpha(), 0.0);
  EXPECT_EQ(clock.advance(0.05), 0);
  EXPECT_EQ(clock.alpha(), 0.0);
  clock.resume();
  EXPECT_EQ(clock.advance(0.5 * kDt), 0);  // the old 0.7 is gone
  EXPECT_NEAR(clock.alpha(), 0.5, 1e-9);
}

TEST(FixedStepClock, ResetClearsDebtAndInterpolation) {
  FixedStepClock clock;
  clock.advance(0.9 * kDt);
  clock.reset();
  EXPECT_EQ(clock.alpha(), 0.0);
  EXPECT_EQ(clock.advance(0.5 * kDt), 0);
}

TEST(FixedStepClock, NegativeAndNonFiniteDeltasCountAsZero) {
  FixedStepClock clock;
  EXPECT_EQ(clock.advance(-1.0), 0);
  EXPECT_EQ(clock.advance(std::numeric_limits<double>::quiet_NaN()), 0);
  EXPECT_EQ(clock.advance(std::numeric_limits<double>::infinity()), 0);
  EXPECT_EQ(clock.alpha(), 0.0);
}

TEST(FixedStepClock, TicksOverOneSecondDoNotDependOnTheFrameRate) {
  for (double fps : {30.0, 60.0, 144.0}) {
    FixedStepClock clock;
    std::uint64_t ticks = 0;
    const int frames = static_cast<int>(std::lround(fps));
    for (int i = 0; i < frames; ++i) ticks += clock.advance(1.0 / fps);
    EXPECT_EQ(ticks, 60u) << fps << " fps";
  }
}

}  // namespace
}  // namespace floptle
