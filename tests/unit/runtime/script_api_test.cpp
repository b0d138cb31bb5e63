// The scripts' API against its effects and closed forms: gravity, matter, scene nodes, world
// queries, input, log and on_contact, and what save / restore keeps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "floptle/core/field/field_program.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/matter/soft_body_stage.h"
#include "script_test_support.h"

namespace floptle::runtime::test {
namespace {

using Json = nlohmann::ordered_json;
constexpr float kPi = 3.14159265358979f;

class ScriptApiTest : public ScriptTest {};

TEST_F(ScriptApiTest, SetResponseZeroKeepsABodyFromFalling) {
  write("float.lua", "function on_start() gravity.set_response(self, 0) end\n");
  Json floating = ball("floating", {0, 10, 0}, 0.5f);
  floating["script"] = {{"file", "float.lua"}};
  physics::Simulation& sim = build(document({floating, ball("falling", {5, 10, 0}, 0.5f)}));
  const int ticks = 60;
  for (int i = 0; i < ticks; ++i) sim.step();
  ASSERT_EQ(failure(sim), "");
  const auto f = sim.findBody("floating");
  const auto g = sim.findBody("falling");
  ASSERT_TRUE(f && g);
  // No gravity: it stays exactly where it was, at rest.
  EXPECT_EQ(sim.bodies().state(f->index).position, Vec3(0, 10, 0));
  EXPECT_EQ(sim.bodies().state(f->index).linearVelocity, Vec3(0.0f));
  // The other falls g t^2 / 2 (free fall, 1 s).
  const float t = float(ticks) * float(sim.settings().fixedDt);
  EXPECT_NEAR(sim.bodies().state(g->index).position.y, 10.0f - 0.5f * 9.81f * t * t, 0.1f);
}

TEST_F(ScriptApiTest, SampleIsTheFieldAtThePoint) {
  // A planet source: g = -9.81 normalize(p - c) inside r_outer.
  Json planet = staticBox("planet", {0, 0, 0}, {1, 1, 1}, "a");
  planet["gravity_source"] = {{"type", "planet"}, {"strength", 9.81}, {"r_outer", 50}};
  write("s.lua",
        "local g = gravity.sample(vec3(3, 4, 0))\n"
        "log(string.format('%.9g %.9g %.9g', g.x, g.y, g.z))\n"
        "local h = gravity.sample({0, 0, 60})\n"
        "log(h:length())\n");
  physics::Simulation& sim =
      build(document({planet}, Json::array({{{"file", "s.lua"}}}), {0.0, 0.0, 0.0}));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  const auto lines = logs(sim);
  ASSERT_EQ(lines.size(), 2u);
  float x = 0, y = 0, z = 0;
  ASSERT_EQ(std::sscanf(lines[0].c_str(), "%f %f %f", &x, &y, &z), 3);
  EXPECT_NEAR(x, -9.81f * 0.6f, 1e-5f);
  EXPECT_NEAR(y, -9.81f * 0.8f, 1e-5f);
  EXPECT_NEAR(z, 0.0f, 1e-6f);
  EXPECT_EQ(lines[1], "0.0");  // past r_outer: nothing
}

TEST_F(ScriptApiTest, AddSourcePullsAsAPointMass) {
  Json anchor = staticBox("anchor", {0, 0, 0}, {0.1f, 0.1f, 0.1f}, "a");
  write("s.lua",
        "gravity.set_mode('anchor', 'sources')\n"
        "gravity.add_source('anchor', {mass = 100, g_const = 2})\n"
        "local g = gravity.sample(vec3(0, 0, 4))\n"
        "log(string.format('%.9g', g.z))\n");
  physics::Simulation& sim = build(document({anchor}, Json::array({{{"file", "s.lua"}}})));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  // g = -g_const m / d^2 towards the anchor.
  EXPECT_NEAR(std::stof(logs(sim).at(0)), -2.0f * 100.0f / 16.0f, 1e-4f);
}

TEST_F(ScriptApiTest, ApplyImpulseChangesVelocityByImpulseOverMass) {
  write("s.lua", "function on_start() scene.node('b'):apply_impulse(vec3(2, 0, 0)) end\n");
  physics::Simulation& sim = build(
      document({ball("b", {0, 0, 0}, 0.5f)}, Json::array({{{"file", "s.lua"}}}), {0.0, 0.0, 0.0}));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  const float mass = 1000.0f * 4.0f / 3.0f * kPi * 0.125f;
  const auto b = sim.findBody("b");
  ASSERT_TRUE(b);
  EXPECT_NEAR(sim.bodies().state(b->index).linearVelocity.x, 2.0f / mass, 1e-6f);
}

TEST_F(ScriptApiTest, PositionAndVelocityReadAndWrite) {
  write("s.lua",
        "function on_start()\n"
        "  local b = scene.node('b')\n"
        "  b.position = vec3(1, 2, 3)\n"
        "  b.velocity = {0, 0, 4}\n"
        "  log(b.name, b.position.y, b.velocity.z)\n"
        "  local ok, err = pcall(function() scene.node('floor').velocity = vec3(1, 0, 0) end)\n"
        "  log(err)\n"
        "end\n");
  physics::Simulation& sim =
      build(document({ball("b", {0, 0, 0}, 0.5f), staticBox("floor", {0, -5, 0}, {1, 1, 1}, "a")},
                     Json::array({{{"file", "s.lua"}}}), {0.0, 0.0, 0.0}));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  const auto lines = logs(sim);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "b 2.0 4.0");
  EXPECT_NE(lines[1].find("writable for dynamic bodies and characters only"), std::string::npos)
      << lines[1];
  const auto b = sim.findBody("b");
  // One tick at 4 m/s along z, no gravity.
  EXPECT_NEAR(sim.bodies().state(b->index).position.z, 3.0f + 4.0f / 60.0f, 1e-5f);
}

TEST_F(ScriptApiTest, RaycastAndClosestAnswerAsTheQueryProtocol) {
  write("s.lua",
        "local hit = world.raycast(vec3(0.5, 5, 0), {0, -1, 0}, 100)\n"
        "log(hit.hit, hit.node, hit.material, string.format('%.4f', hit.distance), hit.normal.y)\n"
        "local near = world.closest({0, 3, 0})\n"
        "log(near.node, string.format('%.4f', near.distance))\n"
        "local miss = world.raycast(vec3(0, 5, 0), vec3(0, 1, 0), 10)\n"
        "log(miss.hit, miss.node)\n"
        "local s = world.spherecast(vec3(0.5, 5, 0), vec3(0, -1, 0), 0.5)\n"
        "log(string.format('%.3f', s.distance))\n");
  physics::Simulation& sim = build(document({staticBox("floor", {0, -1, 0}, {4, 1, 4}, "b")},
                                            Json::array({{{"file", "s.lua"}}})));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  const auto lines = logs(sim);
  ASSERT_EQ(lines.size(), 4u);
  // A field collider has no material slots: material is nil (read lazily, as the CLI's null).
  EXPECT_EQ(lines[0], "true floor nil 5.0000 1.0");
  EXPECT_EQ(lines[1], "floor 3.0000");
  EXPECT_EQ(lines[2], "false nil");
  EXPECT_NEAR(std::stof(lines[3]), 4.5f, 2e-3f);
}

TEST_F(ScriptApiTest, BlendIntoRampsKLinearlyThenHolds) {
  write("s.lua",
        "function on_start()\n"
        "  matter.blend_into('door', 'wall', {k_from = 0.0, k_to = 0.8, seconds = 2.0})\n"
        "end\n");
  const Json door = staticBox("door", {0, 0, 0}, {0.5f, 1, 1}, "a");
  const Json wall = staticBox("wall", {1.0f, 0, 0}, {0.5f, 1, 1}, "b");
  physics::Simulation& sim = build(document({door, wall}, Json::array({{{"file", "s.lua"}}})));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  ASSERT_TRUE(sim.world().find("door"));
  EXPECT_FALSE(sim.world().find("wall"));  // one composed collider, named by the first node
  // The field the scene composes with a constant merge k, for comparison.
  auto sc = scene::buildScene(document({door, wall}));
  ASSERT_TRUE(sc);
  auto composedWith = [&](float k) {
    scene::Scene copy = sc.value();
    for (const auto& [a, b] : {std::pair{1, 2}, std::pair{2, 1}}) {
      scene::Interaction rule;
      rule.a = field::MaterialIndex(a);
      rule.b = field::MaterialIndex(b);
      rule.rule = scene::InteractionRule::Merge;
      rule.k = k;
      copy.interactions.push_back(rule);
    }
    const int nodes[] = {0, 1};
    auto program = field::FieldProgram::compile(scene::composeNodes(copy, nodes));
    EXPECT_TRUE(program);
    return std::move(program.value());
  };
  // Probe above the seam, where a smooth union bulges out.
  const Vec3 probe(0.5f, 1.15f, 0.0f);
  for (const auto& [t, k] : {std::pair{0.0, 0.0f}, std::pair{0.5, 0.2f}, std::pair{1.0, 0.4f},
                             std::pair{2.0, 0.8f}, std::pair{5.0, 0.8f}}) {
    const float expected = composedWith(k).distance(probe, 0.0);
    EXPECT_NEAR(sim.world().distance(probe, t), expected, 1e-5f) << "t = " << t;
  }
  // At k = 0 the merge is the hard union: 0.15 m above the boxes' shared top.
  EXPECT_NEAR(sim.world().distance(probe, 0.0), 0.15f, 1e-5f);
  EXPECT_LT(sim.world().distance(probe, 2.0), 0.15f - 0.01f);
}

TEST_F(ScriptApiTest, SetParameterRebuildsTheNodesCollider) {
  write("s.lua",
        "function on_start()\n"
        "  log(world.closest({0, 5, 0}).distance)\n"
        "  scene.node('orb'):set_parameter('radius', 2)\n"
        "  log(world.closest({0, 5, 0}).distance)\n"
        "  log(select(2, pcall(function() scene.node('orb'):set_parameter('nope', 1) end)))\n"
        "  log(select(2, pcall(function() scene.node('orb'):set_parameter('radius', -1) end)))\n"
        "end\n");
  Json orb{{"name", "orb"},
           {"shape", {{"type", "sphere"}, {"radius", 1.0}}},
           {"material", "a"},
           {"collider", {{"body", "static"}}}};
  physics::Simulation& sim = build(document({orb}, Json::array({{{"file", "s.lua"}}})));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  const auto lines = logs(sim);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "4.0");  // |p| - r
  EXPECT_EQ(lines[1], "3.0");
  EXPECT_NE(lines[2].find("s.lua:5: set_parameter: 'nope' names no parameter"), std::string::npos)
      << lines[2];
  EXPECT_NE(lines[3].find("set_parameter: "), std::string::npos) << lines[3];
  EXPECT_NEAR(sim.world().distance(Vec3(0, 5, 0), 0.0), 3.0f, 1e-6f);  // the refusal kept r = 2
}

