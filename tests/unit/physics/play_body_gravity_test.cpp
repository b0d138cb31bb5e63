// Gravity per body, not per world: each character and rigid body obeys its own vector from the
// simulation's GravitySampler, and the character's move frame is carried along as its up turns.
#include <gtest/gtest.h>

#include <cmath>

#include "play_test_world.h"

namespace floptle::physics {
namespace {

using namespace testing;

/// Pulls towards `centre` with a constant magnitude g (m/s^2): a planet.
struct RadialGravity final : GravitySampler {
  Vec3 centre{0.0f};
  float g = 9.81f;
  Vec3 sample(Vec3 p, double) const override {
    const Vec3 d = p - centre;
    const float len = glm::length(d);
    return len > 1e-6f ? -g * d / len : Vec3(0.0f);
  }
};

CharacterDesc walker(Vec3 centre) {
  CharacterDesc d;
  d.name = "player";
  d.radius = 0.3f;
  d.height = 1.8f;
  d.speed = 4.0f;
  d.position = centre;
  return d;
}

RigidBodyDesc ball(std::string name, Vec3 at) {
  RigidBodyDesc b;
  b.name = std::move(name);
  b.shape = BodyShape::sphere(0.25f);
  b.position = at;
  return b;
}

TEST(BodyGravity, EachBodyFallsAlongItsOwnVector) {
  TestWorld tw;
  Simulation sim = tw.simulation({});
  auto planet = std::make_shared<RadialGravity>();
  sim.setGravitySampler(planet);
  const Vec3 starts[] = {Vec3(10, 0, 0), Vec3(0, -10, 0), Vec3(0, 0, 7)};
  for (int i = 0; i < 3; ++i) sim.addBody(ball("ball" + std::to_string(i), starts[i]));
  sim.step();
  const float dt = float(sim.settings().fixedDt);
  for (std::uint32_t i = 0; i < 3; ++i) {
    const Vec3 g = -9.81f * glm::normalize(starts[i]);
    EXPECT_LT(glm::length(sim.bodyGravity(i) - g), 1e-5f) << i;
    // Semi-implicit Euler from rest: v = g dt after one step.
    EXPECT_LT(glm::length(sim.bodies().state(i).linearVelocity - g * dt), 1e-5f) << i;
  }
}

TEST(BodyGravity, UnderTheDefaultGravityTheMoveFrameIsTheWorldsXAndZ) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.8f, 0.0f});
  Simulation sim = tw.simulation({});
  sim.addCharacter(walker(Vec3(0, 0.9f, 0)));
  const CharacterController& c = sim.characters()[0];
  EXPECT_EQ(c.state().up, Vec3(0, 1, 0));
  EXPECT_EQ(c.moveDirection(Vec2(1, 0)), Vec3(1, 0, 0));
  EXPECT_EQ(c.moveDirection(Vec2(0, 1)), Vec3(0, 0, 1));
  const Quat q = c.orientation();
  EXPECT_EQ(q.w, 1.0f);
  sim.characterInput(0).move = Vec2(0.6f, -0.8f);
  for (int i = 0; i < 60; ++i) sim.step();
  const Vec3 p = sim.characters()[0].state().position;
  EXPECT_NEAR(p.x, 0.6f * 4.0f, 0.05f);
  EXPECT_NEAR(p.z, -0.8f * 4.0f, 0.05f);
}

