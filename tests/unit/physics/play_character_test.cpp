// The capsule character (seed 000, "Kinematic character controller", "Feet"): ramps, the
// slope limit, the step offset, morphing ground, jumping, wall sliding.
#include <gtest/gtest.h>

#include <cmath>

#include "play_test_world.h"

namespace floptle::physics {
namespace {

using namespace testing;

constexpr float kG = 9.81f;

CharacterDesc capsule(Vec3 feet) {
  CharacterDesc d;
  d.name = "player";
  d.radius = 0.3f;
  d.height = 1.8f;
  d.speed = 5.0f;
  d.jumpSpeed = 5.0f;
  d.stepHeight = 0.35f;
  d.position = feet + Vec3(0.0f, 0.5f * d.height, 0.0f);
  return d;
}

/// Height of the character's feet: the bottom of its capsule straight below the centre (m).
float feetY(const Simulation& sim) {
  const CharacterController& c = sim.characters()[0];
  return c.state().position.y - 0.5f * c.desc().height;
}

TEST(PlayCharacter, WalksUpA30DegreeRampGrounded) {
  TestWorld tw;
  const float theta = degrees(30.0f);
  tw.add(plane(Vec3(-std::sin(theta), std::cos(theta), 0.0f)), {0.8f, 0.0f});
  Simulation sim = tw.simulation({});
  sim.addCharacter(capsule(Vec3(0.0f)));
  sim.characterInput(0).move = Vec2(1.0f, 0.0f);
  for (int i = 0; i < 60; ++i) {
    sim.step();
    const CharacterState& s = sim.characters()[0].state();
    ASSERT_TRUE(s.grounded) << "tick " << i;
    EXPECT_GT(glm::dot(s.groundNormal, Vec3(-std::sin(theta), std::cos(theta), 0.0f)), 0.999f);
  }
  const CharacterState& s = sim.characters()[0].state();
  // Walking speed along the surface: 5 m/s for 1 s, horizontal 5 cos 30.
  EXPECT_NEAR(s.position.x, 5.0f * std::cos(theta), 0.1f);
  // The feet stand on the ramp (no hover, no sinking).
  EXPECT_NEAR(feetY(sim), s.position.x * std::tan(theta), 0.01f);
}

TEST(PlayCharacter, WalksDownA30DegreeRampGroundedWithoutHopping) {
  TestWorld tw;
  const float theta = degrees(30.0f);
  const Vec3 n(-std::sin(theta), std::cos(theta), 0.0f);  // rises towards +x
  tw.add(plane(n), {0.8f, 0.0f});
  Simulation sim = tw.simulation({});
  sim.addCharacter(capsule(Vec3(0.0f)));
  sim.characterInput(0).move = Vec2(-1.0f, 0.0f);  // downhill
  for (int i = 0; i < 60; ++i) {
    sim.step();
    const CharacterState& s = sim.characters()[0].state();
    ASSERT_TRUE(s.grounded) << "tick " << i;
    // Feet on the ramp every tick: the floor pulls it down, it never hops off.
    ASSERT_NEAR(feetY(sim), s.position.x * std::tan(theta), 0.01f) << "tick " << i;
  }
  EXPECT_NEAR(sim.characters()[0].state().position.x, -5.0f * std::cos(theta), 0.1f);
}

TEST(PlayCharacter, SlidesOffA70DegreeSlope) {
  TestWorld tw;
  const float theta = degrees(70.0f);
  const Vec3 n = slopeNormal(theta);
  tw.add(plane(n), {1.0f, 0.0f});
  Simulation sim = tw.simulation({});
  CharacterDesc d = capsule(Vec3(0.0f));
  d.position = n * (d.radius + 0.001f) + Vec3(0.0f, d.halfSegment(), 0.0f);
  sim.addCharacter(d);
  for (int i = 0; i < 60; ++i) sim.step();
  const CharacterState& s = sim.characters()[0].state();
  EXPECT_FALSE(s.grounded);
  ASSERT_TRUE(s.touchingWall);
  EXPECT_GT(glm::dot(s.wallNormal, n), 0.99f);
  // It slid down the slope: most of free sliding, g sin(70) t^2 / 2 along it.
  const float along = glm::dot(s.position - d.position, downSlope(theta));
  EXPECT_GT(along, 0.8f * 0.5f * kG * std::sin(theta));
}

float stepRun(float stepHeightOfLedge, float& finalX) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.8f, 0.0f});
  // Face at x = 1; the ledge runs to x = 11, beyond the 7.5 m that 90 ticks at 5 m/s cover
  // (a 4 m ledge was walked off its far end by a correct climb).
  tw.add(
      box(Vec3(6.0f, 0.5f * stepHeightOfLedge, 0.0f), Vec3(5.0f, 0.5f * stepHeightOfLedge, 5.0f)),
      {0.8f, 0.0f}, false, "ledge");
  Simulation sim = tw.simulation({});
  sim.addCharacter(capsule(Vec3(0.0f)));
  sim.characterInput(0).move = Vec2(1.0f, 0.0f);
  for (int i = 0; i < 90; ++i) sim.step();
  finalX = sim.characters()[0].state().position.x;
  EXPECT_TRUE(sim.characters()[0].state().grounded);
  return feetY(sim);
}

TEST(PlayCharacter, ClimbsA30cmStepWithStepHeight35cm) {
  float x = 0.0f;
  const float feet = stepRun(0.3f, x);
  EXPECT_NEAR(feet, 0.3f, 0.01f);
  EXPECT_GT(x, 4.0f);
}

