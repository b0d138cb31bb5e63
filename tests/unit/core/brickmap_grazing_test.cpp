// BrickMap's ray walk on the hardest rays for its shortcuts: rays and sphere casts tangent to a
// baked sphere (a double root of the cell's cubic, where the Bernstein reject before the root
// search must not turn a real crossing away), grazing the terrain-like ground at a shallow
// angle for many cells, and the same after a rebake grew new bricks (the pool on huge pages
// reallocates as it grows). Every answer is checked against the brute-force fine march.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "brickmap_fine_march.h"
#include "floptle/core/brickmap/brick_map.h"

namespace floptle {
namespace {

constexpr float kRadius = 0.8f;  // the baked sphere's radius (m)

DistanceBatchFn sphereAt(Vec3 centre, float radius) {
  return [centre, radius](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i)
      out[i] = glm::length(points[i] - centre) - radius;
  };
}

BrickMap bakeSphere(Aabb bounds) {
  BrickMapSettings s;
  s.bounds = bounds;
  s.cellSize = 0.1f;
  auto map = BrickMap::bake(s, sphereAt(Vec3(0.0f), kRadius));
  EXPECT_TRUE(map.ok());
  return std::move(map).value();
}

struct Tally {
  int compared = 0, hits = 0, disagreements = 0;
};

/// The walk against the fine march on one ray: the same hit within 1e-4 m, or, where only one
/// of them sees a hit, a dip that barely touches the level (never a real crossing missed).
void expectSameAnswer(const BrickMap& map, Vec3 o, Vec3 d, float length, float r, Tally& tally,
                      const char* what) {
  const BrickMap::RayHit walk = map.raycast(o, d, length, r);
  const March brute = fineMarch(map, o, d, length, r, map.cellSize() / 400.0f);
  if (walk.hit != brute.hit) {
    ++tally.disagreements;
    if (walk.hit)
      EXPECT_LE(map.distance(walk.point) - r, 1e-5f) << what;
    else
      EXPECT_GE(brute.smallest, -1e-5f) << what << ": the walk missed a real crossing";
    return;
  }
  ++tally.compared;
  if (!walk.hit) return;
  ++tally.hits;
  EXPECT_NEAR(walk.distance, brute.distance, 1e-4f) << what << " r " << r;
  EXPECT_NEAR(glm::length(walk.normal), 1.0f, 1e-4f) << what;
}

TEST(BrickmapGrazing, RaysTangentToASphereFindEveryCrossing) {
  const BrickMap map = bakeSphere(Aabb{Vec3(-1.2f), Vec3(1.2f)});
  std::mt19937 rng(21);
  std::normal_distribution<float> g(0.0f, 1.0f);
  // Offsets of the ray's closest approach from the cast sphere's tangent distance (m): inside
  // (a short chord), on it (a double root), just outside (a miss by a hair).
  const float offsets[] = {-2e-3f, -2e-4f, -2e-5f, 0.0f, 2e-5f, 2e-4f, 2e-3f};
  Tally tally;
  for (int i = 0; i < 60; ++i) {
    // A random tangent frame: n the closest approach's direction, d perpendicular to it.
    const Vec3 n = glm::normalize(Vec3(g(rng), g(rng), g(rng)));
    const Vec3 d = glm::normalize(glm::cross(n, Vec3(g(rng), g(rng), g(rng))));
    for (float r : {0.0f, 0.17f}) {
      // The baked (trilinear) sphere is not exactly round: find where this ray family touches
      // it. Moving the ray out along n raises the field along it one for one (its gradient
      // there is n to within the interpolation's error), so the lowest value along the ray
      // through the analytic tangent point is how far to move it.
      const Vec3 through = n * (kRadius + r);
      float lowest = 1e30f;
      for (float s = 1.0f; s <= 3.0f; s += 1e-4f)
        lowest = std::min(lowest, map.distance(through - d * 2.0f + d * s) - r);
      for (float offset : offsets) {
        const Vec3 closest = n * (kRadius + r - lowest + offset);
        expectSameAnswer(map, closest - d * 2.0f, d, 4.0f, r, tally, "tangent ray");
      }
    }
  }
  EXPECT_GT(tally.hits, 300);
  EXPECT_GT(tally.compared, 700);
  // Only the hair-width ones may go either way.
  EXPECT_LT(tally.disagreements, 60);
}

TEST(BrickmapGrazing, ShallowRaysOverTheGroundMatchTheFineMarch) {
  // Ground y = 0.3 sin(1.7 x) cos(1.3 z), its distance scaled under the slope's bound.
  BrickMapSettings s;
  s.bounds = Aabb{Vec3(-3.0f, -0.5f, -3.0f), Vec3(3.0f, 0.5f, 3.0f)};
  s.cellSize = 0.1f;
  auto baked = BrickMap::bake(s, [](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      const Vec3 p = points[i];
      out[i] = 0.6f * (p.y - 0.3f * std::sin(1.7f * p.x) * std::cos(1.3f * p.z));
    }
  });
  ASSERT_TRUE(baked.ok());
  const BrickMap& map = baked.value();
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), u01(0.0f, 1.0f);
  Tally tally;
  for (int i = 0; i < 200; ++i) {
    // From one side at crest height, nearly level (slopes of 1:20 to 1:200), across the grid.
    const Vec3 o(-3.4f, 0.1f + 0.3f * u01(rng), 2.5f * u(rng));
    const Vec3 d = glm::normalize(Vec3(1.0f, -0.05f * u01(rng) - 0.005f, 0.4f * u(rng)));
    for (float r : {0.0f, 0.12f}) expectSameAnswer(map, o, d, 8.0f, r, tally, "shallow ray");
  }
  EXPECT_GT(tally.hits, 250);
  EXPECT_LT(tally.disagreements, 8);
}

TEST(BrickmapGrazing, AfterARebakeGrowsBricksTheWalkStillMatches) {
  // Baked small, then re-baked larger around a body: new bricks join the pool.
  BrickMap map = bakeSphere(Aabb{Vec3(-1.6f), Vec3(1.6f)});
  const int before = map.brickCount();
  const Vec3 body(0.0f);
  for (int round = 0; round < 40; ++round)
    map.rebakeNearest(sphereAt(Vec3(0.0f), 1.05f), std::span<const Vec3>(&body, 1), 64, 4.0f);
  ASSERT_GT(map.brickCount(), before);
  EXPECT_NEAR(map.distance(Vec3(1.05f, 0.0f, 0.0f)), 0.0f, 0.01f);
  std::mt19937 rng(4);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  Tally tally;
  for (int i = 0; i < 150; ++i) {
    const Vec3 o = glm::normalize(Vec3(g(rng), g(rng), g(rng))) * 2.5f;
    // Aimed at a point within 1.1 m of the centre: most hit the grown sphere (1.05 m).
    const Vec3 aim = glm::normalize(Vec3(g(rng), g(rng), g(rng))) * (1.1f * u01(rng));
    expectSameAnswer(map, o, glm::normalize(aim - o), 5.0f, i % 2 ? 0.0f : 0.2f, tally,
                     "after rebake");
  }
  EXPECT_GT(tally.hits, 70);
  EXPECT_LT(tally.disagreements, 4);
}

}  // namespace
}  // namespace floptle
