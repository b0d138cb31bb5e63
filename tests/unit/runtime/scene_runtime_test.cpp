// The runtime: one assembly of a scene's simulation, the Drift-or-physics choice, live tuning
// and replay, checked against the sample scenes and closed forms.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/drift/sandbox.h"
#include "floptle/runtime/replay.h"
#include "floptle/runtime/scene_runtime.h"
#include "runtime_test_util.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;
using test::built;

Json sampleScene(const char* name) {
  auto document = scene::loadSceneFile(std::string(FLOPTLE_SOURCE_DIR) + "/scenes/" + name);
  EXPECT_TRUE(document) << (document ? "" : document.error().message());
  return document ? document.value() : Json();
}

/// A ball of radius 0.5 m dropped from y = 5 onto a floor at y = 0, both of material `ground`.
Json dropScene() {
  return Json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "materials": [{"id": "ground", "color": [0.5, 0.5, 0.5], "density": 1000, "friction": 0.6,
                   "restitution": 0.0}],
    "nodes": [
      {"name": "floor", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
       "material": "ground"},
      {"name": "ball", "transform": {"position": [0, 5, 0]},
       "shape": {"type": "sphere", "radius": 0.5}, "material": "ground",
       "collider": {"body": "dynamic"}}
    ]
  })");
}

TEST(SceneRuntime, ChoosesDriftForADriftSceneAndPhysicsOtherwise) {
  SceneRuntime drift = built(sampleScene("drift.json"));
  EXPECT_EQ(drift.kind(), SimulationKind::Drift);
  ASSERT_NE(drift.drift(), nullptr);
  EXPECT_EQ(drift.physics(), nullptr);
  EXPECT_EQ(drift.driftPointer().substr(drift.driftPointer().size() - 6), "/drift");
  SceneRuntime physics = built(sampleScene("showcase.json"));
  EXPECT_EQ(physics.kind(), SimulationKind::Physics);
  ASSERT_NE(physics.physics(), nullptr);
  EXPECT_EQ(physics.drift(), nullptr);
  EXPECT_EQ(physics.physics()->characters().size(), 1u);
}

TEST(SceneRuntime, ABodyFallsFreelyAsTheClosedFormSays) {
  SceneRuntime runtime = built(dropScene());
  physics::Simulation& sim = *runtime.physics();
  ASSERT_EQ(sim.bodies().size(), 1u);
  // Mass = density x volume of the sphere.
  EXPECT_NEAR(sim.bodies().desc(0).mass, 1000.0f * 4.0f / 3.0f * 3.14159265f * 0.125f, 0.01f);
  for (int i = 0; i < 30; ++i) runtime.step();  // 0.5 s, still in the air
  const double t = runtime.tick() * runtime.fixedDt();
  const float y = sim.bodies().state(0).position.y;
  // Semi-implicit Euler falls a little further than g t^2 / 2 each step: within g t dt.
  EXPECT_NEAR(y, 5.0 - 0.5 * 9.81 * t * t, 9.81 * t * runtime.fixedDt());
}

TEST(SceneRuntime, TuningReachesTheRunningSimulation) {
  Json document = dropScene();
  SceneRuntime runtime = built(document);
  document["materials"][0]["friction"] = 0.25;
  document["materials"][0]["density"] = 2000;
  auto sc = scene::buildScene(document);
  ASSERT_TRUE(sc);
  ASSERT_TRUE(runtime.applyTuning(document, sc.value()));
  const physics::RigidBodyDesc& ball = runtime.physics()->bodies().desc(0);
  EXPECT_FLOAT_EQ(ball.friction, 0.25f);
  EXPECT_NEAR(ball.mass, 2000.0f * 4.0f / 3.0f * 3.14159265f * 0.125f, 0.01f);
}

