// `floptle import MESH --into SCENE.json` after Blender re-exported the file (tests/data/blender:
// level_v2.* has CrateA moved to (0, 7, 0.5) Blender, turned 90 deg, and Wall-col deleted;
// regenerate with `env -i PATH=/usr/bin:/bin HOME=$HOME blender -b --factory-startup --python
// tests/data/blender/make_fixtures.py -- tests/data/blender`; the tests need no Blender): the
// scene's subtree follows the file, the user's edits stay, the report names the removed node,
// and `floptle query` rays find the crate where Blender put it and no wall.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../unit/mesh_test_files.h"
#include "cli_test_support.h"

namespace {

const std::filesystem::path kDir = std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender";

using floptle::cli_test::runCli;
using floptle::cli_test::slurp;

nlohmann::json* findNode(nlohmann::json& nodes, const std::string& name) {
  for (auto& node : nodes) {
    if (node["name"] == name) return &node;
    if (node.contains("children"))
      if (auto* found = findNode(node["children"], name)) return found;
  }
  return nullptr;
}

void exportAs(const std::string& stem, const std::string& ext, const std::filesystem::path& dir) {
  std::filesystem::copy_file(kDir / (stem + ext), dir / ("level" + ext),
                             std::filesystem::copy_options::overwrite_existing);
  if (ext == ".obj")
    std::filesystem::copy_file(kDir / (stem + ".mtl"), dir / (stem + ".mtl"),
                               std::filesystem::copy_options::overwrite_existing);
}

class CliImportReload : public ::testing::TestWithParam<const char*> {};

TEST_P(CliImportReload, IntoASceneHoldingTheFileReloadsItKeepingTheEdits) {
  const std::string ext = GetParam();
  const auto dir = floptle::testing::makeTempDir("cli_import_reload");
  const auto mesh = (dir / ("level" + ext)).string();
  const auto scenePath = dir / "scene.json";
  exportAs("level", ext, dir);
  // --into a scene that is not there yet writes a new one.
  ASSERT_EQ(runCli("import \"" + mesh + "\" --into \"" + scenePath.string() + "\" > \"" +
                       (dir / "out.txt").string() + "\"",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  EXPECT_EQ(slurp(dir / "out.txt"), "") << "a first import reports no reload";

  auto scene = nlohmann::json::parse(slurp(scenePath));
  ASSERT_NE(findNode(scene["nodes"], "Wall"), nullptr) << scene.dump(1);
  (*findNode(scene["nodes"], "Suzanne"))["collider"]["body"] = "dynamic";
  auto& block = *findNode(scene["nodes"], "Block");
  block["material"] = "Stone";
  block["mesh"]["materials"][0] = "Stone";
  floptle::testing::writeText(scenePath, scene.dump(2));

  exportAs("level_v2", ext, dir);
  ASSERT_EQ(runCli("import \"" + mesh + "\" --into \"" + scenePath.string() + "\" > \"" +
                       (dir / "out.txt").string() + "\"",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  const std::string report = slurp(dir / "out.txt");
  // OBJ has no empties (no Pivot) and no transforms (the crate's vertices moved, not its node).
  const bool hierarchy = ext != ".obj";
  EXPECT_EQ(
      report.rfind("reload " + mesh + (hierarchy ? ": kept 6 (1 moved: CrateA)" : ": kept 5"), 0),
      0u)
      << report;
  EXPECT_NE(report.find(", added 0, removed 1 (Wall)\n"), std::string::npos) << report;

  scene = nlohmann::json::parse(slurp(scenePath));
  EXPECT_EQ(findNode(scene["nodes"], "Wall"), nullptr) << scene.dump(1);
  EXPECT_EQ((*findNode(scene["nodes"], "Suzanne"))["collider"]["body"], "dynamic");
  EXPECT_EQ((*findNode(scene["nodes"], "Block"))["mesh"]["materials"],
            nlohmann::json({"Stone", "Grass"}));
  ASSERT_EQ(scene["nodes"].size(), 1u) << "reloaded in place, not added again";

  // CrateA's top (a 1 m cube) is at y = 1 above (0, -7) now; the wall's old place is empty; the
  // block's sides are Stone in the scene, but a hit names the file's slot.
  const char* queries[] = {
      R"({"op": "raycast", "origin": [0, 10, -7], "dir": [0, -1, 0], "max": 50})",
      R"({"op": "raycast", "origin": [0, 10, 5], "dir": [0, -1, 0], "max": 50})",
      R"({"op": "raycast", "origin": [-10, 1, 0.3], "dir": [1, 0, 0], "max": 50})",
  };
  std::string text;
  for (const char* q : queries) text += std::string(q) + "\n";
  floptle::testing::writeText(dir / "q.txt", text);
  ASSERT_EQ(runCli("query \"" + scenePath.string() + "\" < \"" + (dir / "q.txt").string() +
                       "\" > \"" + (dir / "a.txt").string() + "\"",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  std::istringstream answers(slurp(dir / "a.txt"));
  std::string line;
  ASSERT_TRUE(std::getline(answers, line));
  auto a = nlohmann::json::parse(line);
  ASSERT_TRUE(a["hit"].get<bool>()) << line;
  EXPECT_EQ(a["node"], "CrateA") << line;
  EXPECT_NEAR(a["distance"].get<double>(), 9.0, 1e-4) << line;
  ASSERT_TRUE(std::getline(answers, line));
  a = nlohmann::json::parse(line);
  EXPECT_FALSE(a["hit"].get<bool>()) << "the wall is gone: " << line;
  ASSERT_TRUE(std::getline(answers, line));
  a = nlohmann::json::parse(line);
  ASSERT_TRUE(a["hit"].get<bool>()) << line;
  EXPECT_EQ(a["node"], "Block") << line;
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Formats, CliImportReload, ::testing::Values(".glb", ".fbx", ".obj"),
                         [](const auto& info) { return std::string(info.param).substr(1); });

TEST(CliImportInto, AddsTheFileToASceneThatDoesNotHoldIt) {
  const auto dir = floptle::testing::makeTempDir("cli_import_into");
  const auto scenePath = dir / "scene.json";
  floptle::testing::writeText(scenePath, R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "Stone", "color": [1, 0, 0], "density": 1000, "friction": 0.5,
                   "restitution": 0.5, "bulk_modulus": 1.0e9, "yield_strength": 1.0e7}], "interactions": [],
    "nodes": [{"name": "Block", "shape": {"type": "sphere", "radius": 1}}]})");
  ASSERT_EQ(runCli("import \"" + (kDir / "level.glb").string() + "\" --into \"" +
                       scenePath.string() + "\"",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  auto scene = nlohmann::json::parse(slurp(scenePath));
  ASSERT_EQ(scene["nodes"].size(), 2u) << scene.dump(1);
  EXPECT_EQ(scene["nodes"][1]["name"], "level");
  EXPECT_EQ(scene["nodes"][1]["import"]["file"],
            (kDir / "level.glb").lexically_relative(dir).generic_string());
  ASSERT_NE(findNode(scene["nodes"], "Block_2"), nullptr) << "the scene's Block keeps its name";
  EXPECT_EQ((*findNode(scene["nodes"], "Block_2"))["mesh"]["object"], "Block");
  EXPECT_EQ((*findNode(scene["nodes"], "Child"))["mesh"]["materials"], nlohmann::json({"Stone#2"}))
      << "the scene's own Stone is not the file's";

  ASSERT_NE(runCli("import \"" + (kDir / "level.glb").string() + "\" --into a.json --out b.json",
                   dir / "err.txt"),
            0);
  EXPECT_NE(slurp(dir / "err.txt").find("usage"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
