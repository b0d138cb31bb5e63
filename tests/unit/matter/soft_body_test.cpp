// The SoftBody tier against closed forms: free fall on the integrator's sum, a cube resting
// on a floor keeps its volume and never sinks through, shape matching restores a squashed
// body, and the same steps give the same bits.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

constexpr float kDt = 1.0f / 60.0f;
const Vec3 kGravity(0.0f, -9.81f, 0.0f);

TEST(SoftBodyCage, ALatticeOfAboutTheAskedParticlesFillsTheShapeWithFiveTetsPerCube) {
  SoftBodyKnobs knobs;
  knobs.particles = 512;
  const SoftBody cube = test::softCube(Vec3(0), 0.5f, knobs);
  EXPECT_EQ(cube.particleCount(), 512u);  // 8 x 8 x 8 at h = 1/8
  EXPECT_NEAR(cube.spacing(), 0.125f, 1e-5f);
  EXPECT_EQ(cube.tetCount(), 5u * 7u * 7u * 7u);
  EXPECT_NEAR(cube.restVolume(), 1.0f, 1e-4f);
  EXPECT_NEAR(cube.tetRestVolume(), 0.875f * 0.875f * 0.875f, 1e-4f);
  EXPECT_NEAR(cube.mass(), 1000.0f, 0.1f);  // density 1000 x 1 m^3
  const SoftBody ball = test::softBall(Vec3(0), 1.0f, knobs);
  EXPECT_NEAR(float(ball.particleCount()), 512.0f, 0.15f * 512.0f);
  EXPECT_NEAR(ball.restVolume(), 4.18879f, 0.1f * 4.18879f);
}

TEST(SoftBodyFreeFall, TheCentroidFollowsTheSymplecticEulerSumOfGt2Over2) {
  SoftBodyKnobs knobs;
  knobs.stiffness = 0.3f;
  knobs.substeps = 10;
  SoftBody ball = test::softBall(Vec3(0, 100, 0), 0.5f, knobs);  // far from the origin
  const physics::CollisionWorld empty;
  const Vec3 start = ball.centroid();
  const int steps = 60;
  for (int i = 0; i < steps; ++i) ball.step(empty, kGravity, double(i + 1) * kDt, kDt);
  const double t = steps * kDt, h = kDt / 10.0, n = steps * 10.0;
  const double drop = start.y - ball.centroid().y;
  // y_n = g h^2 n (n + 1) / 2 = g t^2 / 2 + g t h / 2 (the integrator's stated error).
  EXPECT_NEAR(drop, 9.81 * h * h * n * (n + 1.0) / 2.0, 2e-3);
  EXPECT_NEAR(drop, 9.81 * t * t / 2.0, 9.81 * t * h / 2.0 + 2e-3);
  EXPECT_GT(std::fabs(drop - 9.81 * t * t / 2.0), 0.5 * 9.81 * t * h / 2.0);  // the bias is real
  EXPECT_NEAR(ball.centroid().x, start.x, 1e-4f);
}

TEST(SoftBodyOnAFloor, ACubeUnderGravityKeepsItsVolumeAndNeverSinksBelowTheFloor) {
  SoftBodyKnobs knobs;
  knobs.particles = 512;
  // Soft edges and no shape matching: the volume constraint alone holds the cube up (with
  // volume_preserve 0 it loses 8% of its volume here).
  knobs.stiffness = 0.05f;
  knobs.volumePreserve = 1.0f;
  knobs.shapeMatch = 0.0f;
  knobs.substeps = 10;
  SoftBody cube = test::softCube(Vec3(0, 0.8f, 0), 0.5f, knobs);
  const physics::CollisionWorld world = test::floorWorld();
  float lowest = 1e9f, worstVolume = 1.0f;
  for (int i = 0; i < 180; ++i) {
    cube.step(world, kGravity, double(i + 1) * kDt, kDt);
    for (Vec3 p : cube.state().position) lowest = std::min(lowest, p.y);
    const float kept = cube.volume() / cube.restVolume();
    if (std::fabs(kept - 1.0f) > std::fabs(worstVolume - 1.0f)) worstVolume = kept;
  }
  EXPECT_NEAR(worstVolume, 1.0f, 0.05f);
  EXPECT_GE(lowest, 0.0f) << "a particle centre went below the floor";
  // It landed and rests: the bottom layer sits one radius up, the centroid near half height.
  EXPECT_NEAR(cube.centroid().y, 0.5f, 0.05f);
}

