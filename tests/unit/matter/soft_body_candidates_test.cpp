// The step's world contact candidates (matter/src/soft_body_candidates.cpp): a body far from
// every collider's box asks the world nothing; one resting on the world asks only about the
// blocks of particles within reach of it, and every particle within reach still touches.
#include <algorithm>

#include <gtest/gtest.h>

#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

TEST(SoftBodyWorldContacts, ABodyFarFromEveryColliderBoxAsksTheWorldNothing) {
  SoftBodyKnobs knobs;
  knobs.particles = 64;
  physics::CollisionWorld world;
  world.add(
      physics::testing::placed(physics::testing::sphereNode(1.0f), physics::testing::pose(Vec3(0))),
      "ball");
  world.refit(0.0);
  const float dt = 1.0f / 60.0f;
  const Vec3 g(0.0f, -9.81f, 0.0f);
  // 3 m above the ball's box: a step reaches 2 r + |g| dt^2 + |v| dt, far less.
  SoftBody far = test::softCube(Vec3(0, 4.5f, 0), 0.5f, knobs);
  far.step(world, g, dt, dt);
  EXPECT_EQ(far.counters().distanceQueries, 0u);
  // Resting on the ball's top: the particles near it ask, the touching ones each substep.
  SoftBody near = test::softCube(Vec3(0, 1.45f, 0), 0.5f, knobs);
  near.step(world, g, dt, dt);
  EXPECT_GT(near.counters().distanceQueries, 0u);
  EXPECT_GT(near.counters().contacts, 0u);
}

TEST(SoftBodyWorldContacts, OnlyTheBlocksWithinReachOfTheWorldAskAboutTheirParticles) {
  // A column 2 m tall standing on the floor with its bottom layer of particles a little inside
  // it; one substep, so that the step's questions are the start's and the candidates' one.
  SoftBodyDesc desc;
  desc.knobs.particles = 500;
  desc.knobs.substeps = 1;
  SoftBody column = test::softBox(Vec3(0, 0.98f, 0), Vec3(0.25f, 1.0f, 0.25f), desc);
  const physics::CollisionWorld world = test::floorWorld();
  float bottom = column.state().position[0].y;
  for (Vec3 p : column.state().position) bottom = std::min(bottom, p.y);
  ASSERT_LT(bottom, column.radius());  // the bottom layer overlaps the floor
  std::size_t bottomLayer = 0;
  for (Vec3 p : column.state().position) bottomLayer += p.y == bottom ? 1 : 0;
  const float dt = 1.0f / 60.0f;
  column.step(world, Vec3(0.0f, -9.81f, 0.0f), dt, dt);
  // Every bottom particle touches (a block skipped wrongly would leave some out), and the
  // layers a reach (2 r + |g| dt^2) above the floor are asked about as blocks, not one by one:
  // far fewer questions than particles (asking each would be one per particle and then one per
  // candidate).
  EXPECT_EQ(column.counters().contacts, bottomLayer);
  EXPECT_LT(column.counters().distanceQueries, column.particleCount() / 2);
}

}  // namespace
}  // namespace floptle::matter
