// Issue 4, baked LOD per simulation step: a growing sphere baked with a re-bake budget follows
// the analytic field near a body as the simulation steps (and stays stale far from it), and
// queries within the near radius of a body read the exact shape.
#include <gtest/gtest.h>

#include "baked_sphere_fixture.h"

namespace floptle::physics::testing {
namespace {

TEST(BakedFieldSimulation, RebakeFollowsAGrowingFieldNearTheBodies) {
  Simulation sim = simulationWithBakedSphere(/*nearRadius=*/0.0f, /*budget=*/8);
  const Vec3 nearBody(1.55f, 0.0f, 0.0f), farAway(-1.55f, 0.0f, 0.0f);
  sim.addBody(pebbleAt(nearBody));
  const auto& blob = bakedBlob(sim);
  // Baked at t = 0: 0.55 m outside the surface.
  EXPECT_NEAR(blob.brickMap().distance(nearBody), 0.55f, 0.5f * kCell);
  for (int i = 0; i < 120; ++i) sim.step();  // 2 s: r = 1.5 m
  const double t = sim.time();
  ASSERT_NEAR(GrowingSphere::radius(t), 1.5f, 1e-5f);
  // Near the body: the analytic value within half a cell plus the surface's growth during the
  // step or two the re-bake may lag (0.25 m/s x 2/60 s).
  const float lag = 0.25f * 2.0f / 60.0f;
  const Vec3 atBody = sim.bodies().state(0).position;
  EXPECT_LT(glm::length(atBody - nearBody), 1e-3f)
      << "the pebble stays put (no gravity, no contact)";
  EXPECT_NEAR(blob.distance(atBody, t), glm::length(atBody) - GrowingSphere::radius(t),
              0.5f * kCell + lag);
  EXPECT_NEAR(sim.world().closest(atBody, t).value()->distance, 0.05f, 0.5f * kCell + lag);
  // Out of the re-bake radius the field is still the t = 0 bake: the budget went to the body.
  EXPECT_GE(blob.brickMap().distance(farAway), 0.29f);
}

TEST(BakedFieldSimulation, NearTheBodiesQueriesReadTheExactShape) {
  Simulation sim = simulationWithBakedSphere(/*nearRadius=*/0.5f, /*budget=*/0);
  const Vec3 nearBody(1.45f, 0.35f, 0.1f), farAway(-1.05f, 0.3f, 0.1f);
  sim.addBody(pebbleAt(nearBody));
  const auto& blob = bakedBlob(sim);
  EXPECT_FALSE(blob.inNearField(nearBody)) << "no active bodies before the first step";
  for (int i = 0; i < 60; ++i) sim.step();  // 1 s: r = 1.25 m; the static bake says r = 1
  const double t = sim.time();
  ASSERT_TRUE(blob.inNearField(nearBody));
  EXPECT_FALSE(blob.inNearField(farAway));
  EXPECT_FLOAT_EQ(blob.distance(nearBody, t), glm::length(nearBody) - GrowingSphere::radius(t));
  // Far away the static (budget 0) bake answers: still the t = 0 sphere.
  EXPECT_NEAR(blob.distance(farAway, t), glm::length(farAway) - 1.0f, 0.5f * kCell);
}

}  // namespace
}  // namespace floptle::physics::testing
