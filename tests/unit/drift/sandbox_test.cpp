// The Drift sandbox (seed 003): once-only push, expiry and lifetime clipping, cooldown and
// capacity, contact order, speed cap, pause/hide/retry, invalid tuning, frame timing and
// presentation-rate invariance.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "floptle/drift/sandbox.h"

namespace floptle::drift {
namespace {

constexpr double kDt = kTickSeconds;

// Still water, no drag: the boat only moves when a ripple pushes it.
Tuning stillWater() {
  Tuning t;
  t.dragRate = 0.0;
  t.boatRadius = 0.5;
  t.rippleStartRadius = 0.0;
  t.rippleGrowth = 4.0;
  t.rippleHalfWidth = 0.35;  // Contact band half-width 0.85 m.
  t.rippleLifetime = 2.5;
  t.rippleImpulse = 3.0;
  t.rippleAttenuation = 0.5;
  t.placementCooldown = 0.25;
  return t;
}

std::unique_ptr<Sandbox> makeSandbox(const Tuning& tuning, BoatStart start = {}) {
  auto sandbox = std::make_unique<Sandbox>();
  const TuningIssue issue = sandbox->restart(tuning, start);
  EXPECT_TRUE(issue.ok()) << issue.field << ": " << issue.problem;
  return sandbox;
}

std::vector<Event> eventsOf(const Sandbox& s, EventKind kind) {
  std::vector<Event> out;
  for (int i = 0; i < s.trace().size(); ++i) {
    if (s.trace()[i].kind == kind) out.push_back(s.trace()[i]);
  }
  return out;
}

TEST(DriftSandbox, ARipplePushesTheBoatOnceRadiallyWithAttenuation) {
  auto s = makeSandbox(stillWater());
  ASSERT_TRUE(s->queuePlacement({-1.0, 0.0}));
  // Band edge 0.85 + 4 age reaches d = 1 at age 0.0375 s = 2.25 ticks: tick 2, fraction 0.25.
  for (int i = 0; i < 3; ++i) s->tick();
  ASSERT_EQ(s->counters().contacts, 1u);
  const std::vector<Event> contacts = eventsOf(*s, EventKind::contact);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].tick, 2u);
  EXPECT_EQ(contacts[0].ripple, 1u);
  EXPECT_NEAR(contacts[0].fraction, 0.25, 1e-12);
  EXPECT_EQ(contacts[0].normal, (Vec2d{1.0, 0.0}));
  const double impulse = 3.0 * std::exp(-0.5 * 0.0375);
  EXPECT_NEAR(contacts[0].impulse, impulse, 1e-12);
  // Impulses act at tick end: the position has not moved yet, the velocity has.
  EXPECT_EQ(s->boat().position, (Vec2d{0.0, 0.0}));
  EXPECT_NEAR(s->boat().velocity.x, impulse, 1e-12);
  EXPECT_EQ(s->boat().velocity.z, 0.0);

  // The band keeps overlapping the hull for many ticks; it never pushes again.
  const Vec2d velocity = s->boat().velocity;
  for (int i = 3; i < 150; ++i) s->tick();
  EXPECT_EQ(s->counters().contacts, 1u);
  EXPECT_EQ(s->boat().velocity, velocity);
  EXPECT_NEAR(s->boat().position.x, velocity.x * 147 * kDt, 1e-12);
}

TEST(DriftSandbox, RipplesExpireAtTheEndOfTheirLifetime) {
  auto s = makeSandbox(stillWater());           // 2.5 s = 150 ticks.
  ASSERT_TRUE(s->queuePlacement({40.0, 0.0}));  // Far away: no contact.
  for (int i = 0; i < 149; ++i) s->tick();
  EXPECT_EQ(s->rippleCount(), 1);
  s->tick();  // Tick 149 ends at age 150 ticks.
  EXPECT_EQ(s->rippleCount(), 0);
  const std::vector<Event> expiries = eventsOf(*s, EventKind::expiry);
  ASSERT_EQ(expiries.size(), 1u);
  EXPECT_EQ(expiries[0].tick, 149u);
  EXPECT_EQ(expiries[0].ripple, 1u);
}

