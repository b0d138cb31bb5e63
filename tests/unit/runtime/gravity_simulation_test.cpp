// Bodies in the scene's gravity field, assembled by the runtime: an orbit's period against
// Kepler's, and a ship (response 0) that obeys none of the field.
#include <gtest/gtest.h>

#include <cmath>

#include "../vec_expect.h"
#include "floptle/core/scene/scene.h"
#include "floptle/runtime/scene_runtime.h"
#include "runtime_test_util.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;
using test::built;
constexpr float kPi = 3.14159265358979f;

using floptle::test::expectNear;

/// A scene of one dynamic ball (response r) at (r0, 0, 0) moving at v along +Z around a
/// point mass M at the origin (G = 1), nothing to collide with.
Json orbitScene(float r0, float mass, float speed, float response) {
  Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "m", "color": [1, 1, 1], "density": 100}],
    "settings": {"gravity": {"sources": [{"type": "point", "center": [0, 0, 0]}]}},
    "nodes": [{"name": "moon", "shape": {"type": "sphere", "radius": 0.1}, "material": "m",
               "collider": {"body": "dynamic"}}]})");
  doc["settings"]["gravity"]["sources"][0]["mass"] = mass;
  doc["nodes"][0]["transform"]["position"] = {r0, 0.0f, 0.0f};
  doc["nodes"][0]["collider"]["velocity"] = {0.0f, 0.0f, speed};
  doc["nodes"][0]["gravity"]["response"] = response;
  return doc;
}

TEST(GravityInTheSimulation, ABodyAtCircularSpeedOrbitsWithKeplersPeriod) {
  const float r0 = 10.0f, M = 1000.0f;
  const float v = std::sqrt(M / r0);  // G = 1
  const double period = 2.0 * kPi * std::sqrt(r0 * r0 * r0 / M);
  SceneRuntime rt = built(orbitScene(r0, M, v, 1.0f));
  physics::Simulation& sim = *rt.physics();
  // The period: the time between two crossings of the +X axis going the same way (z: - to +).
  double lastZ = 0.0, firstCrossing = -1.0, secondCrossing = -1.0;
  for (int i = 0; i < 2000 && secondCrossing < 0.0; ++i) {
    rt.step();
    const Vec3 p = sim.bodies().state(0).position;
    ASSERT_NEAR(glm::length(p), r0, 0.05f * r0) << "tick " << sim.tick();
    if (p.x > 0.0f && lastZ < 0.0 && p.z >= 0.0f) {
      const double t = sim.time() - sim.settings().fixedDt * double(p.z) / (double(p.z) - lastZ);
      (firstCrossing < 0.0 ? firstCrossing : secondCrossing) = t;
    }
    lastZ = p.z;
  }
  ASSERT_GT(secondCrossing, 0.0);
  EXPECT_NEAR(secondCrossing - firstCrossing, period, 0.02 * period);
}

TEST(GravityInTheSimulation, AShipWithResponseZeroFliesStraightOn) {
  SceneRuntime rt = built(orbitScene(10.0f, 1000.0f, 3.0f, 0.0f));
  physics::Simulation& sim = *rt.physics();
  for (int i = 0; i < 120; ++i) rt.step();
  expectNear(sim.bodies().state(0).position, Vec3(10.0f, 0.0f, 3.0f * 2.0f), 1e-4f);
  expectNear(sim.bodyGravity(0), Vec3(0.0f), 0.0f);
}

}  // namespace
}  // namespace floptle::runtime

namespace floptle::runtime {
namespace {

TEST(GravityInTheSimulation, UnderSurfaceGravityAloneAWallIsAFloor) {
  // No global gravity: the wall x = 0 pulls the character standing on it, so its up is +X,
  // it stays grounded there and "forward" walks along the wall.
  const Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "settings": {"gravity": {"sdf": {"strength": 9.81, "range": 3, "smoothing": {"epsilon": 0.05}}}},
    "nodes": [
      {"name": "wall", "shape": {"type": "plane", "normal": [1, 0, 0], "offset": 0}},
      {"name": "climber", "transform": {"position": [0.9, 5, 0]},
       "character": {"radius": 0.3, "height": 1.8, "speed": 3}}]})");
  SceneRuntime rt = built(doc);
  physics::Simulation& sim = *rt.physics();
  sim.characterInput(0).move = Vec2(0, 1);
  for (int i = 0; i < 60; ++i) rt.step();
  const physics::CharacterState& s = sim.characters()[0].state();
  EXPECT_TRUE(s.grounded);
  expectNear(s.up, Vec3(1, 0, 0), 1e-4f);
  EXPECT_NEAR(s.position.x, 0.9f, 0.02f);
  EXPECT_NEAR(s.position.z, 3.0f, 0.05f);  // 1 s at 3 m/s along its forward (+Z)
  EXPECT_NEAR(s.position.y, 5.0f, 1e-3f);
  // What it obeys: the pull into the wall at its centre's distance, 9.81 (1 - 0.9 / 3).
  expectNear(sim.characterGravity(0), Vec3(-9.81f * (1.0f - 0.9f / 3.0f), 0, 0), 2e-2f);
}

}  // namespace
}  // namespace floptle::runtime
