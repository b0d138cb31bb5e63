// Density-field gravity (tier 3) and bodies as masses, assembled by the runtime: a ball of
// matter pulls G M / r^2, the grid is re-solved every `cadence` ticks while the matter
// changes and read from the cache between, two bodies pull each other, and it all stays
// deterministic through lockstep runs and save / restore.
#include <gtest/gtest.h>

#include <cmath>

#include "floptle/core/scene/scene.h"
#include "floptle/runtime/scene_runtime.h"
#include "runtime_test_util.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;
using test::built;
constexpr float kPi = 3.14159265358979f;

TEST(DensityGravityInTheSimulation, ABallOfMatterPullsGMOverRSquared) {
  const Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "rock", "color": [1, 1, 1], "density": 100}],
    "settings": {"gravity": {"G": 0.5, "density": {"cell": 0.5}}},
    "nodes": [{"name": "ball", "material": "rock", "shape": {"type": "sphere", "radius": 4}}]})");
  SceneRuntime rt = built(doc);
  const physics::Simulation& sim = *rt.physics();
  const float M = 100.0f * 4.0f / 3.0f * kPi * 64.0f;
  for (float r : {5.0f, 7.0f, 30.0f}) {  // inside the padded grid, and beyond it
    const Vec3 g = sim.gravityAt(Vec3(0, r, 0), 0.0);
    EXPECT_NEAR(g.y, -0.5f * M / (r * r), 0.02f * 0.5f * M / (r * r)) << "r = " << r;
    EXPECT_NEAR(g.x, 0.0f, 1e-3f * std::abs(g.y));
  }
}

TEST(DensityGravityInTheSimulation, TheGridIsReSolvedEveryCadenceTicksWhileMatterChanges) {
  // The ball's radius swells with time; cadence 3: the pull outside changes only at ticks
  // 0, 3, 6, ...
  const Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "settings": {"gravity": {"density": {"cell": 1, "cadence": 3,
                                         "bounds": [[-6, -6, -6], [6, 6, 6]]}}},
    "nodes": [{"name": "ball", "shape": {"type": "sphere",
               "radius": {"base": 3, "sine": {"amplitude": 1, "frequency": 1, "phase": 0}}}}]})");
  SceneRuntime rt = built(doc);
  const physics::Simulation& sim = *rt.physics();
  const Vec3 p(0, 9, 0);
  Vec3 last = sim.gravityAt(p, 0.0);
  for (int k = 1; k <= 10; ++k) {
    rt.step();  // tick k - 1: the cache is brought up to it before any body samples
    const Vec3 g = sim.gravityAt(p, 0.0);
    const bool resolved = k > 1 && (k - 1) % 3 == 0;
    if (resolved)
      EXPECT_NE(g, last) << "after step " << k;
    else
      EXPECT_EQ(g, last) << "after step " << k;
    last = g;
  }
  // Still matter: solved once, at the build, whatever the cadence.
  const Json still = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "settings": {"gravity": {"density": {"cell": 1, "cadence": 1}}},
    "nodes": [{"name": "ball", "shape": {"type": "sphere", "radius": 3}}]})");
  SceneRuntime quiet = built(still);
  const Vec3 before = quiet.physics()->gravityAt(p, 0.0);
  for (int k = 0; k < 3; ++k) quiet.step();
  EXPECT_EQ(quiet.physics()->gravityAt(p, 0.0), before);
}

/// Two balls of 1 m radius and density 1000 at x = -5 and x = 5, nothing else.
Json twoBodies() {
  return Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "m", "color": [1, 1, 1], "density": 1000}],
    "settings": {"gravity": {"G": 0.01, "bodies_attract": true}},
    "nodes": [
      {"name": "a", "material": "m", "shape": {"type": "sphere", "radius": 1},
       "transform": {"position": [-5, 0, 0]}, "collider": {"body": "dynamic"}},
      {"name": "b", "material": "m", "shape": {"type": "sphere", "radius": 1},
       "transform": {"position": [5, 0, 0]}, "collider": {"body": "dynamic"}}]})");
}

TEST(DensityGravityInTheSimulation, BodiesAttractEachOtherAsPointMasses) {
  SceneRuntime rt = built(twoBodies());
  const physics::Simulation& sim = *rt.physics();
  rt.step();
  const float m = 1000.0f * 4.0f / 3.0f * kPi;
  const float expected = 0.01f * m / 100.0f;  // G m / d^2, d = 10 m
  EXPECT_NEAR(sim.bodyGravity(0).x, expected, 1e-3f * expected);
  EXPECT_NEAR(sim.bodyGravity(1).x, -expected, 1e-3f * expected);
  for (int i = 0; i < 60; ++i) rt.step();
  const Vec3 a = sim.bodies().state(0).position, b = sim.bodies().state(1).position;
  EXPECT_GT(a.x, -5.0f);
  EXPECT_LT(b.x, 5.0f);
  EXPECT_NEAR(a.x, -b.x, 1e-5f);  // symmetric
}

TEST(DensityGravityInTheSimulation, LockstepRunsAndSaveRestoreAgreeBitForBit) {
  Json doc = twoBodies();
  doc["settings"]["gravity"]["density"] = Json::parse(R"({"cell": 1, "cadence": 2})");
  doc["settings"]["gravity"]["global"] = {0.0f, -1.0f, 0.0f};
  doc["nodes"].push_back(Json::parse(R"({"name": "swell", "shape": {"type": "sphere",
      "radius": {"base": 2, "sine": {"amplitude": 0.5, "frequency": 2, "phase": 0}}},
      "transform": {"position": [0, -6, 0]}})"));
  SceneRuntime one = built(doc), two = built(doc);
  for (int i = 0; i < 20; ++i) {
    one.step();
    two.step();
  }
  EXPECT_EQ(one.physics()->stateHash(), two.physics()->stateHash());
  const physics::SimulationState saved = one.physics()->save();
  for (int i = 0; i < 21; ++i) one.step();
  const std::uint64_t straight = one.physics()->stateHash();
  one.physics()->restore(saved);
  for (int i = 0; i < 21; ++i) one.step();
  EXPECT_EQ(one.physics()->stateHash(), straight);
}

}  // namespace
}  // namespace floptle::runtime