TEST(SceneRuntime, AnInteractionRuleChangedLiveRecomposesTheStaticColliders) {
  // Two static unit-half spheres of two materials overlapping by 0.1 m, and a ball above.
  Json document = Json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "materials": [{"id": "goo", "color": [0.2, 0.8, 0.3]}, {"id": "rock", "color": [0.5, 0.5, 0.5]}],
    "interactions": [],
    "nodes": [
      {"name": "a", "transform": {"position": [-0.3, 0, 0]},
       "shape": {"type": "sphere", "radius": 0.5}, "material": "goo"},
      {"name": "b", "transform": {"position": [0.6, 0, 0]},
       "shape": {"type": "sphere", "radius": 0.5}, "material": "rock"},
      {"name": "ball", "transform": {"position": [0.15, 2, 0]},
       "shape": {"type": "sphere", "radius": 0.1}, "material": "rock",
       "collider": {"body": "dynamic"}}]})");
  SceneRuntime runtime = built(document);
  physics::Simulation& sim = *runtime.physics();
  const Vec3 seam(0.15f, 0.3f, 0.0f);  // equidistant from both surfaces
  const float a = glm::length(seam - Vec3(-0.3f, 0, 0)) - 0.5f;
  const float b = glm::length(seam - Vec3(0.6f, 0, 0)) - 0.5f;
  auto smin = [](float x, float y, float k) {
    const float h = std::max(k - std::abs(x - y), 0.0f) / k;
    return std::min(x, y) - h * h * k * 0.25f;
  };
  auto apply = [&] {
    auto sc = scene::buildScene(document);
    ASSERT_TRUE(sc) << sc.error().message();
    const Expected<void> applied = runtime.applyTuning(document, sc.value());
    ASSERT_TRUE(applied) << applied.error().message();
  };
  for (int i = 0; i < 10; ++i) runtime.step();
  const float ballY = sim.bodies().state(0).position.y;
  EXPECT_NEAR(sim.world().distance(seam, sim.time()), std::min(a, b), 1e-5f);
  document["interactions"] =
      Json::parse(R"([{"a": "goo", "b": "rock", "rule": "merge", "k": 0.4}])");
  apply();
  EXPECT_NEAR(sim.world().distance(seam, sim.time()), smin(a, b, 0.4f), 1e-4f);
  EXPECT_EQ(sim.world().size(), 2u);  // the two spheres share one composed collider, and the ball
  EXPECT_EQ(sim.bodies().state(0).position.y, ballY);  // the bodies keep their state
  document["interactions"][0]["k"] = 0.2;
  apply();
  EXPECT_NEAR(sim.world().distance(seam, sim.time()), smin(a, b, 0.2f), 1e-4f);
  document["interactions"] = Json::array();
  apply();
  EXPECT_NEAR(sim.world().distance(seam, sim.time()), std::min(a, b), 1e-5f);
  EXPECT_EQ(sim.world().size(), 3u);
}

TEST(SceneRuntime, AStateSavedBeforeARecompositionRestoresOnlyToTheCollidersItCameFrom) {
  // A morph (baked, with step state) merged with a sphere: the rules change while the
  // simulation runs, and a state saved before goes back without touching the new colliders.
  Json document = Json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "materials": [{"id": "goo", "color": [0.2, 0.8, 0.3]}, {"id": "rock", "color": [0.5, 0.5, 0.5]}],
    "interactions": [{"a": "goo", "b": "rock", "rule": "merge", "k": 0.3}],
    "nodes": [
      {"name": "wave", "shape": {"type": "box", "half_extents": [1, 0.2, 1]}, "material": "goo",
       "matter": {"tier": "morph", "bake": {"cell": 0.05}, "displacement": [
         {"type": "sine", "amplitude": [0, 0.05, 0], "wave": [3, 0, 0], "speed": 2, "phase": 0}]}},
      {"name": "rock", "transform": {"position": [1.2, 0, 0]},
       "shape": {"type": "sphere", "radius": 0.4}, "material": "rock"},
      {"name": "ball", "transform": {"position": [0, 1, 0]},
       "shape": {"type": "sphere", "radius": 0.1}, "material": "rock",
       "collider": {"body": "dynamic"}}]})");
  SceneRuntime runtime = built(document);
  physics::Simulation& sim = *runtime.physics();
  for (int i = 0; i < 5; ++i) runtime.step();
  const physics::SimulationState before = sim.save();
  const Vec3 ballAtSave = sim.bodies().state(0).position;
  document["interactions"] = Json::array();  // hard: each node its own collider again
  auto sc = scene::buildScene(document);
  ASSERT_TRUE(sc);
  ASSERT_TRUE(runtime.applyTuning(document, sc.value()));
  EXPECT_EQ(sim.world().size(), 3u);
  for (int i = 0; i < 5; ++i) runtime.step();
  ASSERT_NE(sim.bodies().state(0).position, ballAtSave);
  sim.restore(before);  // the merged part's bake state has no collider now: it is left alone
  EXPECT_EQ(sim.tick(), 5u);
  EXPECT_EQ(sim.bodies().state(0).position, ballAtSave);
  for (int i = 0; i < 5; ++i) runtime.step();
  // The world is the hard union: at the rock's top the rock's own surface.
  EXPECT_NEAR(sim.world().distance(Vec3(1.2f, 0.4f, 0.0f), sim.time()), 0.0f, 1e-4f);
}