TEST(SoftBodyShapeMatching, ASquashedBodyReturnsToItsRestShape) {
  SoftBodyKnobs knobs;
  knobs.particles = 343;
  knobs.stiffness = 0.2f;
  knobs.volumePreserve = 0.0f;
  knobs.shapeMatch = 0.5f;
  SoftBody cube = test::softCube(Vec3(0), 0.5f, knobs);
  const Vec3 c0 = cube.centroid();
  for (Vec3& p : cube.state().position) p = c0 + (p - c0) * Vec3(1.4f, 0.5f, 1.4f);
  // The rest shape up to a rigid motion: the best fit's rotation R (what shape matching
  // restores) and the centroid.
  const auto farFromRest = [&] {
    const Vec3 c = cube.centroid();
    const Mat3 r = glm::mat3_cast(cube.state().rotation);
    float worst = 0.0f;
    for (std::size_t i = 0; i < cube.particleCount(); ++i)
      worst = std::max(
          worst, glm::length((cube.state().position[i] - c) - r * (cube.restPositions()[i] - c0)));
    return worst;
  };
  EXPECT_GT(farFromRest(), 0.15f);
  const physics::CollisionWorld empty;
  for (int i = 0; i < 120; ++i) cube.step(empty, Vec3(0), double(i + 1) * kDt, kDt);
  EXPECT_LT(farFromRest(), 1e-3f);  // 0.1% of the cube's size
  // (Not asserted: how far it turned. The sweep order spins a strongly squashed body by a few
  // tenths of a radian while it recovers; see matter/soft_body.h.)
}

TEST(SoftBodyDeterminism, TheSameStepsGiveTheSameBitsAndARestoredStateReplaysThem) {
  SoftBodyKnobs knobs;
  knobs.particles = 200;
  const physics::CollisionWorld world = test::floorWorld();
  SoftBody a = test::softBall(Vec3(0, 1.2f, 0), 0.5f, knobs);
  SoftBody b = test::softBall(Vec3(0, 1.2f, 0), 0.5f, knobs);
  SoftBody::State saved;
  for (int i = 0; i < 90; ++i) {
    a.step(world, kGravity, double(i + 1) * kDt, kDt);
    b.step(world, kGravity, double(i + 1) * kDt, kDt);
    if (i == 29) saved = a.state();
  }
  ASSERT_EQ(a.state().position.size(), b.state().position.size());
  for (std::size_t i = 0; i < a.particleCount(); ++i) {
    ASSERT_EQ(a.state().position[i], b.state().position[i]);
    ASSERT_EQ(a.state().velocity[i], b.state().velocity[i]);
  }
  const std::vector<Vec3> end = a.state().position;
  a.state() = saved;
  for (int i = 30; i < 90; ++i) a.step(world, kGravity, double(i + 1) * kDt, kDt);
  for (std::size_t i = 0; i < a.particleCount(); ++i) ASSERT_EQ(a.state().position[i], end[i]);
}

TEST(SoftBodySleep, ABodyAtRestSleepsAndWakesWhenItsGravityChanges) {
  SoftBodyKnobs knobs;
  knobs.particles = 125;
  knobs.damping = 5.0f;
  SoftBody cube = test::softCube(Vec3(0, 0.55f, 0), 0.5f, knobs);
  const physics::CollisionWorld world = test::floorWorld();
  int i = 0;
  for (; i < 600 && !cube.state().asleep; ++i) cube.step(world, kGravity, double(i + 1) * kDt, kDt);
  ASSERT_TRUE(cube.state().asleep) << "never fell asleep";
  const std::vector<Vec3> still = cube.state().position;
  cube.step(world, kGravity, double(++i) * kDt, kDt);
  EXPECT_EQ(cube.state().position, still);  // asleep: not stepped
  cube.step(world, Vec3(0, 9.81f, 0), double(++i) * kDt, kDt);
  EXPECT_FALSE(cube.state().asleep);
  EXPECT_GT(cube.centroid().y, still[0].y - 1.0f);
}

}  // namespace
}  // namespace floptle::matter
