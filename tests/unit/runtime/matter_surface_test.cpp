// runtime::matterSurfaces: the shared brickmaps of a running simulation's soft bodies follows the
// falling body, re-baked on the budget each step, report the cells they changed, one per material.
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
  auto first = matterSurfaces(sim);
  ASSERT_TRUE(first) << first.error().message();
  ASSERT_EQ(first->size(), 1u);
  EXPECT_TRUE(first->front().whole);
  EXPECT_EQ(first->front().material, "goo");
  EXPECT_EQ(first->front().firstBody, "jelly");
  const BrickMap* map = first->front().map;
  EXPECT_NEAR(map->distance(Vec3(0.0f, 2.0f, 0.0f)), 0.0f, 0.1f);  // the rest sphere's top
  const auto* stage = dynamic_cast<const matter::SoftBodyStage*>(sim.matterStage());
  const std::uint64_t hash = sim.stateHash();
  for (int i = 0; i < 40; ++i) rt.step();
  // Drawing only: the map is no part of the state (a run without it hashes the same).
  SceneRuntime plain = test::built(droppedBall());
  for (int i = 0; i < 40; ++i) plain.step();
  EXPECT_EQ(sim.stateHash(), plain.physics()->stateHash());
  EXPECT_NE(sim.stateHash(), hash);
  ASSERT_EQ(stage->surfaceMaps().size(), 1u);
  const matter::SoftBodySurfaceMap& surface = *stage->surfaceMaps().front();
  EXPECT_EQ(surface.counters().updates, 40u);
  EXPECT_LE(surface.counters().bricksRebakedTotal,
            40u * std::uint64_t(matter::SoftBodySurfaceMap::kDefaultBudget));
  auto later = matterSurfaces(sim);
  ASSERT_TRUE(later && later->size() == 1u);
  EXPECT_FALSE(later->front().whole);
  EXPECT_EQ(later->front().map, map);
  EXPECT_FALSE(later->front().changedCells.empty());
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
  auto surface = matterSurfaces(*rt.physics());
  ASSERT_TRUE(surface) << surface.error().message();
  ASSERT_EQ(surface->size(), 1u);
  const BrickMap& map = *surface->front().map;
  const auto* stage = dynamic_cast<const matter::SoftBodyStage*>(rt.physics()->matterStage());
  // The map spans the body grown by kMatterReach (and the bake's band), at the fine cell: half
  // the particle spacing, doubled at most until 2^18 top cells hold 32 m and the ball.
  const Vec3 extent = Vec3(map.dims()) * 8.0f * map.cellSize();
  EXPECT_LT(extent.x, 2.0f * kMatterReach + 4.0f);
  EXPECT_GT(extent.x, 2.0f * kMatterReach);
  EXPECT_LE(map.cellSize(), 0.1f);
  EXPECT_NEAR(map.distance(Vec3(0.0f, 2.0f, 0.0f)), 0.0f, stage->bodies()[0].spacing());
}

TEST(MatterSurface, EachMaterialHasItsOwnMapDrawingOnlyItsBodies) {
  Json scene = droppedBall();
  scene["materials"].push_back(Json::parse(
      R"({"id": "clay", "color": [0.6, 0.4, 0.3], "density": 1800, "friction": 0.8,
          "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6})"));
  Json cube = Json::parse(R"({"name": "brick", "material": "clay",
      "shape": {"type": "box", "half_extents": [0.3, 0.3, 0.3]},
      "transform": {"position": [1.5, 0.8, 0]},
      "matter": {"tier": "soft_body", "particles": 64, "substeps": 6}})");
  scene["nodes"].push_back(cube);
  SceneRuntime rt = test::built(scene);
  auto surfaces = matterSurfaces(*rt.physics());
  ASSERT_TRUE(surfaces) << surfaces.error().message();
  ASSERT_EQ(surfaces->size(), 2u);
  const MatterSurface& goo = (*surfaces)[0];
  const MatterSurface& clay = (*surfaces)[1];
  EXPECT_EQ(goo.material, "goo");
  EXPECT_EQ(clay.material, "clay");
  EXPECT_EQ(clay.firstBody, "brick");
  // Each map has its own body's surface and nothing of the other's (closed forms about the
  // rest poses: the ball's top at y = 2, the brick's top at y = 1.1).
  const float h = 0.2f;  // within a lattice spacing and a bake cell
  EXPECT_NEAR(goo.map->distance(Vec3(0.0f, 2.0f, 0.0f)), 0.0f, h);
  EXPECT_NEAR(clay.map->distance(Vec3(1.5f, 1.1f, 0.0f)), 0.0f, h);
  EXPECT_GT(goo.map->distance(Vec3(1.5f, 0.8f, 0.0f)), 0.0f);
  EXPECT_GT(clay.map->distance(Vec3(0.0f, 1.5f, 0.0f)), 0.0f);
}

TEST(MatterSurface, ASceneWithoutSoftBodiesHasNone) {
  Json scene = droppedBall();
  scene["nodes"][1].erase("matter");
  SceneRuntime rt = test::built(scene);
  auto surface = matterSurfaces(*rt.physics());
  ASSERT_TRUE(surface);
  EXPECT_TRUE(surface->empty());
}

}  // namespace
}  // namespace floptle::runtime