TEST_F(ScriptApiTest, KinematicNodePositionMovesItsCollider) {
  write("s.lua",
        "function on_tick(tick)\n"
        "  if tick == 1 then scene.node('lift').position = vec3(0, 2, 0) end\n"
        "  log(string.format('%.4f', world.closest({0, 5, 0}).distance))\n"
        "end\n");
  Json lift = staticBox("lift", {0, 0, 0}, {1, 0.5f, 1}, "a");
  lift["collider"]["body"] = "kinematic";
  physics::Simulation& sim = build(document({lift}, Json::array({{{"file", "s.lua"}}})));
  sim.step();
  sim.step();
  ASSERT_EQ(failure(sim), "");
  // The box's top from y = 0.5 to y = 2.5.
  EXPECT_EQ(logs(sim), (std::vector<std::string>{"4.5000", "2.5000"}));
}

TEST_F(ScriptApiTest, RotationIsWrittenForBodiesAndKinematicNodes) {
  // A bar 4 m long along x, turned a quarter about z at tick 1: it then stands along y.
  write("s.lua",
        "local h = math.sqrt(0.5)\n"
        "function on_tick(tick)\n"
        "  if tick == 1 then\n"
        "    scene.node('bar').rotation = {x = 0, y = 0, z = 2 * h, w = 2 * h}\n"
        "    scene.node('b').rotation = {x = 0, y = h, z = 0, w = h}\n"
        "    local r = scene.node('b').rotation\n"
        "    log(string.format('%.6f %.6f %.6f %.6f', r.x, r.y, r.z, r.w))\n"
        "  end\n"
        "  log(string.format('%.4f %.4f', world.closest({0, 1.5, 0}).distance,\n"
        "                    world.closest({1.5, 0, 0}).distance))\n"
        "  if tick == 2 then scene.node('floor').rotation = {x = 0, y = 0, z = 0, w = 1} end\n"
        "end\n");
  Json bar = staticBox("bar", {0, 0, 0}, {2, 0.1f, 0.1f}, "a");
  bar["collider"]["body"] = "kinematic";
  physics::Simulation& sim = build(
      document({bar, ball("b", {0, 10, 0}, 0.5f), staticBox("floor", {0, -9, 0}, {1, 1, 1}, "b")},
               Json::array({{{"file", "s.lua"}}})));
  for (int i = 0; i < 3; ++i) sim.step();
  // Before: 1.5 m above the bar's middle is 1.4 m off its top, 1.5 m along it is inside
  // (0.1 m from its faces); after (the bar's quaternion was written twice unit length, and
  // normalized), the other way round. The body reads back the rotation it was given.
  EXPECT_EQ(logs(sim), (std::vector<std::string>{"1.4000 -0.1000",
                                                 "0.000000 0.707107 0.000000 "
                                                 "0.707107",
                                                 "-0.1000 1.4000", "-0.1000 1.4000"}));
  EXPECT_EQ(failure(sim),
            "s.lua:11: floor.rotation: writable for dynamic bodies and kinematic nodes only "
            "(tick 2)");
}

