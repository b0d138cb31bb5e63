// Compaction (seed 001 section 5, matter/soft_body.h): a column resting on a floor feels
// about rho |g| (H - y) at height y, so its base about rho |g| H; below the yield strength the
// strain is elastic (the rest volume never changes and the volume comes back when the load is
// gone); above it the rest volume shrinks for good by the seed's V0 <- V0 (1 - (P - P_y) / K)
// integrated over the column, the mass never changes and the density rises.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kG = 9.81f;
constexpr float kDensity = 1000.0f;
constexpr float kHeight = 2.0f;  // m: the column 0.5 x 2 x 0.5 m standing on y = 0

SoftBodyDesc columnDesc(float bulkModulus, float yieldStrength) {
  SoftBodyDesc desc;
  desc.name = "column";
  desc.knobs.particles = 500;  // 5 x 20 x 5 at h = 0.1 m
  desc.knobs.stiffness = 0.05f;
  desc.knobs.volumePreserve = 1.0f;  // the bulk modulus alone
  desc.knobs.shapeMatch = 0.0f;      // all the load through the edges and tetrahedra
  desc.knobs.damping = 10.0f;
  desc.density = kDensity;
  desc.bulkModulus = bulkModulus;
  desc.yieldStrength = yieldStrength;
  return desc;
}

SoftBody column(float bulkModulus, float yieldStrength) {
  return test::softBox(Vec3(0, 0.5f * kHeight, 0), Vec3(0.25f, 0.5f * kHeight, 0.25f),
                       columnDesc(bulkModulus, yieldStrength));
}

/// Steps the body `seconds` under gravity -y ramped linearly from `from` to `to` (m/s^2) over
/// the first `ramp` s (quasi-static loading and unloading: no impact overshoot, no rebound),
/// starting at step `first`; returns the next step.
int load(SoftBody& body, const physics::CollisionWorld& world, int first, float seconds, float ramp,
         float from, float to) {
  const int steps = int(std::lround(seconds / kDt));
  for (int i = first; i < first + steps; ++i) {
    const float f = std::min(1.0f, float(i - first + 1) * kDt / ramp);
    body.step(world, Vec3(0, -(from + (to - from) * f), 0), double(i + 1) * kDt, kDt);
  }
  return first + steps;
}

TEST(Compaction, AColumnsBaseFeelsAboutRhoGHAndItsPressureFallsLinearlyWithHeight) {
  SoftBody body = column(1e9f, 1e12f);  // hard, never yields
  ASSERT_EQ(body.particleCount(), 500u);
  const physics::CollisionWorld world = test::floorWorld();
  load(body, world, 0, 3.0f, 1.0f, 0.0f, kG);
  // The mean pressure of each layer of lattice cubes (5 tetrahedra x 4 x 4 cubes) against
  // rho g (H - y) at the layer's mean height: every horizontal section carries the weight
  // above it. (Across a section the pressure is not uniform: the middle carries about 20%
  // more than the sides.)
  constexpr int kLayers = 19;
  double pressure[kLayers] = {}, height[kLayers] = {};
  int count[kLayers] = {};
  for (std::size_t t = 0; t < body.tetCount(); ++t) {
    float y = 0.0f;
    for (std::uint32_t i : body.tet(t)) y += 0.25f * body.restPositions()[i].y;
    const int layer = std::clamp(int((y - 0.05f) / 0.1f), 0, kLayers - 1);
    for (std::uint32_t i : body.tet(t)) height[layer] += 0.25 * body.state().position[i].y;
    pressure[layer] += body.tetPressure(t);
    ++count[layer];
  }
  const double base = kDensity * kG * kHeight;
  for (int l = 0; l < kLayers; ++l) {
    ASSERT_EQ(count[l], 80) << l;
    const double y = height[l] / count[l];
    EXPECT_NEAR(pressure[l] / count[l], kDensity * kG * (kHeight - y), 0.06 * base) << l;
  }
  EXPECT_NEAR(pressure[0] / count[0], base, 0.1 * base);
}

TEST(Compaction, BelowTheYieldTheStrainIsElasticAndTheVolumeComesBack) {
  const float k = 1e5f;  // Pa: the base strain rho g H / K is about 20%
  SoftBodyDesc desc = columnDesc(k, 1e12f);
  desc.knobs.stiffness = 0.01f;  // soft edges: the tetrahedra carry the load
  SoftBody body =
      test::softBox(Vec3(0, 0.5f * kHeight, 0), Vec3(0.25f, 0.5f * kHeight, 0.25f), desc);
  const physics::CollisionWorld world = test::floorWorld();
  const float rest = body.restVolume(), mass = body.mass();
  int step = load(body, world, 0, 3.0f, 1.0f, 0.0f, kG);
  const float loaded = body.volume();
  EXPECT_LT(loaded, 0.97f * rest) << "the load squeezed it too little: K unused?";
  EXPECT_EQ(body.restVolume(), rest);
  EXPECT_EQ(body.counters().tetsCompacted, 0u);
  step = load(body, world, step, 3.0f, 1.0f, kG, 0.0f);  // unloaded
  EXPECT_NEAR(body.volume(), rest, 0.005f * rest);
  EXPECT_EQ(body.restVolume(), rest);
  EXPECT_EQ(body.mass(), mass);
}

TEST(Compaction, AboveTheYieldTheRestVolumeShrinksForGoodWithTheMassKept) {
  const float k = 1e5f, yield = 5000.0f;  // Pa
  SoftBody body = column(k, yield);
  const physics::CollisionWorld world = test::floorWorld();
  const float rest = body.restVolume(), mass = body.mass(), density = body.density();
  int step = load(body, world, 0, 3.0f, 1.0f, 0.0f, kG);
  // Closed form: each height y under P = rho g (H - y) > P_y loses (P - P_y) / K of its rest
  // volume once (consolidated), so the column keeps 1 - rho g (H - y_y)^2 / (2 H K) of it,
  // y_y = H - P_y / (rho g) the height where the yield starts.
  const float depth = kHeight - yield / (kDensity * kG);
  const float expected = 1.0f - kDensity * kG * depth * depth / (2.0f * kHeight * k);
  EXPECT_NEAR(body.restVolume() / rest, expected, 0.25f * (1.0f - expected));
  EXPECT_LT(body.restVolume(), 0.97f * rest);
  step = load(body, world, step, 3.0f, 1.0f, kG, 0.0f);  // unloaded: it stays
  const float compacted = body.restVolume();
  EXPECT_NEAR(body.volume(), compacted, 0.01f * rest);
  EXPECT_LT(body.volume(), 0.97f * rest);
  EXPECT_EQ(body.mass(), mass);
  EXPECT_NEAR(body.density(), mass / body.volume(), 1e-3f * density);
  EXPECT_GT(body.density(), 1.03f * density);
  // Consolidated: the same load again compacts little further (the local pressures differ
  // a little from the first time: under a quarter of the first compaction), where a
  // perfectly plastic rule would compact as much again.
  load(body, world, step, 3.0f, 1.0f, 0.0f, kG);
  EXPECT_LT(compacted - body.restVolume(), 0.25f * (rest - compacted));
}

}  // namespace
}  // namespace floptle::matter
