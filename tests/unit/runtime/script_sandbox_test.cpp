// The scripts' sandbox and limits: no io/os/package/debug, no bytecode, files only from the
// scene's folder, math.random from the scene, and a runaway loop or allocation stopped with
// its file, line and tick.
#include <gtest/gtest.h>

#include "script_test_support.h"

namespace floptle::runtime::test {
namespace {

using Json = nlohmann::ordered_json;

class ScriptSandboxTest : public ScriptTest {
 protected:
  /// Builds a scene whose one scene-level script is `text` and runs `ticks`.
  physics::Simulation& runScript(const std::string& text, int ticks = 1) {
    write("s.lua", text);
    physics::Simulation& sim = build(document(Json::array(), Json::array({{{"file", "s.lua"}}})));
    for (int i = 0; i < ticks; ++i) sim.step();
    return sim;
  }
};

TEST_F(ScriptSandboxTest, DangerousLibrariesAreAbsent) {
  physics::Simulation& sim = runScript(
      "log(type(io), type(os), type(package), type(debug), type(string.dump),\n"
      "    type(loadfile), type(collectgarbage), type(print))\n");
  EXPECT_EQ(failure(sim), "");
  EXPECT_EQ(logs(sim), std::vector<std::string>{"nil nil nil nil nil nil nil nil"});
}

TEST_F(ScriptSandboxTest, BytecodeIsRefusedSourceTextLoads) {
  physics::Simulation& sim = runScript(
      "local f, err = load('\\27Lua' .. string.rep('x', 40))\n"
      "log(tostring(f), err)\n"
      "log(load('return 1 + 2')())\n"
      "local g, e2 = load('return 1', 'chunk', 'b')\n"
      "log(tostring(g), e2)\n");
  EXPECT_EQ(failure(sim), "");
  const auto lines = logs(sim);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find("attempt to load a binary chunk"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1], "3");
  // Mode 'b' asked: the sandbox's load reads text whatever the mode, so source still loads.
  EXPECT_EQ(lines[2].rfind("function", 0), 0u) << lines[2];
}

TEST_F(ScriptSandboxTest, DofileOutsideTheSceneFolderIsRefused) {
  std::ofstream(root_ / "outside.lua") << "return 42\n";
  physics::Simulation& sim = runScript("local v = dofile('../outside.lua')\nlog(v)\n");
  const std::string f = failure(sim);
  EXPECT_NE(f.find("s.lua:1:"), std::string::npos) << f;
  EXPECT_NE(f.find("outside the scene's folder"), std::string::npos) << f;
  EXPECT_TRUE(logs(sim).empty());
}

TEST_F(ScriptSandboxTest, AbsolutePathsAreRefused) {
  std::ofstream(root_ / "outside.lua") << "return 42\n";
  physics::Simulation& sim = runScript("dofile('" + (root_ / "outside.lua").string() + "')\n");
  EXPECT_NE(failure(sim).find("relative to the scene's folder"), std::string::npos) << failure(sim);
}

TEST_F(ScriptSandboxTest, RequireAndDofileReadTheSceneFolder) {
  write("lib/helper.lua", "local M = {}\nfunction M.twice(x) return 2 * x end\nreturn M\n");
  write("data.lua", "return 7\n");
  physics::Simulation& sim = runScript(
      "local h = require('lib.helper')\n"
      "log(h.twice(21), dofile('data.lua'), require('lib.helper') == h)\n");
  EXPECT_EQ(failure(sim), "");
  EXPECT_EQ(logs(sim), std::vector<std::string>{"42 7 true"});
}

TEST_F(ScriptSandboxTest, RequireOutsideTheFolderIsRefused) {
  std::ofstream(root_ / "evil.lua") << "return 1\n";
  physics::Simulation& sim = runScript("require('..evil')\n");
  EXPECT_NE(failure(sim), "");
  EXPECT_TRUE(logs(sim).empty());
}

TEST_F(ScriptSandboxTest, MathRandomIsSeededFromTheScene) {
  const std::string text = "log(math.random(1, 1000000000), math.random())\n";
  physics::Simulation& a = runScript(text);
  physics::Simulation& b = runScript(text);
  const auto first = logs(a);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first, logs(b));
}

TEST_F(ScriptSandboxTest, RunawayLoopIsStoppedNamingItsLineAndTick) {
  physics::Simulation& sim = runScript(
      "function on_tick(tick)\n"
      "  if tick < 2 then return end\n"
      "  while true do end\n"
      "end\n",
      4);
  ScriptStage* stage = scriptStageOf(sim);
  ASSERT_NE(stage, nullptr);
  ASSERT_TRUE(stage->failure());
  EXPECT_EQ(stage->failure()->tick, 2u);
  EXPECT_EQ(stage->failure()->message.rfind("s.lua:3: instruction budget", 0), 0u)
      << stage->failure()->message;
  EXPECT_EQ(sim.tick(), 4u);  // the simulation runs on; the scripts stopped
}

TEST_F(ScriptSandboxTest, RunawayAllocationIsStoppedNamingItsLine) {
  write("s.lua",
        "local t = {}\n"
        "function on_tick()\n"
        "  for i = 1, 100000 do t[#t + 1] = string.rep('x', 1000) .. i end\n"
        "end\n");
  const Json doc = document(Json::array(), Json::array({{{"file", "s.lua"}}}));
  auto sc = scene::buildScene(doc);
  ASSERT_TRUE(sc);
  ScriptStageLimits limits;
  limits.memoryBytes = std::size_t(8) << 20;
  auto stage = ScriptStage::build(sc.value(), doc["scripts"], dir_, 1, limits);
  ASSERT_TRUE(stage) << stage.error().message();
  physics::Simulation& sim = build(document(Json::array()));
  sim.setScriptStage(std::move(stage.value()));  // in place of none: this one's cap is 8 MB
  sim.step();
  const std::string f = failure(sim);
  EXPECT_EQ(f.rfind("s.lua:3: memory cap of 8388608 bytes exceeded", 0), 0u) << f;
  EXPECT_NE(f.find("tick 0"), std::string::npos) << f;
}

TEST_F(ScriptSandboxTest, SyntaxErrorIsABuildErrorNamingThePointer) {
  write("s.lua", "function on_tick(\n");
  auto sim = buildRuntime(document(Json::array(), Json::array({{{"file", "s.lua"}}})));
  ASSERT_FALSE(sim);
  EXPECT_EQ(sim.error().where, "/scripts/0/file");
  EXPECT_NE(sim.error().what.find("s.lua:2:"), std::string::npos) << sim.error().what;
}

TEST_F(ScriptSandboxTest, MissingScriptFileIsABuildError) {
  auto sim = buildRuntime(document(Json::array(), Json::array({{{"file", "none.lua"}}})));
  ASSERT_FALSE(sim);
  EXPECT_NE(sim.error().message().find("none.lua"), std::string::npos) << sim.error().message();
}

}  // namespace
}  // namespace floptle::runtime::test
