// Mesh -> baked field: agrees with the mesh's own signed distance within half a cell, keeps a
// sensible inside for a holed mesh, reports progress, can be cancelled.
#include <gtest/gtest.h>

#include <random>

#include "../mesh_test_files.h"
#include "floptle/physics/mesh_field_bake.h"

namespace floptle::physics {
namespace {

TEST(MeshFieldBake, BakedIcosphereMatchesTheMeshWithinHalfACell) {
  auto sphere = TriMeshCollider::create(floptle::testing::icosphere(3, 1.0f));
  ASSERT_TRUE(sphere.ok());
  MeshFieldBakeSettings settings;
  settings.cellSize = 0.05f;
  settings.threads = 2;
  float last = -1.0f;
  bool monotonic = true;
  auto map = bakeMeshField(**sphere, settings, [&](float f, std::string_view) {
    monotonic = monotonic && f >= last;
    last = f;
  });
  ASSERT_TRUE(map.ok()) << map.error().message();
  EXPECT_TRUE(monotonic);
  EXPECT_FLOAT_EQ(last, 1.0f);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 3000; ++i) {
    const Vec3 dir = glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(1e-4f));
    const Vec3 p = dir * (1.0f + 0.14f * u(rng));  // within the band (0.15 m)
    EXPECT_NEAR(map->distance(p), (*sphere)->distance(p, 0.0), 0.5f * settings.cellSize);
  }
  EXPECT_LT(map->distance(Vec3(0.0f)), 0.0f);
  EXPECT_GT(map->distance(Vec3(0.0f, 1.8f, 0.0f)), 0.0f);
  // The same bake twice (two threads) is bit-identical: bricks are independent.
  auto again = bakeMeshField(**sphere, settings);
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->brickCount(), map->brickCount());
  for (int i = 0; i < 200; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    EXPECT_EQ(again->distance(p), map->distance(p));
  }
}

TEST(MeshFieldBake, HoledMeshStillHasAnInside) {
  const auto full = floptle::testing::icosphere(3, 1.0f);
  asset::TriangleMesh holed = full;
  holed.triangles.clear();
  holed.triangleSlots.clear();
  for (std::size_t i = 0; i < full.triangleCount(); ++i) {
    const auto c = full.corners(i);
    if (c[0].y > 0.9f || c[1].y > 0.9f || c[2].y > 0.9f) continue;
    holed.triangles.push_back(full.triangles[i]);
    holed.triangleSlots.push_back(0);
  }
  auto mesh = TriMeshCollider::create(holed);
  ASSERT_TRUE(mesh.ok());
  MeshFieldBakeSettings settings;
  settings.cellSize = 0.05f;
  auto map = bakeMeshField(**mesh, settings);
  ASSERT_TRUE(map.ok());
  for (Vec3 p : {Vec3(0.0f), Vec3(0, 0.7f, 0), Vec3(0.5f, -0.5f, 0.1f)})
    EXPECT_LT(map->distance(p), 0.0f);
  for (Vec3 p : {Vec3(0, 1.2f, 0), Vec3(1.5f, 0, 0), Vec3(0, -1.3f, 0)})
    EXPECT_GT(map->distance(p), 0.0f);
}

TEST(MeshFieldBake, CancelAndBadSettings) {
  auto sphere = TriMeshCollider::create(floptle::testing::icosphere(2, 1.0f));
  ASSERT_TRUE(sphere.ok());
  std::atomic<bool> cancel{true};
  auto cancelled = bakeMeshField(**sphere, {}, {}, &cancel);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_NE(cancelled.error().what.find("cancel"), std::string::npos);
  MeshFieldBakeSettings bad;
  bad.cellSize = 0.0f;
  EXPECT_FALSE(bakeMeshField(**sphere, bad).ok());
}

}  // namespace
}  // namespace floptle::physics
