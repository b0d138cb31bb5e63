// BrickAtlas (render/brick_atlas.h): the atlas's distance (the shader's formula on the atlas's
// own texels) equals BrickMap::distance in bricks and bounds the true distance elsewhere;
// only changed bricks are marked for upload; a map past the atlas is refused naming the limit.
#include "floptle/core/render/brick_atlas.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace floptle::render {
namespace {

constexpr float kRadius = 0.5f;  // baked sphere (m)
constexpr float kCell = 0.05f;   // bake cell (m)

DistanceBatchFn sphereAt(Vec3 centre, float radius) {
  return [centre, radius](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i)
      out[i] = glm::length(points[i] - centre) - radius;
  };
}

BrickMap bakeSphere(float radius = kRadius) {
  BrickMapSettings s;
  s.bounds = Aabb::fromCenterHalf(Vec3(0.0f), Vec3(kRadius));
  s.cellSize = kCell;
  auto map = BrickMap::bake(s, sphereAt(Vec3(0.0f), radius));
  EXPECT_TRUE(map.ok());
  return std::move(map).value();
}

/// Top cell of a map holding p.
glm::ivec3 topCell(const BrickMap& map, Vec3 p) {
  return glm::ivec3(glm::floor((p - map.origin()) / (BrickMap::kCells * map.cellSize())));
}

TEST(BrickAtlas, DistanceEqualsBrickMapInBricks) {
  const BrickMap map = bakeSphere();
  BrickAtlas atlas;
  BrickMapPlacement placement;
  placement.transform.position = Vec3(1.0f, -2.0f, 0.5f);
  placement.transform.rotation = glm::angleAxis(0.7f, glm::normalize(Vec3(1.0f, 2.0f, -0.5f)));
  placement.transform.scale = 1.5f;
  placement.material = 3;
  auto id = atlas.addMap(map, placement);
  ASSERT_TRUE(id.ok()) << id.error().message();
  EXPECT_EQ(atlas.usedSlots(), map.brickCount());

  std::mt19937 rng(7);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  std::uniform_real_distribution<float> shell(kRadius - 0.08f, kRadius + 0.08f);
  int inBricks = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 dir = glm::normalize(Vec3(gauss(rng), gauss(rng), gauss(rng)));
    const Vec3 p = dir * shell(rng);
    if (map.brickAt(topCell(map, p)) < 0) continue;
    ++inBricks;
    const Vec2 d = atlas.distance(placement.transform.applyToPoint(p));
    // World distances scale with the placement; within one sample step (of the map's units).
    EXPECT_NEAR(d.x / placement.transform.scale, map.distance(p), map.sampleStep())
        << "at " << p.x << ", " << p.y << ", " << p.z;
    EXPECT_EQ(d.y, 3.0f);
  }
  EXPECT_GT(inBricks, 1500);  // the shell lies in bricks
}

TEST(BrickAtlas, DistanceBoundsTheSphereEverywhere) {
  const BrickMap map = bakeSphere();
  BrickAtlas atlas;
  ASSERT_TRUE(atlas.addMap(map, {}).ok());
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  for (int i = 0; i < 3000; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    const float exact = glm::length(p) - kRadius;
    const float d = atlas.distance(p).x;
    // A lower bound of the distance (a march never oversteps), up to the bake's error,
    // with the right sign away from the surface.
    EXPECT_LE(d, exact + 0.1f * kCell) << "at " << p.x << ", " << p.y << ", " << p.z;
    if (exact > kCell) {
      EXPECT_GT(d, 0.0f);
    }
    if (exact < -kCell) {
      EXPECT_LT(d, 0.0f);
    }
  }
  // Outside the grid it is at least the gap to the grid's box (the surface lies inside it).
  const Vec3 far(0.0f, 0.0f, 4.0f);
  EXPECT_GE(atlas.distance(far).x, far.z - map.gridBounds().max.z);
  EXPECT_LE(atlas.distance(far).x, far.z - kRadius);
}