TEST(DriftSandbox, TheSweepIsClippedToTheRipplesRemainingLifetime) {
  // Boat at d = 2.9: the band (0.85 + 4 age) reaches it at age 30.75 ticks.
  for (const auto& [lifetimeTicks, expectContact] : {std::pair{30.5, false}, {31.0, true}}) {
    Tuning t = stillWater();
    t.rippleLifetime = lifetimeTicks * kDt;
    auto s = makeSandbox(t);
    ASSERT_TRUE(s->queuePlacement({2.9, 0.0}));
    for (int i = 0; i < 32; ++i) s->tick();
    EXPECT_EQ(s->counters().contacts, expectContact ? 1u : 0u) << lifetimeTicks;
    EXPECT_EQ(s->rippleCount(), 0);
    if (expectContact) {
      const std::vector<Event> contacts = eventsOf(*s, EventKind::contact);
      ASSERT_EQ(contacts.size(), 1u);
      EXPECT_EQ(contacts[0].tick, 30u);
      EXPECT_NEAR(contacts[0].fraction, 0.75, 1e-9);
    }
    const std::vector<Event> expiries = eventsOf(*s, EventKind::expiry);
    ASSERT_EQ(expiries.size(), 1u);
    EXPECT_EQ(expiries[0].tick, 30u);
  }
}

TEST(DriftSandbox, CooldownAndCapacityRefusePlacements) {
  auto s = makeSandbox(stillWater());  // 0.25 s cooldown = 15 ticks.
  ASSERT_TRUE(s->schedulePlacement(0, {30.0, 0.0}));
  ASSERT_TRUE(s->schedulePlacement(5, {31.0, 0.0}));
  ASSERT_TRUE(s->schedulePlacement(15, {32.0, 0.0}));
  for (int i = 0; i < 16; ++i) s->tick();
  EXPECT_EQ(s->counters().placements, 2u);
  EXPECT_EQ(s->counters().rejectedPlacements, 1u);
  const std::vector<Event> rejected = eventsOf(*s, EventKind::rejectedPlacement);
  ASSERT_EQ(rejected.size(), 1u);
  EXPECT_EQ(rejected[0].tick, 5u);
  EXPECT_EQ(rejected[0].reason, RejectReason::cooldown);
  EXPECT_EQ(s->ripple(1).id, 2u);
  EXPECT_EQ(s->ripple(1).bornTick, 15u);

  Tuning t = stillWater();
  t.placementCooldown = 0.0;
  auto full = makeSandbox(t);
  for (int i = 0; i <= kMaxRipples; ++i) ASSERT_TRUE(full->queuePlacement({50.0 + i, 0.0}));
  full->tick();
  EXPECT_EQ(full->rippleCount(), kMaxRipples);
  EXPECT_EQ(full->counters().placements, static_cast<std::uint64_t>(kMaxRipples));
  const std::vector<Event> refused = eventsOf(*full, EventKind::rejectedPlacement);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].reason, RejectReason::capacity);
}

TEST(DriftSandbox, ContactsApplyInOrderOfFractionThenRippleId) {
  Tuning t = stillWater();
  t.placementCooldown = 0.0;
  auto s = makeSandbox(t);
  // Ripple 1 reaches the boat at age 17.75 ticks, ripple 2 at 17.25: both in tick 17.
  ASSERT_TRUE(s->queuePlacement({-(0.85 + 4.0 * 17.75 * kDt), 0.0}));
  ASSERT_TRUE(s->queuePlacement({0.0, -(0.85 + 4.0 * 17.25 * kDt)}));
  for (int i = 0; i < 18; ++i) s->tick();
  std::vector<Event> contacts = eventsOf(*s, EventKind::contact);
  ASSERT_EQ(contacts.size(), 2u);
  EXPECT_EQ(contacts[0].ripple, 2u);
  EXPECT_EQ(contacts[1].ripple, 1u);
  EXPECT_EQ(contacts[0].tick, 17u);
  EXPECT_EQ(contacts[1].tick, 17u);
  EXPECT_LT(contacts[0].fraction, contacts[1].fraction);

  // Equal fractions: id order; symmetric pushes cancel exactly.
  auto tie = makeSandbox(t);
  ASSERT_TRUE(tie->queuePlacement({-2.0, 0.0}));
  ASSERT_TRUE(tie->queuePlacement({2.0, 0.0}));
  for (int i = 0; i < 20; ++i) tie->tick();
  contacts = eventsOf(*tie, EventKind::contact);
  ASSERT_EQ(contacts.size(), 2u);
  EXPECT_EQ(contacts[0].ripple, 1u);
  EXPECT_EQ(contacts[1].ripple, 2u);
  EXPECT_EQ(contacts[0].fraction, contacts[1].fraction);
  EXPECT_EQ(tie->boat().velocity, (Vec2d{0.0, 0.0}));
}

