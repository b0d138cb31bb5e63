// The matter stage (soft_body_stage.h): bodies collide with each other, a resting body sleeps
// and another body's contact wakes it, the per-step caps on particles solved and bonds created
// hold (with their counters), and two sticky blobs bond, stretch and snap exactly past
// break_strain when pulled apart.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "floptle/matter/soft_body_stage.h"
#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

constexpr float kDt = 1.0f / 60.0f;
const Vec3 kGravity(0.0f, -9.81f, 0.0f);

SoftBodyKnobs knobs(std::int64_t particles) {
  SoftBodyKnobs k;
  k.particles = particles;
  k.substeps = 8;
  k.damping = 5.0f;
  return k;
}

void run(SoftBodyStage& stage, const physics::CollisionWorld& world, Vec3 g, int& tick, int steps) {
  for (int i = 0; i < steps; ++i, ++tick)
    stage.stepBodies(
        world, [g](Vec3) { return g; }, double(tick + 1) * kDt, kDt);
}

float lowest(const SoftBody& b) {
  float y = 1e9f;
  for (Vec3 p : b.state().position) y = std::min(y, p.y);
  return y;
}
float highest(const SoftBody& b) {
  float y = -1e9f;
  for (Vec3 p : b.state().position) y = std::max(y, p.y);
  return y;
}

TEST(SoftBodyStageSleep, ARestingBodySleepsAndAnotherBodysContactWakesIt) {
  const physics::CollisionWorld world = test::floorWorld();
  SoftBodyStage stage;
  stage.add(test::softCube(Vec3(0, 0.5f, 0), 0.5f, knobs(125)));
  int tick = 0;
  run(stage, world, kGravity, tick, 300);
  ASSERT_TRUE(stage.bodies()[0].state().asleep) << "never fell asleep";
  EXPECT_EQ(stage.counts().sleepingBodies, 1u);
  const std::vector<Vec3> still = stage.bodies()[0].state().position;
  run(stage, world, kGravity, tick, 5);
  EXPECT_EQ(stage.bodies()[0].state().position, still);  // asleep: untouched
  // A second cube dropped onto it from 0.3 m above its top.
  stage.add(test::softCube(Vec3(0, highest(stage.bodies()[0]) + 0.3f + 0.5f, 0), 0.4f, knobs(125)));
  bool woke = false;
  float gap = 1e9f;
  for (int i = 0; i < 120; ++i) {
    run(stage, world, kGravity, tick, 1);
    woke = woke || !stage.bodies()[0].state().asleep;
    gap = std::min(gap, lowest(stage.bodies()[1]) - highest(stage.bodies()[0]));
  }
  EXPECT_TRUE(woke) << "the landing cube never woke the one below";
  // Each particle is a sphere of radius h/2: the cubes' particle layers stay about one
  // particle spacing apart (never through each other).
  const float spacing = 0.5f * (stage.bodies()[0].spacing() + stage.bodies()[1].spacing());
  EXPECT_GT(gap, 0.3f * spacing);
  EXPECT_LT(lowest(stage.bodies()[1]) - highest(stage.bodies()[0]), 1.05f * spacing);
  EXPECT_NEAR(stage.bodies()[1].centroid().x, 0.0f, 0.05f);  // resting on it, not slid off
}

TEST(SoftBodyStageBudget, TheParticleCapDefersBodiesInTurnAndEveryBodyAdvances) {
  const physics::CollisionWorld empty;
  SoftBodyStage stage;
  for (int k = 0; k < 3; ++k) stage.add(test::softCube(Vec3(3.0f * k, 0, 0), 0.5f, knobs(125)));
  const std::uint64_t perBody = 125u * 8u;
  stage.setBudget({2 * perBody, 64});  // two bodies of three a step
  int tick = 0;
  std::vector<int> moved(3, 0);
  for (int i = 0; i < 6; ++i) {
    std::vector<Vec3> before;
    for (const SoftBody& b : stage.bodies()) before.push_back(b.centroid());
    run(stage, empty, kGravity, tick, 1);
    EXPECT_EQ(stage.counters().bodiesDeferred, 1u);
    EXPECT_EQ(stage.counters().particlesSolved, 2 * perBody);
    for (int k = 0; k < 3; ++k) moved[k] += stage.bodies()[k].centroid() != before[k] ? 1 : 0;
  }
  EXPECT_EQ(moved, std::vector<int>({4, 4, 4}));  // 12 body steps shared evenly
  stage.setBudget({0, 64});                       // no cap
  run(stage, empty, kGravity, tick, 1);
  EXPECT_EQ(stage.counters().bodiesDeferred, 0u);
  EXPECT_EQ(stage.counters().particlesSolved, 3 * perBody);
}

