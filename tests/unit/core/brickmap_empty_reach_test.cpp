// BrickMap's empty reach: the cube of empty, non-solid top cells around each cell that the ray
// walk skips whole. Checked against a brute-force chessboard distance after a bake and after a
// rebake grew a surface in empty space, and by rays across the empty middle of a map (the
// fine march and the closed-form sphere are the references).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "brickmap_fine_march.h"
#include "floptle/core/brickmap/brick_map.h"

namespace floptle {
namespace {

constexpr float kCell = 0.05f;       // fine cell (m): top cells of 0.4 m
constexpr float kBallRadius = 1.5f;  // (m): big enough to hold solid top cells without bricks
const Vec3 kLeft(-16.0f, 0.0f, 0.0f), kRight(16.0f, 0.0f, 0.0f), kMiddle(0.0f, 0.0f, 0.0f);

/// Two balls, 32 m apart, and optionally a third (radius `middle` > 0) halfway between them.
DistanceBatchFn balls(float middle) {
  return [middle](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      float d =
          std::min(glm::length(points[i] - kLeft), glm::length(points[i] - kRight)) - kBallRadius;
      if (middle > 0.0f) d = std::min(d, glm::length(points[i] - kMiddle) - middle);
      out[i] = d;
    }
  };
}

BrickMap bakeBalls() {
  BrickMapSettings s;
  s.bounds = Aabb{Vec3(-18.0f, -2.0f, -2.0f), Vec3(18.0f, 2.0f, 2.0f)};
  s.cellSize = kCell;
  auto map = BrickMap::bake(s, balls(0.0f));
  EXPECT_TRUE(map.ok());
  return std::move(map).value();
}

bool occupied(const BrickMap& map, glm::ivec3 c) {
  return map.brickAt(c) >= 0 || map.centreValue(c) < 0.0f;
}

/// Chessboard distance (top cells) from each cell to the nearest occupied one, by brute force.
std::vector<int> chessboardToOccupied(const BrickMap& map) {
  const glm::ivec3 n = map.dims();
  std::vector<glm::ivec3> occ;
  for (int z = 0; z < n.z; ++z)
    for (int y = 0; y < n.y; ++y)
      for (int x = 0; x < n.x; ++x)
        if (occupied(map, {x, y, z})) occ.push_back({x, y, z});
  std::vector<int> d;
  for (int z = 0; z < n.z; ++z)
    for (int y = 0; y < n.y; ++y)
      for (int x = 0; x < n.x; ++x) {
        int best = 1 << 30;
        for (const glm::ivec3& o : occ)
          best =
              std::min(best, std::max({std::abs(x - o.x), std::abs(y - o.y), std::abs(z - o.z)}));
        d.push_back(best);
      }
  return d;
}

TEST(BrickmapEmptyReach, IsTheChessboardDistanceToTheNearestOccupiedCellLessOne) {
  const BrickMap map = bakeBalls();
  const glm::ivec3 n = map.dims();
  ASSERT_GT(n.x, 2 * BrickMap::kMaxEmptyReach + 2);  // wide enough for the cap to matter
  const std::vector<int> d = chessboardToOccupied(map);
  int solidEmpty = 0, capped = 0, compared = 0;
  for (int z = 0, i = 0; z < n.z; ++z)
    for (int y = 0; y < n.y; ++y)
      for (int x = 0, k = 0; x < n.x; ++x, ++i, ++k) {
        const glm::ivec3 c(x, y, z);
        solidEmpty += map.brickAt(c) < 0 && map.centreValue(c) < 0.0f;
        const int expected = std::min(BrickMap::kMaxEmptyReach, std::max(d[i] - 1, 0));
        capped += expected == BrickMap::kMaxEmptyReach;
        ASSERT_EQ(map.emptyReach(c), expected) << "cell " << x << " " << y << " " << z;
        ++compared;
      }
  EXPECT_GT(solidEmpty, 0);  // solid cells without bricks inside the balls count as occupied
  EXPECT_GT(capped, 0);      // some cells of the empty middle reach past the cap
  EXPECT_EQ(compared, n.x * n.y * n.z);
}

TEST(BrickmapEmptyReach, RaysAcrossTheEmptyMiddleHitTheFarBall) {
  const BrickMap map = bakeBalls();
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  int hits = 0;
  for (int i = 0; i < 200; ++i) {
    // From beside the left ball towards a point inside the right one, through the empty middle.
    const Vec3 o = kLeft + Vec3(2.0f, 1.6f * u(rng), 1.6f * u(rng));
    const Vec3 aim = kRight + Vec3(u(rng), u(rng), u(rng)) * 0.8f;
    const Vec3 d = glm::normalize(aim - o);
    const float r = i % 2 ? 0.0f : 0.1f;
    const BrickMap::RayHit walk = map.raycast(o, d, 40.0f, r);
    ASSERT_TRUE(walk.hit) << "ray " << i;
    // The closed form: the ball grown by r, within half a cell (the bake's error).
    const Vec3 oc = o - kRight;
    const float b = glm::dot(oc, d), c = glm::dot(oc, oc) - (kBallRadius + r) * (kBallRadius + r);
    const float exact = -b - std::sqrt(b * b - c);
    EXPECT_NEAR(walk.distance, exact, 0.5f * kCell) << "ray " << i;
    // The baked field's own crossing, by the fine march.
    const March brute = fineMarch(map, o, d, 40.0f, r, kCell / 20.0f);
    ASSERT_TRUE(brute.hit);
    EXPECT_NEAR(walk.distance, brute.distance, 1e-4f) << "ray " << i;
    ++hits;
  }
  EXPECT_EQ(hits, 200);
}

TEST(BrickmapEmptyReach, ASurfaceARebakeGrowsInEmptySpaceStopsTheRay) {
  BrickMap map = bakeBalls();
  const glm::ivec3 middleCell = glm::ivec3(glm::floor((kMiddle - map.origin()) / (8.0f * kCell)));
  ASSERT_GT(map.emptyReach(middleCell + glm::ivec3(3, 0, 0)), 3);
  // A third ball appears halfway; the rebake around it allocates its bricks.
  for (int round = 0; round < 20; ++round)
    map.rebakeNearest(balls(0.5f), std::span<const Vec3>(&kMiddle, 1), 256, 1.5f);
  ASSERT_GE(map.brickAt(middleCell), 0);
  // Every cell's reach is still a lower bound: its cube holds no occupied cell.
  const std::vector<int> d = chessboardToOccupied(map);
  const glm::ivec3 n = map.dims();
  for (int z = 0, i = 0; z < n.z; ++z)
    for (int y = 0; y < n.y; ++y)
      for (int x = 0; x < n.x; ++x, ++i)
        ASSERT_LE(map.emptyReach({x, y, z}), std::max(d[i] - 1, 0))
            << "cell " << x << " " << y << " " << z;
  // A ray from the left ball to the right one along the axis now stops at the middle ball.
  for (float r : {0.0f, 0.1f}) {
    const Vec3 o = kLeft + Vec3(2.0f, 0.05f, -0.03f);
    const BrickMap::RayHit walk = map.raycast(o, Vec3(1.0f, 0.0f, 0.0f), 30.0f, r);
    ASSERT_TRUE(walk.hit);
    EXPECT_NEAR(walk.point.x,
                kMiddle.x - std::sqrt((0.5f + r) * (0.5f + r) - 0.05f * 0.05f - 0.03f * 0.03f),
                0.5f * kCell)
        << "r " << r;
  }
}

}  // namespace
}  // namespace floptle
