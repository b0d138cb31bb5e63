// `floptle simulate` runs a scene's Lua scripts: their log lines in the JSON trace, a script
// error exits 1 naming file, line and tick, gravity.sample agrees with `floptle query`, and
// scenes/scripted.json plays its three set pieces the same way in every run.
#include <nlohmann/json.hpp>

#include <sstream>

#include "cli_test_support.h"

namespace floptle::cli_test {
namespace {

class SimulateScript : public CliTest {
 protected:
  SimulateScript() : CliTest("simulate") {}

  /// The trace's log lines ({"tick", "node", "log"}), in order.
  static std::vector<nlohmann::json> logLines(const std::string& trace) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(trace);
    for (std::string line; std::getline(in, line);) {
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (!j.is_discarded() && j.contains("log")) lines.push_back(std::move(j));
    }
    return lines;
  }

  /// `floptle ARGUMENTS` (another subcommand), stdout and stderr captured.
  RunResult runCommand(const std::string& arguments) {
    const auto out = dir_ / "other-out.txt";
    const auto err = dir_ / "other-err.txt";
    const std::string command = std::string("'") + FLOPTLE_CLI + "' " + arguments + " >'" +
                                out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    RunResult result;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = slurp(out);
    result.err = slurp(err);
    return result;
  }

  std::string scene(const std::string& scripts, const std::string& nodes = "[]") {
    return write("scene.json", R"({"format": "floptle.scene", "version": 1, "materials": [],
      "interactions": [], "scripts": )" +
                                   scripts + R"(, "nodes": )" + nodes + "}");
  }
};

TEST_F(SimulateScript, LogLinesGoToTheTrace) {
  write("level.lua", "function on_tick(tick) if tick % 2 == 1 then log('odd', tick) end end\n");
  write("b.lua", "function on_start() log('hello from', self.name) end\n");
  const std::string path = scene(R"([{"file": "level.lua"}])", R"([{"name": "box",
      "shape": {"type": "sphere", "radius": 0.5}, "collider": {"body": "dynamic"},
      "script": {"file": "b.lua"}}])");
  const auto trace = (dir_ / "trace.jsonl").string();
  const RunResult r = run("'" + path + "' --ticks 4 --trace '" + trace + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto lines = logLines(slurp(trace));
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], nlohmann::json({{"tick", 0}, {"node", "box"}, {"log", "hello from box"}}));
  EXPECT_EQ(lines[1], nlohmann::json({{"tick", 1}, {"node", ""}, {"log", "odd 1"}}));
  EXPECT_EQ(lines[2], nlohmann::json({{"tick", 3}, {"node", ""}, {"log", "odd 3"}}));
}

TEST_F(SimulateScript, ScriptErrorExitsOneWithFileLineAndTick) {
  write("level.lua",
        "function on_tick(tick)\n"
        "  if tick == 3 then\n"
        "    local door = nil\n"
        "    door.open = true\n"
        "  end\n"
        "end\n");
  const RunResult r = run("'" + scene(R"([{"file": "level.lua"}])") + "' --ticks 10");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("floptle simulate: level.lua:4: attempt to index a nil value (local "
                       "'door') (tick 3)"),
            std::string::npos)
      << r.err;
}

TEST_F(SimulateScript, SyntaxErrorExitsOneNamingThePointerAndLine) {
  write("level.lua", "function on_tick(tick\n");
  const RunResult r = run("'" + scene(R"([{"file": "level.lua"}])") + "' --ticks 1");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("/scripts/0/file: level.lua:"), std::string::npos) << r.err;
}

TEST_F(SimulateScript, GravitySampleEqualsQueryGravity) {
  const std::string nodes = R"([{"name": "rock", "shape": {"type": "sphere", "radius": 2},
      "collider": {"body": "static"},
      "gravity_source": {"type": "planet", "strength": 7.5, "r_outer": 40}}])";
  write("level.lua",
        "local g = gravity.sample(vec3(3, -4, 12))\n"
        "log(string.format('%.9g %.9g %.9g', g.x, g.y, g.z))\n");
  const std::string path = scene(R"([{"file": "level.lua"}])", nodes);
  const auto trace = (dir_ / "trace.jsonl").string();
  const RunResult s = run("'" + path + "' --ticks 1 --trace '" + trace + "'");
  ASSERT_EQ(s.exitCode, 0) << s.err;
  const auto lines = logLines(slurp(trace));
  ASSERT_EQ(lines.size(), 1u);
  float sx = 0, sy = 0, sz = 0;
  ASSERT_EQ(std::sscanf(lines[0]["log"].get<std::string>().c_str(), "%f %f %f", &sx, &sy, &sz), 3);

  const auto queries = write("q.jsonl", R"({"op": "gravity", "p": [3, -4, 12]})"
                                        "\n");
  const RunResult q = runCommand("query '" + path + "' < '" + queries + "'");
  ASSERT_EQ(q.exitCode, 0) << q.err;
  const auto answer = nlohmann::json::parse(q.out);
  EXPECT_EQ(sx, answer["g"][0].get<float>());
  EXPECT_EQ(sy, answer["g"][1].get<float>());
  EXPECT_EQ(sz, answer["g"][2].get<float>());
  // And the closed form: 7.5 towards the centre, |p| = 13.
  EXPECT_NEAR(sz, -7.5f * 12.0f / 13.0f, 1e-5f);
}

TEST_F(SimulateScript, ScriptedSceneSetPiecesAndItsHash) {
  const std::string scenePath = std::string(FLOPTLE_SOURCE_DIR) + "/scenes/scripted.json";
  const std::string inputs = std::string(FLOPTLE_SOURCE_DIR) + "/scenes/scripted-inputs.json";
  const auto trace = (dir_ / "trace.jsonl").string();
  const std::string args =
      "'" + scenePath + "' --ticks 420 --inputs '" + inputs + "' --trace '" + trace + "'";
  const nlohmann::json result = runTwiceAgreeing(args);
  ASSERT_TRUE(result.contains("hash"));
  std::vector<std::string> texts;
  for (const auto& line : logLines(slurp(trace)))
    texts.push_back(line["node"].get<std::string>() + ": " + line["log"].get<std::string>());
  auto logged = [&](const std::string& prefix) {
    for (const std::string& t : texts)
      if (t.rfind(prefix, 0) == 0) return true;
    return false;
  };
  EXPECT_TRUE(logged(": level start")) << ::testing::PrintToString(texts);
  EXPECT_TRUE(logged("sticky_pad: player_blob is sticky")) << ::testing::PrintToString(texts);
  EXPECT_TRUE(logged("door: door blends into the wall")) << ::testing::PrintToString(texts);
  EXPECT_TRUE(logged("flip_pad: gravity flipped, g = 9.81")) << ::testing::PrintToString(texts);
  // After the flip the player falls up onto the ceiling (its underside at y = 6).
  const float y = result["nodes"]["player"]["position"][1].get<float>();
  EXPECT_GT(y, 4.0f);
  EXPECT_LT(y, 6.0f);
}

}  // namespace
}  // namespace floptle::cli_test
