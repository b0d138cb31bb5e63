// `floptle import` of the level Blender 3.4 wrote (tests/data/blender, see make_fixtures.py
// there: regenerate with `env -i PATH=/usr/bin:/bin HOME=$HOME blender -b --factory-startup
// --python tests/data/blender/make_fixtures.py -- tests/data/blender`; the tests need no
// Blender): one node per object, and `floptle query` rays hit each object's node with its slot
// name, null for Suzanne, in glTF, FBX and OBJ alike.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../unit/mesh_test_files.h"
#include "cli_test_support.h"

namespace {

const std::filesystem::path kDir = std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender";

using floptle::cli_test::runCli;
using floptle::cli_test::slurp;

/// Every node of the scene by name, and each one's parent's name ("" at the top).
void collect(const nlohmann::json& nodes, const std::string& parent,
             std::map<std::string, std::string>& parents) {
  for (const auto& node : nodes) {
    parents[node["name"].get<std::string>()] = parent;
    if (node.contains("children"))
      collect(node["children"], node["name"].get<std::string>(), parents);
  }
}

struct Ray {
  const char* what;
  float origin[3];
  float dir[3];
  const char* node;
  const char* material;  // null: the hit names no material
  double distance;       // (m)
};

// World positions (+Y up) from level.expected.json: the block's top at y = 2, the child cube
// (1 m) centred at (-2.585786, 0.5, -1.414214), CrateB at (3, 0.5, -5), the wall's top at y = 2.
const Ray kRays[] = {
    {"block top", {0.3f, 10, 0.2f}, {0, -1, 0}, "Block", "Grass", 8.0},
    {"block side", {-10, 1, 0.3f}, {1, 0, 0}, "Block", "Brick", 9.0},
    {"suzanne", {4, 1.2f, 10}, {0, 0, -1}, "Suzanne", nullptr, -1.0},
    {"child", {-2.585786f, 10, -1.414214f}, {0, -1, 0}, "Child", "Stone", 9.0},
    {"crate a", {0, 10, -5}, {0, -1, 0}, "CrateA", "Wood", 9.0},
    {"crate b", {3, 10, -5}, {0, -1, 0}, "CrateB", "Wood", 9.0},
    {"wall", {0, 10, 5}, {0, -1, 0}, "Wall", "Stone", 8.0},
};

class CliImportBlender : public ::testing::TestWithParam<const char*> {};

TEST_P(CliImportBlender, EachObjectIsANodeAndRaysNameItsNodeAndSlot) {
  const std::string ext = GetParam();
  const auto dir = floptle::testing::makeTempDir("cli_import_blender");
  const auto out = dir / "level.json";
  ASSERT_EQ(
      runCli("import \"" + (kDir / ("level" + ext)).string() + "\" --out \"" + out.string() + "\"",
             dir / "err.txt"),
      0)
      << slurp(dir / "err.txt");
  const auto scene = nlohmann::json::parse(slurp(out));
  std::map<std::string, std::string> parents;
  collect(scene["nodes"], "", parents);
  const bool hierarchy = ext != ".obj";
  std::map<std::string, std::string> expected = {
      {"level", ""},       {"Block", "level"},  {"Suzanne", "level"}, {"Child", "Pivot"},
      {"CrateA", "level"}, {"CrateB", "level"}, {"Wall", "level"},    {"Pivot", "level"}};
  if (!hierarchy) expected.erase("Pivot"), expected["Child"] = "level";  // OBJ has no empties
  EXPECT_EQ(parents, expected) << scene.dump(1);

  std::string queries;
  for (const Ray& r : kRays) {
    nlohmann::json q = {{"op", "raycast"},
                        {"origin", {r.origin[0], r.origin[1], r.origin[2]}},
                        {"dir", {r.dir[0], r.dir[1], r.dir[2]}},
                        {"max", 50}};
    queries += q.dump() + "\n";
  }
  floptle::testing::writeText(dir / "q.txt", queries);
  ASSERT_EQ(runCli("query \"" + out.string() + "\" < \"" + (dir / "q.txt").string() + "\" > \"" +
                       (dir / "a.txt").string() + "\"",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  std::istringstream answers(slurp(dir / "a.txt"));
  for (const Ray& r : kRays) {
    std::string line;
    ASSERT_TRUE(std::getline(answers, line)) << r.what;
    const auto a = nlohmann::json::parse(line);
    ASSERT_TRUE(a["hit"].get<bool>()) << ext << " " << r.what << ": " << line;
    EXPECT_EQ(a["node"], r.node) << ext << " " << r.what << ": " << line;
    if (r.material) {
      EXPECT_EQ(a["material"], r.material) << ext << " " << r.what << ": " << line;
    } else {
      EXPECT_TRUE(a["material"].is_null()) << ext << " " << r.what << ": " << line;
    }
    if (r.distance >= 0) {
      EXPECT_NEAR(a["distance"].get<double>(), r.distance, 1e-4) << ext << " " << r.what;
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_P(CliImportBlender, MergeMakesOneNodeAndSkipLeavesObjectsOut) {
  const std::string ext = GetParam();
  const auto dir = floptle::testing::makeTempDir("cli_import_blender_opts");
  const auto mesh = (kDir / ("level" + ext)).string();
  const auto out = dir / "level.json";
  ASSERT_EQ(
      runCli("import \"" + mesh + "\" --merge --out \"" + out.string() + "\"", dir / "err.txt"), 0)
      << slurp(dir / "err.txt");
  auto scene = nlohmann::json::parse(slurp(out));
  ASSERT_EQ(scene["nodes"].size(), 1u);
  EXPECT_EQ(scene["nodes"][0]["name"], "level");
  EXPECT_FALSE(scene["nodes"][0]["mesh"].contains("object"));
  EXPECT_FALSE(scene["nodes"][0].contains("children"));
  // Suzanne's faces are in no slot: the merged mesh names no invented slot for them.
  for (const auto& m : scene["materials"]) {
    EXPECT_NE(m["name"], "DefaultMaterial");
    EXPECT_NE(m["name"].get<std::string>().rfind("slot", 0), 0u) << m["name"];
  }

  ASSERT_EQ(runCli("import \"" + mesh + "\" --skip \"Crate*\" --skip Suzanne --out \"" +
                       out.string() + "\"",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  scene = nlohmann::json::parse(slurp(out));
  std::map<std::string, std::string> parents;
  collect(scene["nodes"], "", parents);
  EXPECT_FALSE(parents.count("CrateA") || parents.count("CrateB") || parents.count("Suzanne"))
      << scene.dump(1);
  EXPECT_TRUE(parents.count("Block"));
  EXPECT_EQ(runCli("import \"" + mesh + "\" --collide sometimes --out \"" + out.string() + "\"",
                   dir / "err.txt"),
            2);
  std::filesystem::remove_all(dir);
}

/// The node called `name` anywhere under `nodes`, or null.
nlohmann::json* findNode(nlohmann::json& nodes, const std::string& name) {
  for (auto& node : nodes) {
    if (node["name"] == name) return &node;
    if (node.contains("children"))
      if (auto* found = findNode(node["children"], name)) return found;
  }
  return nullptr;
}

TEST(CliImportBlenderDynamic, AnObjectMadeDynamicFallsAsABoxOverItsMeshAndRestsOnTheGround) {
  const auto dir = floptle::testing::makeTempDir("cli_import_blender_dynamic");
  const auto out = dir / "level.json";
  ASSERT_EQ(
      runCli("import \"" + (kDir / "level.glb").string() + "\" --out \"" + out.string() + "\"",
             dir / "err.txt"),
      0)
      << slurp(dir / "err.txt");
  auto scene = nlohmann::json::parse(slurp(out));
  // CrateB (a 1 m cube turned 30 deg about +Y) lifted to y = 3 and made dynamic, over a ground
  // plane at y = 0: it falls and rests with its centre half its height up, y = 0.5 m.
  nlohmann::json* crate = findNode(scene["nodes"], "CrateB");
  ASSERT_NE(crate, nullptr);
  (*crate)["transform"]["position"][1] = 3.0;
  (*crate)["collider"]["body"] = "dynamic";
  scene["nodes"].push_back({{"name", "ground"},
                            {"shape", {{"type", "plane"}, {"normal", {0, 1, 0}}}},
                            {"material", "Stone"},
                            {"collider", {{"body", "static"}}}});
  floptle::testing::writeText(out, scene.dump(1));
  const auto trace = dir / "trace.jsonl";
  ASSERT_EQ(runCli("simulate \"" + out.string() + "\" --ticks 180 --trace \"" + trace.string() +
                       "\" > /dev/null",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  std::istringstream lines(slurp(trace));
  std::string line, last;
  while (std::getline(lines, line))
    if (!line.empty()) last = line;
  const auto state = nlohmann::json::parse(last);
  ASSERT_TRUE(state["nodes"].contains("CrateB")) << last;
  const auto& body = state["nodes"]["CrateB"];
  EXPECT_NEAR(body["position"][1].get<double>(), 0.5, 0.01) << last;
  EXPECT_NEAR(body["position"][0].get<double>(), 3.0, 0.05) << last;
  EXPECT_NEAR(body["position"][2].get<double>(), -5.0, 0.05) << last;
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Formats, CliImportBlender, ::testing::Values(".glb", ".fbx", ".obj"),
                         [](const auto& info) { return std::string(info.param).substr(1); });

}  // namespace
