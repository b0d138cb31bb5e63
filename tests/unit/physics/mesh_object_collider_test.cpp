// A mesh component naming one object of a Blender file (tests/data/blender/level.glb, see
// make_fixtures.py there) collides as that object alone, placed by its node's transform; the
// cache keeps one entry per object.
#include <gtest/gtest.h>

#include "floptle/physics/collision_world.h"
#include "floptle/physics/mesh_collider.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {
namespace {

const std::filesystem::path kDir = std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender";

TEST(MeshObjectCollider, OneObjectUnderItsNodeTransformWithItsSlotsOrNone) {
  MeshColliderCache cache;
  ColliderBuildOptions options;
  options.meshCache = &cache;
  // Block's node: (0, 1, 0) in the scene; its vertices span +-1 around it.
  Transform block;
  block.position = Vec3(0.0f, 1.0f, 0.0f);
  auto shape = makeMeshCollider({{"file", "level.glb"}, {"object", "Block"}}, kDir, block, options);
  ASSERT_TRUE(shape.ok()) << shape.error().message();
  const Aabb box = (*shape)->aabb(0.0);
  EXPECT_NEAR(box.min.y, 0.0f, 1e-5f);
  EXPECT_NEAR(box.max.y, 2.0f, 1e-5f);
  EXPECT_NEAR(box.max.x, 1.0f, 1e-5f);
  EXPECT_NEAR((*shape)->distance(Vec3(0.0f, 3.0f, 0.0f), 0.0), 1.0f, 1e-5f) << "the top at y = 2";
  const auto top = (*shape)->faceLabel(Vec3(0.0f, 2.0f, 0.0f));
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ((*shape)->labelName(*top), "Grass");

  Transform suzanneNode;
  suzanneNode.position = Vec3(4.0f, 1.0f, 0.0f);
  auto suzanne =
      makeMeshCollider({{"file", "level.glb"}, {"object", "Suzanne"}}, kDir, suzanneNode, options);
  ASSERT_TRUE(suzanne.ok()) << suzanne.error().message();
  EXPECT_GT((*suzanne)->aabb(0.0).min.x, 2.0f) << "Suzanne alone, nothing of the block";
  const auto face = (*suzanne)->faceLabel(Vec3(4.0f, 1.0f, 1.0f));
  EXPECT_TRUE(!face.has_value() || (*suzanne)->labelName(*face).empty()) << "no slot: no material";
  EXPECT_EQ(cache.stats().entries, 2u) << "one entry per object";

  auto missing =
      makeMeshCollider({{"file", "level.glb"}, {"object", "Ghost"}}, kDir, block, options);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message().find("Ghost"), std::string::npos)
      << missing.error().message();
  auto bad = makeMeshCollider({{"file", "level.glb"}, {"object", ""}}, kDir, block, options);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "mesh/object");
}

}  // namespace
}  // namespace floptle::physics