TEST(BodyGravity, AWallIsAFloorWhenGravityPointsIntoIt) {
  // Gravity along -X onto the plane x = 0: the character stands on it, up is +X, and the move
  // frame is the default one turned by the quarter turn from +Y to +X (about -Z).
  TestWorld tw;
  tw.add(plane(Vec3(1, 0, 0)), {0.8f, 0.0f});
  SimulationSettings settings;
  settings.gravity = Vec3(-9.81f, 0, 0);
  Simulation sim = tw.simulation(settings);
  sim.addCharacter(walker(Vec3(0.9f, 0, 0)));
  sim.characterInput(0).move = Vec2(0, 1);
  for (int i = 0; i < 60; ++i) sim.step();
  const CharacterState& s = sim.characters()[0].state();
  EXPECT_TRUE(s.grounded);
  EXPECT_LT(glm::length(s.up - Vec3(1, 0, 0)), 1e-6f);
  EXPECT_LT(glm::length(s.forward - Vec3(0, 0, 1)), 1e-6f);
  EXPECT_NEAR(s.position.x, 0.9f, 0.02f);
  EXPECT_NEAR(s.position.z, 4.0f, 0.05f);  // 1 s at 4 m/s along forward
  EXPECT_NEAR(s.position.y, 0.0f, 1e-3f);
  // Sideways input walks along side = up x forward = -Y.
  EXPECT_LT(glm::length(sim.characters()[0].moveDirection(Vec2(1, 0)) - Vec3(0, -1, 0)), 1e-6f);
}

TEST(BodyGravity, TheMoveFrameIsCarriedAlongAGreatCircleAndComesBack) {
  // Up turning round a great circle through the forward direction: forward stays tangent to
  // the circle (it turns with up), and after a whole turn the frame is the one it started with.
  CharacterController c(walker(Vec3(0.0f)));
  const int steps = 720;
  for (int i = 1; i <= steps; ++i) {
    const float a = 2.0f * kPi * float(i) / float(steps);
    const Vec3 up(0.0f, std::cos(a), std::sin(a));
    c.orient(-9.81f * up);
    const Vec3 tangent(0.0f, -std::sin(a), std::cos(a));
    ASSERT_LT(glm::length(c.state().forward - tangent), 1e-4f) << "step " << i;
    ASSERT_NEAR(glm::dot(c.state().forward, c.state().up), 0.0f, 1e-6f);
  }
  EXPECT_LT(glm::length(c.state().up - Vec3(0, 1, 0)), 1e-5f);
  EXPECT_LT(glm::length(c.state().forward - Vec3(0, 0, 1)), 1e-4f);
}

/// -Y before t = 0.5 s, -X from then on.
struct SwitchingGravity final : GravitySampler {
  Vec3 sample(Vec3, double t) const override {
    return t < 0.5 ? Vec3(0, -9.81f, 0) : Vec3(-9.81f, 0, 0);
  }
};

TEST(BodyGravity, UpEasesTowardsTheNewGravityAtTheAlignRate) {
  // Airborne in empty space, so only the orientation is at stake: after the switch the angle
  // left to turn is pi/2 exp(-rate (t - t_switch)), sampled once a tick.
  TestWorld tw;
  Simulation sim = tw.simulation({});
  sim.setGravitySampler(std::make_shared<SwitchingGravity>());
  CharacterDesc d = walker(Vec3(0, 100, 0));
  d.alignRate = 4.0f;
  sim.addCharacter(d);
  while (sim.time() < 0.5 - 1e-9) sim.step();
  EXPECT_EQ(sim.characters()[0].state().up, Vec3(0, 1, 0));
  const float dt = float(sim.settings().fixedDt);
  for (int n = 1; n <= 60; ++n) {
    sim.step();
    const Vec3 up = sim.characters()[0].state().up;
    const float left = std::acos(std::clamp(glm::dot(up, Vec3(1, 0, 0)), -1.0f, 1.0f));
    ASSERT_NEAR(left, 0.5f * kPi * std::exp(-4.0f * dt * float(n)), 2e-3f) << "tick " << n;
    ASSERT_NEAR(glm::dot(sim.characters()[0].state().forward, up), 0.0f, 1e-5f);
  }
}

/// SwitchingGravity eased at 5 /s.
struct EasedSwitchingGravity final : GravitySampler {
  Vec3 sample(Vec3 p, double t) const override { return SwitchingGravity{}.sample(p, t); }
  float easingRate() const override { return 5.0f; }
};