TEST(PlayCharacter, ClimbsTheStepAtAStroll) {
  // At 1 m/s a tick's motion lands the rounded bottom on the rim too steeply to stand;
  // the step offset then tries one radius forward, which puts the foot over the ledge.
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.8f, 0.0f});
  tw.add(box(Vec3(6.0f, 0.15f, 0.0f), Vec3(5.0f, 0.15f, 5.0f)), {0.8f, 0.0f}, false, "ledge");
  Simulation sim = tw.simulation({});
  CharacterDesc d = capsule(Vec3(0.0f));
  d.speed = 1.0f;
  sim.addCharacter(d);
  sim.characterInput(0).move = Vec2(1.0f, 0.0f);
  for (int i = 0; i < 180; ++i) sim.step();
  const CharacterState& s = sim.characters()[0].state();
  EXPECT_TRUE(s.grounded);
  EXPECT_NEAR(feetY(sim), 0.3f, 0.01f);
  EXPECT_GT(s.position.x, 1.0f + 0.3f);
}

TEST(PlayCharacter, IsStoppedByA50cmStep) {
  float x = 0.0f;
  const float feet = stepRun(0.5f, x);
  EXPECT_NEAR(feet, 0.0f, 0.01f);
  EXPECT_LT(x, 1.0f - 0.3f + 0.01f);  // the capsule's side against the face at x = 1
  EXPECT_GT(x, 1.0f - 0.3f - 0.05f);
}

TEST(PlayCharacter, RisesWithARisingMorphWithin1cm) {
  TestWorld tw;
  auto ground = std::make_unique<PlaneShape>();
  ground->amplitude = 0.5f;  // 0.5 sin(pi t): rises at up to 1.6 m/s, then falls
  ground->frequency = 0.5f;
  const PlaneShape* surfaceShape = ground.get();
  tw.add(std::move(ground), {0.8f, 0.0f}, true);
  Simulation sim = tw.simulation({});
  sim.addCharacter(capsule(Vec3(0.0f)));
  for (int i = 0; i < 180; ++i) {
    sim.step();
    const float surface = surfaceShape->offset(sim.time());
    ASSERT_TRUE(sim.characters()[0].state().grounded) << "lifted off at tick " << i;
    ASSERT_NEAR(feetY(sim), surface, 0.01f) << "tick " << i;
  }
}

TEST(PlayCharacter, JumpReachesVSquaredOver2g) {
  for (double hz : {60.0, 120.0}) {
    TestWorld tw;
    tw.add(plane(Vec3(0, 1, 0)), {0.8f, 0.0f});
    SimulationSettings s;
    s.fixedDt = 1.0 / hz;
    Simulation sim = tw.simulation(s);
    sim.addCharacter(capsule(Vec3(0.0f)));
    sim.step();
    const float start = sim.characters()[0].state().position.y;
    sim.characterInput(0).jump = true;
    float apex = start;
    bool landed = false;
    for (int i = 0; i < int(2 * hz); ++i) {
      sim.step();
      apex = std::max(apex, sim.characters()[0].state().position.y);
      if (i > 2 && sim.characters()[0].state().grounded) landed = true;
    }
    EXPECT_NEAR(apex - start, 25.0f / (2.0f * kG), 0.01f * 25.0f / (2.0f * kG)) << hz;
    EXPECT_TRUE(landed);
    EXPECT_NEAR(sim.characters()[0].state().position.y, start, 0.01f);
  }
}

TEST(PlayCharacter, SlidesAlongAWallWithoutSticking) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.8f, 0.0f});
  tw.add(plane(Vec3(1, 0, 0), Vec3(-0.5f, 0.0f, 0.0f)), {0.8f, 0.0f}, false, "wall");
  Simulation sim = tw.simulation({});
  sim.addCharacter(capsule(Vec3(0.0f)));
  const float k = std::sqrt(0.5f);
  sim.characterInput(0).move = Vec2(-k, k);  // diagonally into the wall
  for (int i = 0; i < 60; ++i) sim.step();
  const CharacterState& s = sim.characters()[0].state();
  // The along-wall part of the walk is kept whole: 5 / sqrt 2 m/s for 1 s (less the first
  // fraction of a metre spent reaching the wall).
  EXPECT_NEAR(s.position.z, 5.0f * k, 0.05f * 5.0f * k);
  EXPECT_NEAR(s.position.x, -0.5f + 0.3f, 0.01f);
  EXPECT_TRUE(s.grounded);
}

TEST(PlayCharacter, InputsAreTickAddressedAndJumpIsConsumedOnce) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.8f, 0.0f});
  Simulation sim = tw.simulation({});
  sim.addCharacter(capsule(Vec3(0.0f)));
  InputEvent walk;
  walk.tick = 10;
  walk.node = "player";
  walk.move = Vec2(0.0f, 1.0f);
  InputEvent stop = walk;
  stop.tick = 40;
  stop.move = Vec2(0.0f);
  sim.setInputEvents({stop, walk});
  for (int i = 0; i < 60; ++i) sim.step();
  // Walked 30 ticks at 5 m/s.
  EXPECT_NEAR(sim.characters()[0].state().position.z, 30.0f / 60.0f * 5.0f, 1e-3f);
  EXPECT_FALSE(sim.characterInput(0).jump);
}

}  // namespace
}  // namespace floptle::physics
