// The capsule character against dynamic bodies: it pushes them (an inelastic impact that
// conserves momentum) and stands on them (its weight rests on the body, and through it on
// the ground).
#include <gtest/gtest.h>

#include "play_test_world.h"

namespace floptle::physics {
namespace {

using namespace testing;

constexpr float kG = 9.81f;

CharacterDesc walker(Vec3 feet, float mass) {
  CharacterDesc d;
  d.name = "player";
  d.radius = 0.3f;
  d.height = 1.8f;
  d.speed = 5.0f;
  d.mass = mass;
  d.position = feet + Vec3(0.0f, 0.5f * d.height, 0.0f);
  return d;
}

TEST(PlayCharacterBodies, WalkingIntoABallConservesMomentumThenPushesItAlong) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.0f, 0.0f});  // ice: nothing but the push moves the ball
  Simulation sim = tw.simulation({});
  RigidBodyDesc ball;
  ball.name = "ball";
  ball.shape = BodyShape::sphere(0.5f);
  ball.mass = 20.0f;
  ball.friction = 0.0f;
  ball.position = Vec3(2.0f, 0.5f, 0.0f);
  const std::uint32_t id = sim.addBody(ball).index;
  const float mChar = 80.0f, speed = 5.0f;
  sim.addCharacter(walker(Vec3(0.0f), mChar));
  sim.characterInput(0).move = Vec2(1.0f, 0.0f);
  int firstPush = -1;
  for (int i = 0; i < 60 && firstPush < 0; ++i) {
    sim.step();
    if (sim.bodies().state(id).linearVelocity.x > 0.0f) firstPush = i;
  }
  ASSERT_GE(firstPush, 0) << "the character never reached the ball";
  // One impact through the ball's centre: m v = (m + M) v', v' = 80 x 5 / 100 = 4 m/s.
  EXPECT_NEAR(sim.bodies().state(id).linearVelocity.x, mChar * speed / (mChar + ball.mass),
              0.02f * speed);
  // Walking on, the character keeps pushing: the ball ends up at its walking speed, just
  // ahead of it (the capsule's side against the ball).
  for (int i = 0; i < 60; ++i) sim.step();
  const BodyState& s = sim.bodies().state(id);
  EXPECT_NEAR(s.linearVelocity.x, speed, 0.05f * speed);
  const float gap = s.position.x - sim.characters()[0].state().position.x;
  EXPECT_NEAR(gap, 0.5f + 0.3f, 0.03f);
  EXPECT_NEAR(s.position.z, 0.0f, 1e-3f);
}

TEST(PlayCharacterBodies, StandsOnACrateWhichCarriesItsWeight) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.8f, 0.0f});
  Simulation sim = tw.simulation({});
  RigidBodyDesc crate;
  crate.name = "crate";
  crate.shape = BodyShape::box(Vec3(0.5f));
  crate.mass = 50.0f;
  crate.friction = 0.8f;
  crate.position = Vec3(0.0f, 0.5f, 0.0f);
  const std::uint32_t id = sim.addBody(crate).index;
  const float mChar = 80.0f;
  sim.addCharacter(walker(Vec3(0.0f, 1.0f, 0.0f), mChar));
  for (int i = 0; i < 120; ++i) sim.step();
  const CharacterState& c = sim.characters()[0].state();
  ASSERT_TRUE(c.grounded);
  ASSERT_TRUE(sim.world().valid(c.groundCollider));
  EXPECT_EQ(sim.world().nodeName(c.groundCollider), "crate");
  // Feet on the crate's top (the crate sinks into the ground by at most the solver's slop).
  const float top = sim.bodies().state(id).position.y + 0.5f;
  EXPECT_NEAR(c.position.y - 0.9f, top, 0.01f);
  EXPECT_NEAR(top, 1.0f, sim.bodies().settings().penetrationSlop + 0.005f);
  // The ground holds crate and character: the crate's ground impulses over one step add
  // up to (m_crate + m_char) g dt.
  float impulse = 0.0f;
  for (const Contact& k : sim.bodies().contacts())
    if (k.bodyA == id && k.bodyB < 0) impulse += k.normalImpulse;
  const float dt = float(sim.settings().fixedDt);
  EXPECT_NEAR(impulse, (crate.mass + mChar) * kG * dt, 0.03f * (crate.mass + mChar) * kG * dt);
}

TEST(PlayCharacterBodies, RidesASlidingCrate) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.0f, 0.0f});  // ice: the crate slides on at its speed
  Simulation sim = tw.simulation({});
  RigidBodyDesc crate;
  crate.name = "crate";
  crate.shape = BodyShape::box(Vec3(1.0f, 0.5f, 1.0f));
  crate.mass = 200.0f;
  crate.friction = 0.0f;
  crate.position = Vec3(0.0f, 0.5f, 0.0f);
  crate.linearVelocity = Vec3(2.0f, 0.0f, 0.0f);
  const std::uint32_t id = sim.addBody(crate).index;
  sim.addCharacter(walker(Vec3(0.0f, 1.0f, 0.0f), 80.0f));
  for (int i = 0; i < 10; ++i) sim.step();
  const float offset = sim.characters()[0].state().position.x - sim.bodies().state(id).position.x;
  for (int i = 0; i < 60; ++i) sim.step();
  const BodyState& b = sim.bodies().state(id);
  const CharacterState& c = sim.characters()[0].state();
  EXPECT_NEAR(b.linearVelocity.x, 2.0f, 0.02f);  // nothing on ice slows it
  EXPECT_TRUE(c.grounded);
  // Carried: where it stood on the crate, 2 m further on.
  EXPECT_NEAR(c.position.x - b.position.x, offset, 0.02f);
  EXPECT_NEAR(b.position.x, 2.0f * 70.0f / 60.0f, 0.05f);
}

}  // namespace
}  // namespace floptle::physics