TEST(BodyGravity, AnEasedFieldMovesEachBodysGravityByTheEmaOfItsSamples) {
  TestWorld tw;
  Simulation sim = tw.simulation({});
  sim.setGravitySampler(std::make_shared<EasedSwitchingGravity>());
  sim.addBody(ball("probe", Vec3(0, 100, 0)));
  while (sim.time() < 0.5 - 1e-9) sim.step();
  EXPECT_EQ(sim.bodyGravity(0), Vec3(0, -9.81f, 0));
  const float keep = std::exp(-5.0f * float(sim.settings().fixedDt));
  Vec3 expected(0, -9.81f, 0);
  for (int n = 1; n <= 30; ++n) {
    sim.step();
    expected = Vec3(-9.81f, 0, 0) + (expected - Vec3(-9.81f, 0, 0)) * keep;
    ASSERT_LT(glm::length(sim.bodyGravity(0) - expected), 1e-4f) << "tick " << n;
  }
}

TEST(BodyGravity, WhereGravityIsZeroTheCharacterKeepsItsLastUp) {
  CharacterController c(walker(Vec3(0.0f)));
  c.orient(Vec3(0, 0, 9.81f));  // up -Z
  c.orient(Vec3(0.0f));
  EXPECT_LT(glm::length(c.state().up - Vec3(0, 0, -1)), 1e-6f);
}

TEST(BodyGravity, WalksAllTheWayRoundAPlanetGrounded) {
  // A ball planet of radius 20 m under radial gravity: holding "forward" walks a great circle
  // (2 pi 20 m = 125.7 m at 4 m/s: 31.4 s), grounded the whole way.
  TestWorld tw;
  field::FieldNode sphere = field::makeDefaultNode(field::NodeType::Sphere);
  setParam(sphere, "radius", {20.0f});
  tw.add(sphere, Transform{}, {0.8f, 0.0f}, "planet");
  Simulation sim = tw.simulation({});
  sim.setGravitySampler(std::make_shared<RadialGravity>());
  sim.addCharacter(walker(Vec3(0, 20.9f, 0)));
  sim.characterInput(0).move = Vec2(0, 1);
  float travelled = 0.0f;
  Vec3 last = sim.characters()[0].state().position;
  int airborne = 0;
  while (travelled < 2.0f * kPi * 20.9f) {
    sim.step();
    const CharacterState& s = sim.characters()[0].state();
    airborne += s.grounded ? 0 : 1;
    ASSERT_NEAR(glm::length(s.position), 20.9f, 0.05f) << "tick " << sim.tick();
    // It stays on the great circle x = 0 that its forward started along.
    ASSERT_NEAR(s.position.x, 0.0f, 0.05f) << "tick " << sim.tick();
    travelled += glm::length(s.position - last);
    last = s.position;
    ASSERT_LT(sim.tick(), 3000u);
  }
  EXPECT_EQ(airborne, 0);
  EXPECT_LT(glm::length(last - Vec3(0, 20.9f, 0)), 0.5f);
}

TEST(BodyGravity, GravityAndOrientationAreInTheStateAndItsHash) {
  TestWorld tw;
  Simulation sim = tw.simulation({});
  auto planet = std::make_shared<RadialGravity>();
  sim.setGravitySampler(planet);
  sim.addBody(ball("ball", Vec3(5, 0, 0)));
  sim.addCharacter(walker(Vec3(0, 5, 0)));
  for (int i = 0; i < 10; ++i) sim.step();
  const SimulationState saved = sim.save();
  const std::uint64_t hash = sim.stateHash();
  for (int i = 0; i < 10; ++i) sim.step();
  const std::uint64_t later = sim.stateHash();
  sim.restore(saved);
  EXPECT_EQ(sim.stateHash(), hash);
  for (int i = 0; i < 10; ++i) sim.step();
  EXPECT_EQ(sim.stateHash(), later);
  // The hash sees the orientation: the same positions with another up differ.
  sim.restore(saved);
  sim.characters()[0].state().up = Vec3(1, 0, 0);
  EXPECT_NE(sim.stateHash(), hash);
}

}  // namespace
}  // namespace floptle::physics