TEST(DriftSandbox, ARippleOnTheBoatCentreGivesNoImpulse) {
  auto s = makeSandbox(stillWater(), {{1.0, 2.0}, {}});
  ASSERT_TRUE(s->queuePlacement({1.0, 2.0}));
  s->tick();
  const std::vector<Event> contacts = eventsOf(*s, EventKind::contact);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].fraction, 0.0);
  EXPECT_EQ(contacts[0].normal, (Vec2d{0.0, 0.0}));
  EXPECT_EQ(contacts[0].impulse, 0.0);
  EXPECT_EQ(s->boat().velocity, (Vec2d{0.0, 0.0}));
}

TEST(DriftSandbox, TheSpeedCapHoldsAfterImpulses) {
  Tuning t = stillWater();
  t.rippleImpulse = 100.0;
  t.rippleAttenuation = 0.0;
  auto s = makeSandbox(t);
  ASSERT_TRUE(s->queuePlacement({0.0, 1.2}));
  for (int i = 0; i < 10; ++i) s->tick();
  ASSERT_EQ(s->counters().contacts, 1u);
  EXPECT_NEAR(length(s->boat().velocity), 7.0, 1e-12);
  EXPECT_NEAR(s->boat().velocity.z, -7.0, 1e-12);
}

TEST(DriftSandbox, DragTowardTheCurrentFollowsTheClosedForm) {
  Tuning t = stillWater();
  t.dragRate = 0.7;
  t.waterVelocity = {0.3, -0.2};
  auto s = makeSandbox(t, {{1.0, 1.0}, {4.0, 2.0}});
  for (int i = 0; i < 120; ++i) s->tick();
  const double time = 2.0, e = std::exp(-0.7 * time);
  EXPECT_NEAR(s->boat().velocity.x, 0.3 + 3.7 * e, 1e-12);
  EXPECT_NEAR(s->boat().velocity.z, -0.2 + 2.2 * e, 1e-12);
  EXPECT_NEAR(s->boat().position.x, 1.0 + 0.3 * time + 3.7 * (1.0 - e) / 0.7, 1e-12);
  EXPECT_NEAR(s->boat().position.z, 1.0 - 0.2 * time + 2.2 * (1.0 - e) / 0.7, 1e-12);
  EXPECT_NEAR(s->boat().heading, std::atan2(s->boat().velocity.x, s->boat().velocity.z), 1e-15);
}

TEST(DriftSandbox, InvalidTuningIsRefusedByNameAndTheOldTuningStays) {
  auto s = makeSandbox(stillWater());
  const auto refused = [&](Tuning t, const char* field) {
    const TuningIssue issue = s->setTuning(t);
    ASSERT_FALSE(issue.ok());
    EXPECT_STREQ(issue.field, field);
    EXPECT_NE(issue.problem, nullptr);
    EXPECT_EQ(s->tuning().dragRate, 0.0);  // Still the installed stillWater() tuning.
    EXPECT_EQ(s->tuning().boatRadius, 0.5);
  };
  Tuning t = stillWater();
  t.dragRate = -0.1;
  refused(t, "drag_rate");
  t = stillWater();
  t.boatRadius = std::nan("");
  refused(t, "boat_radius");
  t = stillWater();
  t.boatRadius = 0.0;
  refused(t, "boat_radius");
  t = stillWater();
  t.waterVelocity.z = INFINITY;
  refused(t, "water_velocity");
  t = stillWater();
  t.speedCap = 0.0;
  refused(t, "speed_cap");
  t = stillWater();
  t.rippleLifetime = -1.0;
  refused(t, "ripple_lifetime");
  t = stillWater();
  t.rippleHalfWidth = -0.01;
  refused(t, "ripple_half_width");
  t = stillWater();
  t.placementCooldown = 1e300;
  refused(t, "placement_cooldown");
  t = stillWater();
  t.rippleGrowth = -1.0;  // 0 + (-1)(2.5) < 0: a relation, checked as a whole.
  refused(t, "ripple_growth");
  // A whole valid change is installed.
  t = stillWater();
  t.dragRate = 1.5;
  EXPECT_TRUE(s->setTuning(t).ok());
  EXPECT_EQ(s->tuning().dragRate, 1.5);
  // restart refuses a bad start state and keeps everything.
  EXPECT_STREQ(s->restart(t, {{NAN, 0.0}, {}}).field, "boat_position");
}