ViscoKnobs sticky(float breakStrain, float stickiness = 0.5f) {
  ViscoKnobs v;
  v.stickiness = stickiness;
  v.breakStrain = breakStrain;
  v.yieldStrain = 100.0f;  // elastic until it snaps
  v.contactBand = 0.05f;
  return v;
}

TEST(SoftBodyStageBudget, TheBondCapLimitsNewBondsAStep) {
  // A sticky cube resting on the floor: its whole bottom layer (25 particles) is within the
  // band at once.
  const physics::CollisionWorld world = test::floorWorld();
  const ViscoKnobs v = sticky(1.0f);
  for (int cap : {3, 64}) {
    SoftBodyStage stage;
    stage.add(test::softCube(Vec3(0, 0.5f, 0), 0.5f, knobs(125), &v));
    stage.setBudget({0, cap});
    int tick = 0;
    run(stage, world, kGravity, tick, 1);
    const SoftBody& b = stage.bodies()[0];
    EXPECT_EQ(b.counters().bondsCreated, std::uint64_t(std::min(cap, 25))) << cap;
    EXPECT_EQ(b.state().anchorParticle.size(), std::size_t(std::min(cap, 25))) << cap;
  }
}

TEST(SoftBodyStageBonds, TwoStickyBlobsStickAndTheBondsSnapExactlyPastBreakStrain) {
  const physics::CollisionWorld empty;
  const float breakStrain = 0.5f;
  const ViscoKnobs v = sticky(breakStrain, 0.01f);  // soft bonds: about 1,500 N/m
  SoftBodyStage stage;
  // Two cubes of 0.5 m, their facing particle layers one spacing (0.1 m) apart: touching.
  stage.add(test::softCube(Vec3(-0.25f, 0, 0), 0.25f, knobs(125), &v));
  stage.add(test::softCube(Vec3(0.25f, 0, 0), 0.25f, knobs(125), &v));
  int tick = 0;
  run(stage, empty, Vec3(0), tick, 2);
  const std::size_t formed = stage.bodyBonds().size();
  EXPECT_EQ(formed, 25u);  // each facing particle of the left cube to its neighbour
  // Pull them apart: each is accelerated away from the other at 20 m/s^2 (a body force, like
  // a gravity pointing away from x = 0).
  std::uint64_t broken = 0;
  float maxStrain = 0.0f;
  for (int i = 0; i < 240 && !stage.bodyBonds().empty(); ++i, ++tick) {
    stage.stepBodies(
        empty, [](Vec3 c) { return Vec3(c.x < 0.0f ? -20.0f : 20.0f, 0, 0); },
        double(tick + 1) * kDt, kDt);
    broken += stage.counters().bodyBondsBroken;
    // No bond holds past break_strain; the ones that hold are all stretched within it.
    for (const BodyBond& bond : stage.bodyBonds()) {
      const float len = glm::length(stage.bodies()[bond.bodyA].state().position[bond.particleA] -
                                    stage.bodies()[bond.bodyB].state().position[bond.particleB]);
      const float strain = (len - bond.formed) / bond.formed;
      ASSERT_LE(strain, breakStrain) << i;
      maxStrain = std::max(maxStrain, strain);
    }
  }
  EXPECT_TRUE(stage.bodyBonds().empty()) << "never snapped";
  EXPECT_EQ(broken, formed);
  EXPECT_GT(maxStrain, 0.8f * breakStrain);  // they held, stretching, up to the snap
  // Two plain soft bodies in the same place form no bonds.
  SoftBodyStage plain;
  plain.add(test::softCube(Vec3(-0.25f, 0, 0), 0.25f, knobs(125)));
  plain.add(test::softCube(Vec3(0.25f, 0, 0), 0.25f, knobs(125)));
  run(plain, empty, Vec3(0), tick, 2);
  EXPECT_TRUE(plain.bodyBonds().empty());
}

}  // namespace
}  // namespace floptle::matter
