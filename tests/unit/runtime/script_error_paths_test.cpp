// The scripts' API on bad arguments: each error is a Lua error that names where (the
// calling script's file:line) and what (the function, argument, node or key), the script can
// catch it with pcall and go on, and nothing leaks. The cases raise while the API function
// holds C++ objects that own memory (strings longer than the small-string buffer, a copy of
// the node's shape, an Error): Lua errors must unwind them (lua_vm.h, "Errors"), which the
// sanitized suite checks with LeakSanitizer at the program's exit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "script_test_support.h"

namespace floptle::runtime::test {
namespace {

using Json = nlohmann::ordered_json;

class ScriptErrorPathsTest : public ScriptTest {};

/// Whether `text` starts with `prefix`.
bool startsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

TEST_F(ScriptErrorPathsTest, BadArgumentsAreLuaErrorsNamingTheLineTheFunctionAndTheArgument) {
  // Line numbers below are the script's (e.lua).
  write("e.lua",
        "local function try(f) local ok, e = pcall(f); log(ok and 'no error' or e) end\n"
        "function on_start()\n"
        "  local orb = scene.node('orb')\n"
        "  try(function() orb:set_parameter('children/0/a_parameter_longer_than_sso', 1) end)\n"
        "  try(function() orb:set_parameter('children/99999999999999999999999/radius', 1) end)\n"
        "  try(function() orb:set_parameter('radius', -1) end)\n"
        "  try(function() orb:set_parameter('radius', 'two metres') end)\n"
        "  try(function() orb:set_parameter({}, 1) end)\n"
        "  try(function() orb.a_field_name_longer_than_sso = {0, 0, 0} end)\n"
        "  try(function() return orb.another_field_name_longer_than_sso end)\n"
        "  try(function() orb.a_position_key_longer_than_sso = {1, 'y', 3} end)\n"
        "  try(function() scene.node('a_node_name_that_is_not_in_the_scene') end)\n"
        "  orb:set_parameter('radius', 2)\n"
        "  log(world.closest({0, 5, 0}).distance)\n"
        "end\n");
  const Json orb{{"name", "orb"},
                 {"shape", {{"type", "sphere"}, {"radius", 1.0}}},
                 {"material", "a"},
                 {"collider", {{"body", "static"}}}};
  physics::Simulation& sim = build(document(orb, Json::array({{{"file", "e.lua"}}})));
  sim.step();
  ASSERT_EQ(failure(sim), "");  // every error was caught by the script's pcall
  const std::vector<std::string> lines = logs(sim);
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_EQ(lines[0],
            "e.lua:4: set_parameter: 'children/0/a_parameter_longer_than_sso' names no "
            "parameter of orb's shape");
  // A child index too large for any count names no parameter either (it is no C++ exception).
  EXPECT_EQ(lines[1],
            "e.lua:5: set_parameter: 'children/99999999999999999999999/radius' names no "
            "parameter of orb's shape");
  // The shape's validation: where in the document and which parameter.
  EXPECT_TRUE(startsWith(lines[2], "e.lua:6: set_parameter: /nodes/0/shape")) << lines[2];
  EXPECT_NE(lines[2].find("radius"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[3], "e.lua:7: bad argument #2 to 'set_parameter' (number expected, got string)");
  EXPECT_EQ(lines[4], "e.lua:8: bad argument #1 to 'set_parameter' (string expected, got table)");
  EXPECT_EQ(lines[5],
            "e.lua:9: node 'orb': 'a_field_name_longer_than_sso' cannot be set (position, "
            "velocity and rotation can)");
  EXPECT_EQ(lines[6], "e.lua:10: node 'orb' has no field 'another_field_name_longer_than_sso'");
  EXPECT_EQ(lines[7], "e.lua:11: argument 3: a vector table needs three numbers {x, y, z}");
  EXPECT_EQ(lines[8],
            "e.lua:12: scene.node: no node 'a_node_name_that_is_not_in_the_scene' in "
            "the scene");
  // After the errors the API works and the refused changes changed nothing: |p| - r, r = 2.
  EXPECT_EQ(lines[9], "3.0");
  EXPECT_NEAR(sim.world().distance(Vec3(0, 5, 0), 0.0), 3.0f, 1e-6f);
}

TEST_F(ScriptErrorPathsTest, TheInstructionBudgetNamesALongFileAndItsLine) {
  // The hook raises with the "file:line" it built (longer than the small-string buffer).
  const std::string file = "scripts/a_script_file_with_a_long_name.lua";
  write(file,
        "function on_tick()\n"
        "  while true do end\n"
        "end\n");
  physics::Simulation& sim = build(document(Json::array(), Json::array({{{"file", file}}})));
  sim.step();
  const std::string f = failure(sim);
  EXPECT_TRUE(startsWith(f, file + ":2: instruction budget of ")) << f;
}

}  // namespace
}  // namespace floptle::runtime::test