TEST(DriftSandbox, InputEdgesSurviveZeroTickFramesAndAreConsumedOnce) {
  auto s = makeSandbox(stillWater());
  ASSERT_TRUE(s->queuePlacement({20.0, 0.0}));
  EXPECT_EQ(s->advanceFrame(0.004), 0);  // 144 Hz-ish frame: no tick yet.
  EXPECT_EQ(s->queuedPlacements(), 1);
  EXPECT_EQ(s->counters().placements, 0u);
  EXPECT_EQ(s->advanceFrame(0.004), 0);
  EXPECT_EQ(s->advanceFrame(0.01), 1);
  EXPECT_EQ(s->queuedPlacements(), 0);
  EXPECT_EQ(s->counters().placements, 1u);
  for (int i = 0; i < 40; ++i) s->advanceFrame(kDt);
  EXPECT_EQ(s->counters().placements, 1u);
  EXPECT_EQ(s->counters().rejectedPlacements, 0u);
}

TEST(DriftSandbox, LongFramesAreClampedAndWholeTicksDiscarded) {
  auto s = makeSandbox(stillWater());
  EXPECT_EQ(s->advanceFrame(0.5), 4);  // Clamped to 0.1 s = 6 ticks: 4 run, 2 discarded.
  EXPECT_EQ(s->counters().discardedTicks, 2u);
  EXPECT_EQ(s->counters().ticks, 4u);
  EXPECT_EQ(s->tickIndex(), 4u);
  EXPECT_NEAR(s->clock().debt(), 0.0, 1e-12);
  EXPECT_EQ(s->advanceFrame(1.5 * kDt), 1);  // Fractional debt is kept: half a tick.
  EXPECT_NEAR(s->clock().alpha(), 0.5, 1e-9);
}

TEST(DriftSandbox, PauseHideAndRetryClearCommandsDebtAndInterpolation) {
  Tuning t = stillWater();
  auto s = makeSandbox(t, {{0.0, 0.0}, {6.0, 0.0}});
  EXPECT_EQ(s->advanceFrame(1.5 * kDt), 1);
  Snapshot view = s->snapshot();
  EXPECT_NEAR(view.alpha, 0.5f, 1e-6f);
  EXPECT_NEAR(view.boatX, 0.05f, 1e-6f);  // Halfway between x = 0 and x = 0.1.

  ASSERT_TRUE(s->queuePlacement({10.0, 0.0}));
  s->setPaused(true);
  EXPECT_EQ(s->queuedPlacements(), 0);
  EXPECT_EQ(s->clock().debt(), 0.0);
  view = s->snapshot();
  EXPECT_EQ(view.alpha, 0.0f);
  EXPECT_EQ(view.boatX, static_cast<float>(s->boat().position.x));
  EXPECT_FALSE(s->queuePlacement({10.0, 0.0}));
  EXPECT_EQ(s->advanceFrame(0.05), 0);
  EXPECT_EQ(s->tickIndex(), 1u);
  s->setPaused(false);
  EXPECT_EQ(s->advanceFrame(kDt), 1);
  EXPECT_EQ(s->counters().placements, 0u);  // The click before the pause was dropped.

  ASSERT_TRUE(s->queuePlacement({10.0, 0.0}));
  s->setHidden(true);
  EXPECT_EQ(s->queuedPlacements(), 0);
  EXPECT_EQ(s->advanceFrame(0.05), 0);
  s->setHidden(false);
  EXPECT_EQ(s->advanceFrame(kDt), 1);
  EXPECT_EQ(s->counters().placements, 0u);

  // Retry: back to the authored start, tick 0, no ripples, fresh ids.
  ASSERT_TRUE(s->queuePlacement({3.0, 0.0}));
  for (int i = 0; i < 30; ++i) s->tick();
  ASSERT_EQ(s->rippleCount(), 1);
  ASSERT_TRUE(s->queuePlacement({3.0, 0.0}));
  s->retry();
  EXPECT_EQ(s->tickIndex(), 0u);
  EXPECT_EQ(s->rippleCount(), 0);
  EXPECT_EQ(s->queuedPlacements(), 0);
  EXPECT_EQ(s->boat().position, (Vec2d{0.0, 0.0}));
  EXPECT_EQ(s->boat().velocity, (Vec2d{6.0, 0.0}));
  EXPECT_EQ(s->clock().debt(), 0.0);
  EXPECT_EQ(s->snapshot().alpha, 0.0f);
  EXPECT_EQ(eventsOf(*s, EventKind::retry).size(), 1u);

  // A retried run replays like a fresh one.
  auto fresh = makeSandbox(t, {{0.0, 0.0}, {6.0, 0.0}});
  for (Sandbox* run : {s.get(), fresh.get()}) {
    ASSERT_TRUE(run->schedulePlacement(4, {2.0, 1.0}));
    for (int i = 0; i < 60; ++i) run->tick();
  }
  EXPECT_EQ(s->stateHash(), fresh->stateHash());
  EXPECT_EQ(s->boat().position, fresh->boat().position);
  EXPECT_EQ(s->ripple(0).id, 1u);
}

