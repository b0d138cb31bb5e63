// A character under SDF-surface gravity, assembled by the runtime from a scene: it walks from a
// floor through the 90-degree inner corner and up a vertical wall (with either smoothing), and
// it leaps off the wall and falls back under global gravity once the surface pull has faded;
// over the showcase's fractal island and down its side; up the swirling wall of the gravity
// sample scene.
#include <gtest/gtest.h>

#include <cmath>

#include "../vec_expect.h"
#include "floptle/core/scene/scene_io.h"
#include "runtime_test_util.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;
using test::built;

/// A floor (top face y = 0) and a wall (face x = 10) meeting at a 90-degree inner corner,
/// SDF-surface gravity with the given smoothing, and a character standing on the floor at
/// x = 5 facing +Z (its side, up x forward, is +X: towards the wall).
Json cornerScene(const Json& smoothing, const Json& global) {
  Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "settings": {"gravity": {"sdf": {"strength": 9.81, "range": 3}}},
    "nodes": [
      {"name": "floor", "transform": {"position": [0, -0.5, 0]},
       "shape": {"type": "box", "half_extents": [20, 0.5, 20]}, "collider": {"body": "static"}},
      {"name": "wall", "transform": {"position": [10.5, 20, 0]},
       "shape": {"type": "box", "half_extents": [0.5, 20, 20]}, "collider": {"body": "static"}},
      {"name": "runner", "transform": {"position": [5, 0.9, 0]},
       "character": {"radius": 0.3, "height": 1.8, "speed": 3},
       "gravity": {"response": 1, "align_rate": 8}}]})");
  doc["settings"]["gravity"]["sdf"]["smoothing"] = smoothing;
  if (!global.is_null()) doc["settings"]["gravity"]["global"] = global;
  return doc;
}

/// Holds "right" (towards the wall, then up it) for `seconds`; returns the fraction of ticks
/// the character was grounded.
double runTowardsTheWall(SceneRuntime& rt, double seconds) {
  physics::Simulation& sim = *rt.physics();
  sim.characterInput(0).move = Vec2(1, 0);
  const int ticks = int(seconds / sim.settings().fixedDt);
  int grounded = 0;
  for (int i = 0; i < ticks; ++i) {
    rt.step();
    grounded += sim.characters()[0].state().grounded ? 1 : 0;
  }
  return double(grounded) / ticks;
}

void expectUpTheWall(SceneRuntime& rt, double groundedFraction) {
  const physics::CharacterState& s = rt.physics()->characters()[0].state();
  EXPECT_GT(groundedFraction, 0.95);
  EXPECT_TRUE(s.grounded);
  // Standing on the wall: up is its normal, the capsule's centre half a height off its face.
  EXPECT_LT(glm::length(s.up - Vec3(-1, 0, 0)), 0.02f);
  EXPECT_NEAR(s.position.x, 10.0f - 0.9f, 0.05f);
  // 10 s at 3 m/s: 4.1 m to the corner, the rest up the wall (the corner costs some).
  EXPECT_GT(s.position.y, 15.0f);
  EXPECT_NEAR(s.position.z, 0.0f, 0.05f);
}

TEST(SurfaceGravityWalk, FromTheFloorThroughTheInnerCornerAndUpTheWallWithEpsilonSmoothing) {
  SceneRuntime rt = built(cornerScene(Json{{"epsilon", 0.3}}, Json()));
  const double grounded = runTowardsTheWall(rt, 10.0);
  expectUpTheWall(rt, grounded);
}

TEST(SurfaceGravityWalk, FromTheFloorThroughTheInnerCornerAndUpTheWallOnTheBakedField) {
  SceneRuntime rt = built(cornerScene(Json{{"baked", Json{{"cell", 0.5}, {"blur", 1}}}}, Json()));
  const double grounded = runTowardsTheWall(rt, 10.0);
  expectUpTheWall(rt, grounded);
}