TEST(SceneRuntime, ARefusedDriftTuningKeepsTheOldAndNamesTheValue) {
  Json document = sampleScene("drift.json");
  SceneRuntime runtime = built(document);
  const drift::Tuning before = runtime.drift()->tuning();
  Json bad = document;
  bad[Json::json_pointer(runtime.driftPointer())]["drag_rate"] = -1.0;
  auto sc = scene::buildScene(document);
  ASSERT_TRUE(sc);
  const Expected<void> applied = runtime.applyTuning(bad, sc.value());
  ASSERT_FALSE(applied);
  EXPECT_NE(applied.error().where.find(runtime.driftPointer()), std::string::npos)
      << applied.error().message();
  EXPECT_EQ(std::memcmp(&before, &runtime.drift()->tuning(), sizeof before), 0);
}

TEST(Replay, EqualsStepping) {
  const Json document = dropScene();
  ReplayOptions options;
  options.ticks = 90;
  options.sceneName = "drop.json";
  auto result = replay(document, ".", options);
  ASSERT_TRUE(result) << result.error().message();
  SceneRuntime runtime = built(document);
  for (int i = 0; i < 90; ++i) runtime.step();
  EXPECT_EQ((*result)["hash"], physics::Simulation::hashHex(runtime.physics()->stateHash()));
  EXPECT_EQ((*result)["tick"], 90);
}

TEST(Replay, RunsTheSceneTheCallerHandsItInsteadOfBuildingOne) {
  ReplayOptions options;
  options.ticks = 60;
  options.sceneName = "drop.json";
  // The drop scene, made whole for the schema a loaded file meets.
  Json document = dropScene();
  document["interactions"] = Json::array();
  document["materials"][0]["bulk_modulus"] = 1e9;
  document["materials"][0]["yield_strength"] = 1e6;
  auto plain = replay(document, ".", options);
  ASSERT_TRUE(plain) << plain.error().message();
  // The Scene that loading built (what `floptle simulate` hands over): the same run.
  auto loaded = scene::parseScene(document.dump());
  ASSERT_TRUE(loaded) << loaded.error().message();
  options.scene = &loaded->scene;
  auto given = replay(loaded->document, ".", options);
  ASSERT_TRUE(given) << given.error().message();
  EXPECT_EQ((*given)["hash"], (*plain)["hash"]);
  // A Scene with the ball higher up is the one that runs: the hash of that scene's own replay.
  Json higher = document;
  higher["nodes"][1]["transform"]["position"][1] = 9.0;
  auto higherScene = scene::buildScene(higher);
  ASSERT_TRUE(higherScene) << higherScene.error().message();
  options.scene = &*higherScene;
  auto moved = replay(document, ".", options);
  ASSERT_TRUE(moved) << moved.error().message();
  options.scene = nullptr;
  auto higherPlain = replay(higher, ".", options);
  ASSERT_TRUE(higherPlain) << higherPlain.error().message();
  EXPECT_EQ((*moved)["hash"], (*higherPlain)["hash"]);
  EXPECT_NE((*moved)["hash"], (*plain)["hash"]);
}

TEST(Replay, AnInputForAnUnknownNodeNamesTheInputsFile) {
  const nlohmann::json inputs =
      nlohmann::json::parse(R"([{"tick": 0, "node": "nobody", "jump": true}])");
  ReplayOptions options;
  options.ticks = 1;
  options.inputs = &inputs;
  options.sceneName = "drop.json";
  options.inputsName = "in.json";
  auto result = replay(dropScene(), ".", options);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().where, "in.json: /0/node");
}

}  // namespace
}  // namespace floptle::runtime

namespace floptle::runtime {
namespace {

TEST(SceneRuntime, AControllerValueOutOfRangeIsRefusedByTheComponentTable) {
  // The schema and the component table say a character's radius is > 0 (m); the runtime reads
  // it through that table, so 0 is refused naming the value, where the old checker said 1e-4.
  Json document = Json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "nodes": [{"name": "floor", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0}},
              {"name": "hero", "transform": {"position": [0, 1, 0]},
               "character": {"radius": 0.00005, "height": 1.8}}]
  })");
  auto sc = scene::buildScene(document);
  ASSERT_TRUE(sc) << sc.error().message();
  ASSERT_TRUE(SceneRuntime::build(document, sc.value())) << "5e-5 m is inside (0, 1000]";
  document["nodes"][1]["character"]["radius"] = 0;
  auto refused = scene::buildScene(document);
  const Error error =
      refused ? SceneRuntime::build(document, refused.value()).error() : refused.error();
  EXPECT_NE(error.message().find("/nodes/1/character/radius"), std::string::npos)
      << error.message();
}

}  // namespace
}  // namespace floptle::runtime