TEST_F(ScriptApiTest, AlignToFieldOffKeepsACharactersUp) {
  write("s.lua",
        "function on_start()\n"
        "  gravity.align_to_field('walker', false)\n"
        "  gravity.set_mode('walker', 'global', {direction = {1, 0, 0}})\n"
        "end\n");
  Json walker{{"name", "walker"},
              {"transform", {{"position", {0, 50, 0}}}},
              {"character", {{"radius", 0.3}, {"height", 1.8}}}};
  physics::Simulation& sim = build(document({walker}, Json::array({{{"file", "s.lua"}}})));
  for (int i = 0; i < 30; ++i) sim.step();
  ASSERT_EQ(failure(sim), "");
  EXPECT_EQ(sim.characters()[0].state().up, Vec3(0, 1, 0));
  EXPECT_EQ(sim.characters()[0].desc().alignRate, 0.0f);
}

TEST_F(ScriptApiTest, SetTierKeepsTheSceneTierAndSetStickyTunesAViscoBody) {
  write("s.lua",
        "log(pcall(matter.set_tier, 'b', 'rigid'))\n"
        "local ok, err = pcall(matter.set_tier, 'b', 'visco')\n"
        "log(ok, err)\n"
        "log(pcall(matter.set_tier, 'goo', 'visco'))\n"
        "ok, err = pcall(matter.set_sticky, 'b', {strength = 0.7})\n"
        "log(ok, err)\n"
        "log(pcall(matter.set_sticky, 'goo', {strength = 0.7, break_strain = 2.5}))\n"
        "ok, err = pcall(matter.set_sticky, 'goo', {strength = 1.5})\n"
        "log(ok, err)\n"
        "log(pcall(matter.set_tier, 'b', 'jelly'))\n");
  Json goo = {{"name", "goo"},
              {"transform", {{"position", {3.0, 0.0, 0.0}}}},
              {"shape", {{"type", "sphere"}, {"radius", 0.5}}},
              {"material", "a"},
              {"matter", {{"tier", "visco"}, {"particles", 64}, {"substeps", 2}}}};
  physics::Simulation& sim =
      build(document({ball("b", {0, 0, 0}, 0.5f), goo}, Json::array({{{"file", "s.lua"}}})));
  sim.step();
  ASSERT_EQ(failure(sim), "");
  const auto lines = logs(sim);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0], "true");
  EXPECT_NE(lines[1].find("'b' is rigid; changing a node's tier"), std::string::npos) << lines[1];
  EXPECT_EQ(lines[2], "true");
  EXPECT_NE(lines[3].find("'b' is not a visco body"), std::string::npos) << lines[3];
  EXPECT_EQ(lines[4], "true");
  EXPECT_NE(lines[5].find("strength must be in [0, 1]"), std::string::npos) << lines[5];
  EXPECT_NE(lines[6].find("unknown tier 'jelly'"), std::string::npos) << lines[6];
  // The accepted call took effect on the body; the refused one changed nothing.
  auto* stage = dynamic_cast<matter::SoftBodyStage*>(sim.matterStage());
  ASSERT_NE(stage, nullptr);
  ASSERT_EQ(stage->bodies().size(), 1u);
  EXPECT_EQ(stage->bodies()[0].desc().viscoKnobs.stickiness, 0.7f);
  EXPECT_EQ(stage->bodies()[0].desc().viscoKnobs.breakStrain, 2.5f);
}