TEST(DriftSandbox, SameInputsAt30_60And144FpsGiveTheSameStateAtTheSameTick) {
  Tuning t;
  t.waterVelocity = {0.3, 0.1};  // Default drag 0.7 /s, cap 7 m/s.
  const BoatStart start{{0.5, -0.25}, {1.0, 0.5}};
  const auto schedule = [](Sandbox& s) {
    ASSERT_TRUE(s.schedulePlacement(3, {-0.6, 0.2}));
    ASSERT_TRUE(s.schedulePlacement(40, {1.8, -0.5}));
    ASSERT_TRUE(s.schedulePlacement(41, {0.0, 2.0}));  // Refused: cooldown.
    ASSERT_TRUE(s.schedulePlacement(90, {0.9, 1.9}));
  };
  constexpr std::uint64_t kTicks = 180;
  auto reference = makeSandbox(t, start);
  schedule(*reference);
  for (std::uint64_t i = 0; i < kTicks; ++i) reference->tick();
  ASSERT_GE(reference->counters().contacts, 2u);  // The run exercises pushes.
  EXPECT_EQ(reference->counters().rejectedPlacements, 1u);

  for (double fps : {30.0, 60.0, 144.0}) {
    auto s = makeSandbox(t, start);
    schedule(*s);
    int frames = 0;
    while (s->tickIndex() < kTicks && frames < 10000) {
      s->advanceFrame(1.0 / fps);
      ++frames;
    }
    ASSERT_EQ(s->tickIndex(), kTicks) << fps;
    EXPECT_EQ(s->stateHash(), reference->stateHash()) << fps;
    EXPECT_EQ(s->boat().position, reference->boat().position) << fps;
    EXPECT_EQ(s->boat().velocity, reference->boat().velocity) << fps;
    EXPECT_EQ(s->counters().contacts, reference->counters().contacts) << fps;
    EXPECT_EQ(s->counters().discardedTicks, 0u) << fps;
  }
}

TEST(DriftSandbox, SnapshotListsLiveRipplesWithTheirPhysicalBand) {
  auto s = makeSandbox(stillWater());
  ASSERT_TRUE(s->queuePlacement({5.0, 0.0}));
  for (int i = 0; i < 30; ++i) s->tick();
  const Snapshot view = s->snapshot();
  ASSERT_EQ(view.rippleCount, 1);
  EXPECT_EQ(view.ripples[0].id, 1u);
  EXPECT_FLOAT_EQ(view.ripples[0].centreX, 5.0f);
  // No frame clock ran: alpha = 0 shows the start of the last tick (age 29 ticks).
  EXPECT_FLOAT_EQ(view.ripples[0].radius, static_cast<float>(4.0 * 29.0 / 60.0));
  EXPECT_FLOAT_EQ(view.ripples[0].halfWidth, 0.35f);
  EXPECT_FLOAT_EQ(view.boatRadius, 0.5f);
}

}  // namespace
}  // namespace floptle::drift
