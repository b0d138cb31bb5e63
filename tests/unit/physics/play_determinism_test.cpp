// Determinism: lockstep, frame-rate independence, save / restore, input parsing.
#include <gtest/gtest.h>

#include "play_test_world.h"

namespace floptle::physics {
namespace {

using namespace testing;

/// A busy little scene: a ramp, a ledge, a character walking and jumping, a pile of bodies.
Simulation busyScene() {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.7f, 0.1f});
  tw.add(box(Vec3(4, 0.15f, 0), Vec3(1, 0.15f, 3)), {0.7f, 0.0f}, false, "ledge");
  Simulation sim = tw.simulation({});
  CharacterDesc c;
  c.name = "player";
  c.position = Vec3(0, 0.9f, 0);
  sim.addCharacter(c);
  for (int i = 0; i < 6; ++i) {
    RigidBodyDesc b;
    b.name = "body" + std::to_string(i);
    b.shape = i % 2 ? BodyShape::box(Vec3(0.3f)) : BodyShape::sphere(0.3f);
    b.position = Vec3(-2.0f + 0.1f * float(i), 1.0f + 0.7f * float(i), 0.05f * float(i));
    b.restitution = 0.3f;
    sim.addBody(b);
  }
  InputEvent walk;
  walk.tick = 5;
  walk.node = "player";
  walk.move = Vec2(1, 0);
  InputEvent jump;
  jump.tick = 30;
  jump.node = "player";
  jump.jump = true;
  sim.setInputEvents({walk, jump});
  return sim;
}

TEST(PlayDeterminism, LockstepSimulationsAgreeEveryStep) {
  Simulation a = busyScene(), b = busyScene();
  for (int i = 0; i < 240; ++i) {
    a.step();
    b.step();
    ASSERT_EQ(a.stateHash(), b.stateHash()) << "diverged at tick " << a.tick();
  }
  EXPECT_NE(a.stateHash(), busyScene().stateHash());
}

TEST(PlayDeterminism, SameStateAtAnyFrameRate) {
  Simulation fixed = busyScene();
  for (int i = 0; i < 120; ++i) fixed.step();
  for (double frame : {1.0 / 30.0, 1.0 / 144.0, 0.013}) {
    Simulation real = busyScene();
    while (real.tick() < 120) {
      // Never overshoot tick 120: shorter last frame.
      const double left = double(120 - real.tick()) * real.settings().fixedDt;
      real.advance(std::min(frame, left + 1e-9));
    }
    ASSERT_EQ(real.tick(), 120u);
    EXPECT_EQ(real.stateHash(), fixed.stateHash()) << "frame " << frame;
  }
}

TEST(PlayDeterminism, SaveRestoreReplaysBitForBit) {
  Simulation sim = busyScene();
  for (int i = 0; i < 20; ++i) sim.step();
  const SimulationState saved = sim.save();
  const std::uint64_t savedHash = sim.stateHash();
  for (int i = 0; i < 100; ++i) sim.step();
  const std::uint64_t after = sim.stateHash();
  sim.restore(saved);
  EXPECT_EQ(sim.stateHash(), savedHash);
  for (int i = 0; i < 100; ++i) sim.step();
  EXPECT_EQ(sim.stateHash(), after);
}

TEST(PlayDeterminism, InputEventsParseAndBadOnesNameWhere) {
  auto ok = parseInputEvents(nlohmann::json::parse(
      R"([{"tick": 3, "node": "player", "move": [0.6, 0.8], "jump": true},
          {"tick": 5, "node": "car", "throttle": 1, "brake": 0, "steer": -0.5}])"));
  ASSERT_TRUE(ok.ok()) << ok.error().message();
  ASSERT_EQ(ok->size(), 2u);
  EXPECT_TRUE((*ok)[0].jump);
  EXPECT_FLOAT_EQ((*ok)[1].steer.value(), -0.5f);
  auto bad =
      parseInputEvents(nlohmann::json::parse(R"([{"tick": 1, "node": "p", "move": [3, 0]}])"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "/0/move");
  auto badThrottle =
      parseInputEvents(nlohmann::json::parse(R"([{"tick": 1, "node": "c", "throttle": 2}])"));
  ASSERT_FALSE(badThrottle.ok());
  EXPECT_EQ(badThrottle.error().where, "/0/throttle");
}

TEST(PlayDeterminism, ResultJsonNamesEveryDynamicNode) {
  Simulation sim = busyScene();
  for (int i = 0; i < 10; ++i) sim.step();
  const auto j = sim.resultJson();
  EXPECT_EQ(j["tick"], 10);
  EXPECT_EQ(j["hash"].get<std::string>(), Simulation::hashHex(sim.stateHash()));
  EXPECT_TRUE(j["nodes"].contains("player"));
  EXPECT_TRUE(j["nodes"]["player"].contains("grounded"));
  EXPECT_EQ(j["nodes"]["body3"]["rotation"].size(), 4u);
}

}  // namespace
}  // namespace floptle::physics
