// runtime::matterSurface: the shared brickmap of a running simulation's soft bodies follows the
// falling body, re-baked on the budget each step, and reports the cells it changed.
#include <gtest/gtest.h>

#include "floptle/matter/soft_body_stage.h"
#include "floptle/matter/soft_body_surface_map.h"
#include "floptle/runtime/scene_matter.h"
#include "runtime_test_util.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;

Json droppedBall() {
  return Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "goo", "color": [0.2, 0.8, 0.3], "density": 500, "friction": 0.6,
                   "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
    "interactions": [],
    "nodes": [
      {"name": "floor", "shape": {"type": "box", "half_extents": [2, 0.5, 2]},
       "transform": {"position": [0, -0.5, 0]}},
      {"name": "jelly", "material": "goo", "shape": {"type": "sphere", "radius": 0.5},
       "transform": {"position": [0, 1.5, 0]},
       "matter": {"tier": "soft_body", "particles": 150, "substeps": 6}}]})");
}

TEST(MatterSurface, TheMapFollowsTheFallingBodyAndReportsTheCellsItChanged) {
  SceneRuntime rt = test::built(droppedBall());
  physics::Simulation& sim = *rt.physics();
  auto first = matterSurface(sim);
  ASSERT_TRUE(first) << first.error().message();
  ASSERT_TRUE(first->has_value());
  EXPECT_TRUE((*first)->whole);
  const BrickMap* map = (*first)->map;
  EXPECT_NEAR(map->distance(Vec3(0.0f, 2.0f, 0.0f)), 0.0f, 0.1f);  // the rest sphere's top
  const auto* stage = dynamic_cast<const matter::SoftBodyStage*>(sim.matterStage());
  const std::uint64_t hash = sim.stateHash();
  for (int i = 0; i < 40; ++i) rt.step();
  // Drawing only: the map is no part of the state (a run without it hashes the same).
  SceneRuntime plain = test::built(droppedBall());
  for (int i = 0; i < 40; ++i) plain.step();
  EXPECT_EQ(sim.stateHash(), plain.physics()->stateHash());
  EXPECT_NE(sim.stateHash(), hash);
  const matter::SoftBodySurfaceMap& surface = *stage->surfaceMap();
  EXPECT_EQ(surface.counters().updates, 40u);
  EXPECT_LE(surface.counters().bricksRebakedTotal,
            40u * std::uint64_t(matter::SoftBodySurfaceMap::kDefaultBudget));
  auto later = matterSurface(sim);
  ASSERT_TRUE(later && later->has_value());
  EXPECT_FALSE((*later)->whole);
  EXPECT_EQ((*later)->map, map);
  EXPECT_FALSE((*later)->changedCells.empty());
  // The body fell: its top is about 1 m lower, where the map now has its surface.
  const float top = stage->bodies()[0].bounds().max.y - 0.5f * stage->bodies()[0].spacing();
  ASSERT_LT(top, 1.6f);
  EXPECT_NEAR(
      map->distance(Vec3(stage->bodies()[0].centroid().x, top, stage->bodies()[0].centroid().z)),
      0.0f, 1.5f * stage->bodies()[0].spacing());
  EXPECT_GT(map->distance(Vec3(0.0f, 2.0f, 0.0f)), 0.2f);
}

TEST(MatterSurface, AGroundPlaneBoundsTheMapByTheReachNotByItsOwnBounds) {
  Json scene = droppedBall();
  scene["nodes"][0] = Json::parse(
      R"({"name": "floor", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0}})");
  SceneRuntime rt = test::built(scene);
  auto surface = matterSurface(*rt.physics());
  ASSERT_TRUE(surface) << surface.error().message();
  ASSERT_TRUE(surface->has_value());
  const BrickMap& map = *(*surface)->map;
  const auto* stage = dynamic_cast<const matter::SoftBodyStage*>(rt.physics()->matterStage());
  // The map spans the body grown by kMatterReach (and the bake's band), at the fine cell: half
  // the particle spacing, doubled at most until 2^18 top cells hold 32 m and the ball.
  const Vec3 extent = Vec3(map.dims()) * 8.0f * map.cellSize();
  EXPECT_LT(extent.x, 2.0f * kMatterReach + 4.0f);
  EXPECT_GT(extent.x, 2.0f * kMatterReach);
  EXPECT_LE(map.cellSize(), 0.1f);
  EXPECT_NEAR(map.distance(Vec3(0.0f, 2.0f, 0.0f)), 0.0f, stage->bodies()[0].spacing());
}

TEST(MatterSurface, ASceneWithoutSoftBodiesHasNone) {
  Json scene = droppedBall();
  scene["nodes"][1].erase("matter");
  SceneRuntime rt = test::built(scene);
  auto surface = matterSurface(*rt.physics());
  ASSERT_TRUE(surface);
  EXPECT_FALSE(surface->has_value());
}

}  // namespace
}  // namespace floptle::runtime
