// gravity.set_mode and gravity.add_source per node and per region, against closed forms: a
// body's own mode moves it and no other, a region changes what is inside it and nothing
// outside, an added source pulls G M / r^2 from where its node is now, the density mode pulls
// as the scene's matter, and a restore takes back what the scripts set.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "script_test_support.h"

namespace floptle::runtime::test {
namespace {

using Json = nlohmann::ordered_json;
constexpr float kPi = 3.14159265358979f;

class ScriptGravityTest : public ScriptTest {
 protected:
  /// Free fall from rest for `ticks` under constant g: the drop g t^2 / 2 (m).
  static float drop(const physics::Simulation& sim, int ticks, float g) {
    const float t = float(ticks) * float(sim.settings().fixedDt);
    return 0.5f * g * t * t;
  }
  static Vec3 positionOf(const physics::Simulation& sim, const std::string& name) {
    const auto b = sim.findBody(name);
    EXPECT_TRUE(b) << name;
    return b ? sim.bodies().state(b->index).position : Vec3(0.0f);
  }
  /// Three numbers of a log line "x y z".
  static Vec3 parse(const std::string& line) {
    Vec3 v(0.0f);
    EXPECT_EQ(std::sscanf(line.c_str(), "%f %f %f", &v.x, &v.y, &v.z), 3) << line;
    return v;
  }
  /// A static node with a box shape that nothing collides with (a region's volume).
  static Json zone(const std::string& name, std::vector<float> position, std::vector<float> half) {
    Json z = staticBox(name, std::move(position), std::move(half), "a");
    z["collider"]["collidable"] = false;
    return z;
  }
};

TEST_F(ScriptGravityTest, AModeOnABodyIsItsOwnAndMovesNoOther) {
  write("s.lua",
        "function on_start()\n"
        "  gravity.set_mode('up', 'global', {strength = 5, direction = vec3(0, 2, 0)})\n"
        "end\n");
  physics::Simulation& sim =
      build(document({ball("up", {0, 0, 0}, 0.5f), ball("down", {5, 0, 0}, 0.5f)},
                     Json::array({{{"file", "s.lua"}}})));
  const int ticks = 60;
  for (int i = 0; i < ticks; ++i) sim.step();
  ASSERT_EQ(failure(sim), "");
  // Up at 5 m/s^2 from the first tick; the other falls at 9.81; the scene's field is as built.
  EXPECT_NEAR(positionOf(sim, "up").y, drop(sim, ticks, 5.0f), 1e-3f);
  EXPECT_NEAR(positionOf(sim, "down").y, -drop(sim, ticks, 9.81f), 1e-3f);
  EXPECT_EQ(sim.gravityAt(Vec3(0, 0, 0), 0.0), Vec3(0, -9.81f, 0));
  EXPECT_EQ(sim.bodyGravity(sim.findBody("up")->index), Vec3(0, 5, 0));
}

TEST_F(ScriptGravityTest, ARegionChangesBodiesInsideItAndNotOutside) {
  // Zero gravity inside the zone (a 4 m cube at y = 10) and 1 m around it.
  write("s.lua",
        "gravity.set_mode('zone', 'global', {strength = 0, reach = 1})\n"
        "local inside = gravity.sample(vec3(0, 12.9, 0))\n"
        "local outside = gravity.sample({0, 13.1, 0})\n"
        "log(string.format('%.9g %.9g', inside:length(), outside.y))\n");
  physics::Simulation& sim =
      build(document({zone("zone", {0, 10, 0}, {2, 2, 2}), ball("inside", {0, 10, 0}, 0.5f),
                      ball("outside", {10, 10, 0}, 0.5f)},
                     Json::array({{{"file", "s.lua"}}})));
  const int ticks = 60;
  for (int i = 0; i < ticks; ++i) sim.step();
  ASSERT_EQ(failure(sim), "");
  // 0.9 m above the box is within reach, 1.1 m is not.
  EXPECT_EQ(logs(sim), std::vector<std::string>{"0 -9.81000042"});
  // Inside: at rest where it was; outside: free fall.
  EXPECT_EQ(positionOf(sim, "inside"), Vec3(0, 10, 0));
  EXPECT_NEAR(positionOf(sim, "outside").y, 10.0f - drop(sim, ticks, 9.81f), 1e-3f);
  // The field itself: nothing in the box, the scene's gravity beside it.
  EXPECT_EQ(sim.gravityAt(Vec3(1.9f, 8.1f, -1.9f), 0.0), Vec3(0.0f));
  EXPECT_EQ(sim.gravityAt(Vec3(3.1f, 10, 0), 0.0), Vec3(0, -9.81f, 0));
}

TEST_F(ScriptGravityTest, OverlappingRegionsTheLaterNodeWinsAndABodysOwnModeBeatsRegions) {
  write("s.lua",
        "gravity.set_mode('second', 'global', {strength = 2, direction = vec3(1, 0, 0)})\n"
        "gravity.set_mode('first', 'global', {strength = 3, direction = vec3(0, 0, 1)})\n"
        "gravity.set_mode('b', 'global', {strength = 1, direction = vec3(0, 1, 0)})\n");
  physics::Simulation& sim =
      build(document({zone("first", {0, 0, 0}, {2, 2, 2}), zone("second", {2, 0, 0}, {2, 2, 2}),
                      ball("b", {1, 0, 0}, 0.2f)},
                     Json::array({{{"file", "s.lua"}}})));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  EXPECT_EQ(sim.gravityAt(Vec3(-1, 0, 0), 0.0), Vec3(0, 0, 3));  // first alone
  EXPECT_EQ(sim.gravityAt(Vec3(1, 0, 0), 0.0), Vec3(2, 0, 0));   // both: second is later
  EXPECT_EQ(sim.gravityAt(Vec3(3, 0, 0), 0.0), Vec3(2, 0, 0));
  EXPECT_EQ(sim.bodyGravity(sim.findBody("b")->index), Vec3(0, 1, 0));
}

TEST_F(ScriptGravityTest, AnAddedSourcePullsGMOverRSquaredFromWhereItsNodeIsNow) {
  // No scene gravity; the emitter is sent off at 3 m/s (its own pull at its centre is none).
  // At tick 30 a probe 3, 4, 0 m from where it is then reads g = -G M d / |d|^3,
  // |g| = 2 x 100 / 25.
  write("s.lua",
        "function on_start()\n"
        "  gravity.add_source(self, {mass = 100, g_const = 2})\n"
        "  self.velocity = vec3(0, -3, 0)\n"
        "end\n"
        "function on_tick(tick)\n"
        "  if tick == 30 then\n"
        "    local p = self.position\n"
        "    local g = gravity.sample(p + vec3(3, 4, 0))\n"
        "    log(string.format('%.9g %.9g %.9g', g.x, g.y, g.z))\n"
        "    log(string.format('%.9g', p.y))\n"
        "  end\n"
        "end\n");
  Json emitter = ball("emitter", {0, 0, 0}, 0.2f);
  emitter["script"] = {{"file", "s.lua"}};
  physics::Simulation& sim = build(document({emitter}, nullptr, {0.0, 0.0, 0.0}));
  for (int i = 0; i < 31; ++i) sim.step();
  ASSERT_EQ(failure(sim), "");
  const auto lines = logs(sim);
  ASSERT_EQ(lines.size(), 2u);
  // It moved (3 m/s for 30 ticks): the source went with it.
  EXPECT_NEAR(std::stof(lines[1]), -3.0f * 30.0f * float(sim.settings().fixedDt), 1e-4f);
  const Vec3 g = parse(lines[0]);
  EXPECT_NEAR(g.x, -8.0f * 0.6f, 1e-4f);
  EXPECT_NEAR(g.y, -8.0f * 0.8f, 1e-4f);
  EXPECT_NEAR(g.z, 0.0f, 1e-6f);
}

TEST_F(ScriptGravityTest, TheSourcesModeFeelsAddedSourcesTheGlobalModeDoesNot) {
  write("s.lua",
        "gravity.add_source('anchor', {mass = 50, g_const = 1})\n"
        "gravity.set_mode('near', 'sources')\n"
        "gravity.set_mode('far', 'global', {strength = 0})\n");
  physics::Simulation& sim =
      build(document({staticBox("anchor", {0, 0, 0}, {0.1f, 0.1f, 0.1f}, "a"),
                      ball("near", {0, 5, 0}, 0.2f), ball("far", {0, -5, 0}, 0.2f)},
                     Json::array({{{"file", "s.lua"}}})));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  // 50 / 25 towards the anchor; the scene's 9.81 down is not a source.
  const Vec3 gNear = sim.bodyGravity(sim.findBody("near")->index);
  EXPECT_NEAR(gNear.y, -2.0f, 1e-5f);
  EXPECT_EQ(gNear.x, 0.0f);
  EXPECT_EQ(sim.bodyGravity(sim.findBody("far")->index), Vec3(0.0f));
  // Everyone else's field: the scene's plus the source.
  EXPECT_NEAR(sim.gravityAt(Vec3(0, 0, 5), 0.0).z, -2.0f, 1e-5f);
  EXPECT_NEAR(sim.gravityAt(Vec3(0, 0, 5), 0.0).y, -9.81f, 1e-5f);
}

TEST_F(ScriptGravityTest, TheDensityModePullsAsTheScenesMatter) {
  // A static ball of matter, radius 2 m, density 1000: outside it g = G M / r^2.
  write("s.lua", "gravity.set_mode('probe', 'density', {cell = 0.5, g_const = 0.001})\n");
  Json core = staticBox("core", {0, 0, 0}, {1, 1, 1}, "a");
  core["shape"] = {{"type", "sphere"}, {"radius", 2.0}};
  physics::Simulation& sim =
      build(document({core, ball("probe", {0, 5, 0}, 0.2f), ball("plain", {0, -5, 0}, 0.2f)},
                     Json::array({{{"file", "s.lua"}}})));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  const float M = 1000.0f * 4.0f / 3.0f * kPi * 8.0f;
  const float expected = 0.001f * M / 25.0f;
  const Vec3 g = sim.bodyGravity(sim.findBody("probe")->index);
  EXPECT_NEAR(g.y, -expected, 0.02f * expected);
  EXPECT_NEAR(g.x, 0.0f, 1e-3f * expected);
  EXPECT_EQ(sim.bodyGravity(sim.findBody("plain")->index), Vec3(0, -9.81f, 0));
}

TEST_F(ScriptGravityTest, ARestoreTakesBackWhatTheScriptsSetOfGravity) {
  write("s.lua",
        "function on_tick(tick)\n"
        "  if tick == 10 then gravity.set_mode('zone', 'global', {strength = 0}) end\n"
        "end\n");
  physics::Simulation& sim =
      build(document({zone("zone", {0, 0, 0}, {2, 2, 2}), ball("b", {0, 0, 0}, 0.5f)},
                     Json::array({{{"file", "s.lua"}}})));
  for (int i = 0; i < 5; ++i) sim.step();
  const physics::SimulationState saved = sim.save();
  const std::uint64_t hash = sim.stateHash();
  for (int i = 0; i < 15; ++i) sim.step();
  ASSERT_EQ(failure(sim), "");
  EXPECT_EQ(sim.gravityAt(Vec3(0.0f), 0.0), Vec3(0.0f));
  EXPECT_NE(sim.stateHash(), hash);
  sim.restore(saved);
  EXPECT_EQ(sim.stateHash(), hash);
  EXPECT_EQ(sim.gravityAt(Vec3(0.0f), 0.0), Vec3(0, -9.81f, 0));
  // And replaying on sets it again at tick 10.
  for (int i = 0; i < 15; ++i) sim.step();
  EXPECT_EQ(sim.gravityAt(Vec3(0.0f), 0.0), Vec3(0.0f));
}

TEST_F(ScriptGravityTest, BadTargetsAndModesAreErrorsNamingWhat) {
  struct Case {
    const char* call;
    const char* message;
  };
  const Case cases[] = {
      {"gravity.set_mode('empty', 'global')",
       "s.lua:1: gravity.set_mode: 'empty' is neither a body, character or vehicle (its own "
       "field) nor a node with a shape (a region) (tick 0)"},
      {"gravity.set_mode('b', 'global', {reach = 2})",
       "s.lua:1: gravity.set_mode: 'reach' is a region's option; 'b' is a body, character or "
       "vehicle (its mode is its own, everywhere) (tick 0)"},
      {"gravity.set_mode('b', 'planet')",
       "s.lua:1: gravity.set_mode: unknown mode 'planet' (global, sources, sdf_surface, density) "
       "(tick 0)"},
      {"gravity.set_mode('b', 'density', {cadence = 0.5})",
       "s.lua:1: gravity.set_mode: cadence must be a whole number of ticks >= 1 (tick 0)"},
  };
  for (const Case& c : cases) {
    write("s.lua", std::string(c.call) + "\n");
    physics::Simulation& sim = build(document({Json{{"name", "empty"}}, ball("b", {0, 0, 0}, 0.5f)},
                                              Json::array({{{"file", "s.lua"}}})));
    sim.step();
    EXPECT_EQ(failure(sim), c.message) << c.call;
  }
}

}  // namespace
}  // namespace floptle::runtime::test