TEST_F(ScriptApiTest, OnContactFiresOnceWhenABodyLands) {
  write("ball.lua",
        "function on_contact(node, other, contact)\n"
        "  log(scene.tick(), node.name, other.name, contact.normal.y)\n"
        "end\n");
  Json falling = ball("ball", {0, 1.0f, 0}, 0.5f);
  falling["script"] = {{"file", "ball.lua"}};
  physics::Simulation& sim =
      build(document({falling, staticBox("floor", {0, -1, 0}, {4, 1, 4}, "b")}));
  std::vector<std::string> all;
  for (int i = 0; i < 120; ++i) {
    sim.step();
    for (std::string& line : logs(sim)) all.push_back(std::move(line));
  }
  ASSERT_EQ(failure(sim), "");
  ASSERT_EQ(all.size(), 1u);
  // It falls 0.5 m: sqrt(2 h / g) = 0.32 s, about tick 19.
  int tick = 0;
  char self[16] = {}, other[16] = {};
  float ny = 0;
  ASSERT_EQ(std::sscanf(all[0].c_str(), "%d %15s %15s %f", &tick, self, other, &ny), 4) << all[0];
  EXPECT_NEAR(tick, 19, 3);
  EXPECT_STREQ(self, "ball");
  EXPECT_STREQ(other, "floor");
  EXPECT_NEAR(ny, 1.0f, 1e-3f);
}