TEST(BrickAtlas, ChangingOneBrickMarksExactlyThatSlot) {
  BrickMap map = bakeSphere();
  BrickAtlas atlas;
  auto id = atlas.addMap(map, {});
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(int(atlas.dirtySlots().size()), map.brickCount());
  EXPECT_TRUE(atlas.indexDirty());
  atlas.markUploaded();
  EXPECT_TRUE(atlas.dirtySlots().empty());
  EXPECT_FALSE(atlas.indexDirty());

  // Re-bake one top cell (budget 1, nearest the point) with a slightly larger sphere.
  const Vec3 at(kRadius, 0.05f, 0.05f);
  const glm::ivec3 cell = topCell(map, at);
  ASSERT_GE(map.brickAt(cell), 0);
  ASSERT_EQ(map.rebakeNearest(sphereAt(Vec3(0.0f), kRadius + 0.01f), std::span(&at, 1), 1, 0.1f),
            1);
  ASSERT_GE(map.brickAt(cell), 0);

  // The diff finds that one cell and marks that one slot.
  auto found = atlas.syncMap(*id, map);
  ASSERT_TRUE(found.ok()) << found.error().message();
  EXPECT_EQ(*found, 1);
  const std::vector<int> dirty = atlas.dirtySlots();
  ASSERT_EQ(dirty.size(), 1u);
  // The slot's samples are the map's brick.
  const int brick = map.brickAt(cell);
  const std::span<const std::int16_t> samples = atlas.slotSamples(dirty[0]);
  for (int k = 0, i = 0; k < BrickMap::kSamples; ++k)
    for (int y = 0; y < BrickMap::kSamples; ++y)
      for (int x = 0; x < BrickMap::kSamples; ++x, ++i)
        ASSERT_EQ(float(samples[std::size_t(i)]) * map.sampleStep(),
                  map.brickSample(brick, x, y, k));
  // And the atlas draws the new surface there.
  EXPECT_NEAR(atlas.distance(at).x, map.distance(at), map.sampleStep());
  EXPECT_NEAR(map.distance(at), -0.01f + glm::length(at) - kRadius, 0.1f * kCell);

  // The writer's own list does the same: the re-bake's one cell.
  const std::vector<glm::ivec3> rebaked = cellsSampledInLastRound(map);
  ASSERT_EQ(rebaked.size(), 1u);
  EXPECT_EQ(rebaked[0], cell);
  atlas.markUploaded();
  ASSERT_TRUE(atlas.updateMap(*id, map, rebaked).ok());
  EXPECT_EQ(atlas.dirtySlots().size(), 1u);
  atlas.markUploaded();
  // Unchanged: nothing to send.
  auto none = atlas.syncMap(*id, map);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, 0);
  EXPECT_TRUE(atlas.dirtySlots().empty());
  EXPECT_FALSE(atlas.indexDirty());
}

TEST(BrickAtlas, MapPastTheAtlasIsRefusedNamingTheLimit) {
  const BrickMap map = bakeSphere();
  ASSERT_GT(map.brickCount(), 8);
  BrickAtlas small(glm::ivec3(2));
  auto refused = small.addMap(map, {}, "nodes/4 baked_field");
  ASSERT_FALSE(refused.ok());
  const std::string message = refused.error().message();
  EXPECT_NE(message.find("nodes/4 baked_field"), std::string::npos) << message;
  EXPECT_NE(message.find("8 slots (2 x 2 x 2)"), std::string::npos) << message;
  EXPECT_NE(message.find(std::to_string(map.brickCount()) + " bricks"), std::string::npos)
      << message;
  EXPECT_EQ(small.usedSlots(), 0);

  // A map that grows past the atlas in an update is refused and the atlas keeps what it drew.
  BrickMap growing = bakeSphere();
  // Room for the map and fewer than 28 slots more.
  BrickAtlas exact(glm::ivec3(
      BrickAtlas::kMaxSlotsPerAxis,
      (growing.brickCount() + BrickAtlas::kMaxSlotsPerAxis - 1) / BrickAtlas::kMaxSlotsPerAxis, 1));
  auto id = exact.addMap(growing, {});
  ASSERT_TRUE(id.ok()) << id.error().message();
  const Vec3 probe(kRadius, 0.0f, 0.0f);
  const float before = exact.distance(probe).x;
  const Vec3 centre(0.0f);
  // A second ball in a corner of the grid brings a surface into cells that had none.
  const DistanceBatchFn twoBalls = [](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i)
      out[i] =
          std::min(glm::length(points[i]) - kRadius, glm::length(points[i] - Vec3(0.6f)) - 0.1f);
  };
  for (int round = 0; round < 50; ++round)
    growing.rebakeNearest(twoBalls, std::span(&centre, 1), 1000, 10.0f);
  ASSERT_GT(growing.brickCount(), exact.slotCount());
  auto grown = exact.syncMap(*id, growing);
  ASSERT_FALSE(grown.ok());
  EXPECT_NE(grown.error().message().find("slots"), std::string::npos);
  EXPECT_EQ(exact.distance(probe).x, before);
}

TEST(BrickAtlas, RemovedMapFreesItsSlotsAndIsNotDrawn) {
  const BrickMap map = bakeSphere();
  BrickAtlas atlas;
  auto a = atlas.addMap(map, {});
  BrickMapPlacement moved;
  moved.transform.position = Vec3(3.0f, 0.0f, 0.0f);
  moved.material = 2;
  auto b = atlas.addMap(map, moved);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(atlas.usedSlots(), 2 * map.brickCount());
  EXPECT_EQ(atlas.distance(Vec3(3.0f + kRadius, 0.0f, 0.0f)).y, 2.0f);
  atlas.removeMap(*a);
  EXPECT_EQ(atlas.usedSlots(), map.brickCount());
  // The origin is now 3 - r from the remaining sphere's surface, a lower bound at most.
  EXPECT_GT(atlas.distance(Vec3(0.0f)).x, 1.0f);
  EXPECT_NEAR(atlas.distance(Vec3(3.0f + kRadius, 0.0f, 0.0f)).x, 0.0f, 0.1f * kCell);
}

}  // namespace
}  // namespace floptle::render
