// `floptle import MESH --out FILE.json`: a scene holding the mesh as one static node.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "../unit/mesh_test_files.h"
#include "cli_test_support.h"

namespace {

using floptle::cli_test::runCli;
using floptle::cli_test::slurp;

TEST(CliImport, WritesASceneWithTheMeshAsAStaticNode) {
  const auto dir = floptle::testing::makeTempDir("cli_import");
  const auto mesh = floptle::testing::writeTwoMaterialCubeObj(dir);
  std::filesystem::create_directories(dir / "scenes");
  const auto out = dir / "scenes" / "cube_scene.json";
  ASSERT_EQ(runCli("import \"" + mesh.string() + "\" --merge --out \"" + out.string() + "\"",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  EXPECT_NE(slurp(dir / "err.txt").find("%"), std::string::npos) << "progress on stderr";
  {  // a line a stage or a tenth, not one a percent, ending at 100%
    std::istringstream err(slurp(dir / "err.txt"));
    std::string line, last;
    int progressLines = 0;
    while (std::getline(err, line))
      if (line.find('%') != std::string::npos) ++progressLines, last = line;
    EXPECT_LE(progressLines, 16) << slurp(dir / "err.txt");
    EXPECT_NE(last.find("100%"), std::string::npos) << last;
  }
  const auto scene = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(scene["format"], "floptle.scene");
  EXPECT_EQ(scene["version"], 1);
  ASSERT_EQ(scene["materials"].size(), 2u);
  std::set<std::string> names;
  for (const auto& m : scene["materials"]) {
    names.insert(m["name"].get<std::string>());
    for (const char* key :
         {"id", "color", "density", "friction", "restitution", "bulk_modulus", "yield_strength"})
      EXPECT_TRUE(m.contains(key)) << key;
  }
  EXPECT_EQ(names, (std::set<std::string>{"grass", "rock"}));
  ASSERT_EQ(scene["nodes"].size(), 1u);
  const auto& node = scene["nodes"][0];
  EXPECT_EQ(node["name"], "cube");
  EXPECT_EQ(node["mesh"]["file"], "../cube.obj") << "relative to the output file";
  EXPECT_EQ(node["collider"]["body"], "static");
  EXPECT_EQ(node["mesh"]["materials"].size(), 2u);
  std::filesystem::remove_all(dir);
}

TEST(CliImport, UnreadableMeshOrUnwritableOutputFailsWithAClearMessageAndWritesNothing) {
  const auto dir = floptle::testing::makeTempDir("cli_import_bad");
  floptle::testing::writeText(dir / "empty.obj", "");
  const auto out = dir / "out.json";
  EXPECT_EQ(runCli("import \"" + (dir / "empty.obj").string() + "\" --out \"" + out.string() + "\"",
                   dir / "err.txt"),
            1);
  EXPECT_NE(slurp(dir / "err.txt").find("empty"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(
      runCli("import \"" + (dir / "missing.glb").string() + "\" --out \"" + out.string() + "\"",
             dir / "err.txt"),
      1);
  EXPECT_NE(slurp(dir / "err.txt").find("not found"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(runCli("import --out \"" + out.string() + "\"", dir / "err.txt"), 2) << "usage error";
  // An output folder that does not exist: the reason, and no stray file anywhere.
  const auto mesh = floptle::testing::writeTwoMaterialCubeObj(dir);
  EXPECT_EQ(runCli("import \"" + mesh.string() + "\" --merge --out \"" +
                       (dir / "no_such_folder" / "out.json").string() + "\"",
                   dir / "err.txt"),
            1);
  const std::string err = slurp(dir / "err.txt");
  EXPECT_NE(err.find("no_such_folder"), std::string::npos) << err;
  EXPECT_NE(err.find("No such file or directory"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir / "no_such_folder"));
  // An existing scene is replaced whole (written beside it, then renamed over it).
  floptle::testing::writeText(out, "old");
  ASSERT_EQ(runCli("import \"" + mesh.string() + "\" --merge --out \"" + out.string() + "\"",
                   dir / "err.txt"),
            0);
  EXPECT_EQ(nlohmann::json::parse(slurp(out))["format"], "floptle.scene");
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
  std::filesystem::remove_all(dir);
}

TEST(CliImport, TheUpAxisGivenTravelsWithTheSceneSoItsCollidersMatchTheImport) {
  // Two triangles read Z-up: (x, y, z) -> (x, z, -y). The first lies flat at y = 0 over
  // z in [-1, 0]; the second stands in the plane z = 0. Read Y-up (what a scene without the
  // axis would do) it is the other way round: the flat one covers z in [0, 2].
  const auto dir = floptle::testing::makeTempDir("cli_import_up");
  floptle::testing::writeText(dir / "tri.obj",
                              "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 2\nf 1 2 3\nf 1 2 4\n");
  const auto out = dir / "tri.json";
  ASSERT_EQ(runCli("import \"" + (dir / "tri.obj").string() + "\" --up z --merge --out \"" +
                       out.string() + "\"",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  const auto scene = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(scene["nodes"][0]["mesh"]["up_axis"], "z");
  floptle::testing::writeText(
      dir / "q.txt",
      "{\"op\":\"raycast\",\"origin\":[0.2,5,-0.2],\"dir\":[0,-1,0],\"max\":10}\n"
      "{\"op\":\"raycast\",\"origin\":[0.2,5,0.2],\"dir\":[0,-1,0],\"max\":10}\n");
  ASSERT_EQ(runCli("query \"" + out.string() + "\" < \"" + (dir / "q.txt").string() + "\" > \"" +
                       (dir / "a.txt").string() + "\"",
                   dir / "err.txt"),
            0)
      << slurp(dir / "err.txt");
  std::istringstream answers(slurp(dir / "a.txt"));
  std::string line;
  ASSERT_TRUE(std::getline(answers, line));
  const auto over = nlohmann::json::parse(line);
  EXPECT_TRUE(over["hit"].get<bool>()) << line;
  if (over["hit"].get<bool>()) {
    EXPECT_NEAR(over["distance"].get<double>(), 5.0, 1e-5);
  }
  ASSERT_TRUE(std::getline(answers, line));
  EXPECT_FALSE(nlohmann::json::parse(line)["hit"].get<bool>()) << line;
  std::filesystem::remove_all(dir);
}

}  // namespace