TEST(SurfaceGravityWalk, ALeapOffTheWallFallsBackUnderGlobalGravity) {
  // A strong surface pull keeps the runner on the wall against a weak global pull; a jump
  // leaves along up (-X), past the range only the global pull is left, and it lands on the
  // floor standing upright.
  Json doc = cornerScene(Json{{"epsilon", 0.3}}, Json::array({0, -3, 0}));
  doc["settings"]["gravity"]["sdf"]["strength"] = 20;
  doc["nodes"][2]["character"]["jump_speed"] = 8;
  SceneRuntime rt = built(doc);
  physics::Simulation& sim = *rt.physics();
  runTowardsTheWall(rt, 6.0);
  const physics::CharacterState& s = sim.characters()[0].state();
  ASSERT_TRUE(s.grounded);
  ASSERT_GT(s.position.y, 3.0f);
  ASSERT_LT(s.up.x, -0.9f);
  sim.characterInput(0).move = Vec2(0, 0);
  sim.characterInput(0).jump = true;
  bool pastRange = false;
  for (int i = 0; i < 600 && !(pastRange && s.grounded); ++i) {
    rt.step();
    const float fromWall = 10.0f - s.position.x;
    if (fromWall > 3.0f + 0.2f && s.position.y > 3.0f) {  // a tick's motion past range
      // Nothing of the surface reaches here: the body obeys the global term alone.
      pastRange = true;
      floptle::test::expectNear(sim.characterGravity(0), Vec3(0, -3, 0), 1e-5f);
    }
  }
  EXPECT_TRUE(pastRange);
  EXPECT_TRUE(s.grounded);
  EXPECT_LT(glm::length(s.up - Vec3(0, 1, 0)), 0.05f);
  EXPECT_NEAR(s.position.y, 0.9f, 0.05f);
  EXPECT_LT(s.position.x, 10.0f - 3.0f);
}

Json sampleScene(const char* name) {
  auto document = scene::loadSceneFile(std::string(FLOPTLE_SOURCE_DIR) + "/scenes/" + name);
  EXPECT_TRUE(document) << (document ? "" : document.error().message());
  return document ? document.value() : Json();
}

TEST(SurfaceGravityWalk, OverTheShowcasesFractalIslandAndDownItsSide) {
  // The showcase under SDF-surface gravity alone, the player set on top of the morphing
  // mandelbulb island: holding forward it walks over the top and down the far side past the
  // vertical, grounded all the way, its up turning with the surface.
  Json doc = sampleScene("showcase.json");
  doc["settings"]["gravity"] =
      Json::parse(R"({"sdf": {"strength": 9.81, "range": 2.5, "smoothing": {"epsilon": 0.1}}})");
  for (Json& node : doc["nodes"])
    if (node["name"] == "player_spawn") node["transform"]["position"] = {7, 6.2, -6};
  SceneRuntime rt = built(doc);
  physics::Simulation& sim = *rt.physics();
  const int player = 0;
  for (int i = 0; i < 60; ++i) rt.step();  // lands on the island
  const physics::CharacterState& s = sim.characters()[player].state();
  ASSERT_TRUE(s.grounded);
  ASSERT_GT(s.up.y, 0.99f);
  sim.characterInput(player).move = Vec2(0, 1);
  for (int i = 0; i < 100; ++i) {
    rt.step();
    ASSERT_TRUE(s.grounded) << "tick " << sim.tick();
    // On the surface: the capsule's centre stays about half its height off it.
    const float clearance = sim.world().distance(s.position, sim.time());
    ASSERT_GT(clearance, 0.3f) << "tick " << sim.tick();
    ASSERT_LT(clearance, 1.2f) << "tick " << sim.tick();
  }
  EXPECT_LT(s.position.y, 2.6f);  // below the island's centre
  EXPECT_LT(s.up.y, -0.2f);       // standing on its underside: up turned past the horizontal
  EXPECT_GT(s.up.z, 0.9f);
}

TEST(SurfaceGravityWalk, UpTheSwirlingWallOfTheGravitySampleScene) {
  SceneRuntime rt = built(sampleScene("gravity.json"));
  physics::Simulation& sim = *rt.physics();
  int runner = -1;
  for (std::size_t i = 0; i < sim.characters().size(); ++i)
    if (sim.characters()[i].desc().name == "wall_runner") runner = int(i);
  ASSERT_GE(runner, 0);
  sim.characterInput(runner).move = Vec2(0, 1);
  const physics::CharacterState& s = sim.characters()[std::size_t(runner)].state();
  for (int i = 0; i < 360; ++i) {
    rt.step();
    ASSERT_TRUE(s.grounded) << "tick " << sim.tick();
  }
  // 6 s at 4 m/s: to the wall, then 16 m up it, where its face has turned 1.6 rad.
  EXPECT_GT(s.position.y, 15.0f);
  EXPECT_LT(std::abs(s.up.y), 0.2f);
  EXPECT_GT(std::abs(s.up.x), 0.9f);
}

}  // namespace
}  // namespace floptle::runtime