TEST_F(ScriptApiTest, LogCarriesTickAndNode) {
  write("n.lua", "function on_tick(tick, dt) log('tick', tick, string.format('%.6f', dt)) end\n");
  Json node = ball("b", {0, 0, 0}, 0.5f);
  node["script"] = {{"file", "n.lua"}};
  physics::Simulation& sim = build(document({node}));
  sim.step();
  sim.step();
  auto entries = scriptStageOf(sim)->takeLogs();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].tick, 1u);
  EXPECT_EQ(entries[1].node, "b");
  EXPECT_EQ(entries[1].text, "tick 1 0.016667");
}

TEST_F(ScriptApiTest, InputReadsTheTicksControls) {
  write("s.lua", "function on_tick(tick) log(tick, input.move('walker')) end\n");
  Json walker{{"name", "walker"},
              {"transform", {{"position", {0, 1, 0}}}},
              {"character", {{"radius", 0.3}, {"height", 1.8}}}};
  physics::Simulation& sim =
      build(document({walker, staticBox("floor", {0, -1, 0}, {4, 1, 4}, "b")},
                     Json::array({{{"file", "s.lua"}}})));
  physics::InputEvent e;
  e.tick = 1;
  e.node = "walker";
  e.move = Vec2(0.5f, -0.25f);
  sim.setInputEvents({e});
  sim.step();
  sim.step();
  // Scripts run after the tick's inputs: tick 1 already sees its move.
  EXPECT_EQ(logs(sim), (std::vector<std::string>{"0 0.0 0.0", "1 0.5 -0.25"}));
}

TEST_F(ScriptApiTest, UnknownNodeIsAnErrorNamingFileLineAndTick) {
  write("s.lua", "function on_tick(tick)\n  if tick == 2 then scene.node('ghost') end\nend\n");
  physics::Simulation& sim = build(document(Json::array(), Json::array({{{"file", "s.lua"}}})));
  for (int i = 0; i < 4; ++i) sim.step();
  EXPECT_EQ(failure(sim), "s.lua:2: scene.node: no node 'ghost' in the scene (tick 2)");
}

TEST_F(ScriptApiTest, SameSceneSameHashAndRestoreKeepsScriptGlobals) {
  write("s.lua",
        "n = 0\n"
        "function on_tick(tick)\n"
        "  n = n + 1\n"
        "  if tick == 5 then scene.node('b'):apply_impulse(vec3(0, 50, 0)) end\n"
        "  log(n)\n"
        "end\n");
  const Json doc =
      document({ball("b", {0, 0, 0}, 0.5f), staticBox("floor", {0, -2, 0}, {4, 1, 4}, "b")},
               Json::array({{{"file", "s.lua"}}}));
  physics::Simulation& a = build(doc);
  physics::Simulation& b = build(doc);
  for (int i = 0; i < 30; ++i) a.step(), b.step();
  EXPECT_EQ(a.stateHash(), b.stateHash());
  // Save at 30, run on, restore: the simulation is back, the script's globals are not (the
  // documented limit: Lua state is outside the snapshot).
  const physics::SimulationState saved = a.save();
  const std::uint64_t hashAt30 = a.stateHash();
  for (int i = 0; i < 10; ++i) a.step();
  logs(a);
  a.restore(saved);
  EXPECT_EQ(a.stateHash(), hashAt30);
  a.step();
  EXPECT_EQ(logs(a), std::vector<std::string>{"41"});
}

}  // namespace
}  // namespace floptle::runtime::test
