// `floptle validate SCENE`, run as a process: exit 0 and a summary for good scenes, every
// problem on stderr and exit 1 for bad ones, exit 2 for usage errors.
#include <gtest/gtest.h>

#include "cli_test_support.h"

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using floptle::cli_test::RunResult;

class ValidateCli : public floptle::cli_test::CliTest {
 protected:
  ValidateCli() : CliTest("validate") {}
};

const char* kGood = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2600, "friction": 0.8,
                 "restitution": 0.1, "bulk_modulus": 5e10, "yield_strength": 1e8}],
  "interactions": [],
  "nodes": [{"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0]}, "material": "rock",
             "children": [{"name": "ball", "shape": {"type": "sphere", "radius": 1}}]}]
})";

TEST_F(ValidateCli, SampleScenesAreOk) {
  for (const char* name : {"showcase.json", "primitives.json"}) {
    const std::string path = std::string(FLOPTLE_SOURCE_DIR) + "/scenes/" + name;
    const RunResult result = run("'" + path + "'");
    EXPECT_EQ(result.exitCode, 0) << result.err;
    EXPECT_EQ(result.out.rfind(path + ": ok (", 0), 0u) << result.out;
    EXPECT_TRUE(result.err.empty()) << result.err;
  }
}

TEST_F(ValidateCli, CountsNodesAndMaterials) {
  const std::string path = write("good.json", kGood);
  const RunResult result = run(path);
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, path + ": ok (2 nodes, 1 materials)\n");
}

TEST_F(ValidateCli, EveryProblemOnStderrWithItsPointer) {
  std::string bad = kGood;
  bad.replace(bad.find("\"radius\": 1"), 11, "\"radius\": \"one\"");
  bad.replace(bad.find("\"material\": \"rock\""), 18, "\"material\": \"lava\"");
  bad.replace(bad.find("\"name\": \"ball\""), 14, "\"name\": \"ground\"");
  const RunResult result = run(write("bad.json", bad));
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_NE(result.err.find("/nodes/0/children/0/shape/radius: "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("/nodes/0/material: "), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("/nodes/0/children/0/name: "), std::string::npos) << result.err;
}

TEST_F(ValidateCli, TruncatedNewerAndMissingFiles) {
  const std::string text = kGood;
  RunResult truncated = run(write("cut.json", text.substr(0, text.size() / 2)));
  EXPECT_EQ(truncated.exitCode, 1);
  EXPECT_NE(truncated.err.find("line "), std::string::npos) << truncated.err;

  std::string newer = kGood;
  newer.replace(newer.find("\"version\": 1"), 12, "\"version\": 3");
  RunResult newerResult = run(write("newer.json", newer));
  EXPECT_EQ(newerResult.exitCode, 1);
  EXPECT_NE(newerResult.err.find("/version: "), std::string::npos) << newerResult.err;
  EXPECT_NE(newerResult.err.find("newer Floptle"), std::string::npos) << newerResult.err;

  RunResult missing = run((dir_ / "absent.json").string());
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_NE(missing.err.find("absent.json"), std::string::npos);
}

TEST_F(ValidateCli, MeshAndBakedFieldFilesTheSceneNamesMustBeThere) {
  // Relative to the scene's folder, wherever validate is run from.
  std::filesystem::create_directories(dir_ / "models");
  std::ofstream(dir_ / "models" / "rock.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  std::string scene = kGood;
  scene.replace(
      scene.find("\"name\": \"ball\""), 14,
      R"("name": "ball", "mesh": {"file": "models/rock.obj"}, "collider": {"body": "static"})");
  const RunResult present = run(write("meshes.json", scene));
  EXPECT_EQ(present.exitCode, 0) << present.err;

  std::string missing = scene;
  missing.replace(missing.find("models/rock.obj"), 15, "models/gone.glb");
  missing.replace(
      missing.find("\"name\": \"ground\""), 16,
      R"("name": "ground", "baked_field": {"file": "models"}, "collider": {"body": "static"})");
  const RunResult result = run(write("missing.json", missing));
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_NE(result.err.find("/nodes/0/children/0/mesh/file: models/gone.glb: file not found"),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("/nodes/0/baked_field/file: models: not a regular file"),
            std::string::npos)
      << result.err;
}

TEST_F(ValidateCli, WarningsListEachProblemWithItsNodeAndFix) {
  const std::string path = write("warn.json", R"({
    "format": "floptle.scene", "version": 1,
    "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2600, "friction": 0.8,
                   "restitution": 0.1, "bulk_modulus": 5e10, "yield_strength": 1e8},
                  {"id": "moss", "color": [0, 1, 0], "density": 500, "friction": 0.9,
                   "restitution": 0, "bulk_modulus": 1e8, "yield_strength": 1e5}],
    "interactions": [],
    "nodes": [{"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0]}, "material": "rock",
               "collider": {"body": "static"}},
              {"name": "player", "transform": {"position": [0, 0.2, 0]}, "character": {}}]})");
  const RunResult result = run("'" + path + "' --warnings");
  EXPECT_EQ(result.exitCode, 0) << result.err;  // warnings leave the status as it was
  EXPECT_NE(result.out.find("warning: /nodes/1: character 'player' starts inside the geometry "
                            "(spawn-inside-geometry); fix: move it up "),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("warning: /materials/1: material 'moss' is used by no node "
                            "(unused-material); fix: delete it\n"),
            std::string::npos)
      << result.out;
  // Without --warnings, only the verdict.
  EXPECT_EQ(run("'" + path + "'").out, path + ": ok (2 nodes, 2 materials)\n");
}

TEST_F(ValidateCli, WarningsNameATwistedColliderWithoutABake) {
  const std::string path = write("twist.json", R"({
    "format": "floptle.scene", "version": 1,
    "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2600, "friction": 0.8,
                   "restitution": 0.1, "bulk_modulus": 5e10, "yield_strength": 1e8}],
    "interactions": [],
    "nodes": [{"name": "screw", "material": "rock", "collider": {"body": "static"},
               "shape": {"type": "twist", "rate": 2,
                         "children": [{"type": "box", "half_extents": [0.5, 1, 0.5]}]}}]})");
  const RunResult result = run("'" + path + "' --warnings");
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.out.find("warning: /nodes/0: the collider of 'screw' is warped by a twist, "
                            "which does not preserve distance, and is not baked (unbaked-warp); "
                            "fix: add a bake"),
            std::string::npos)
      << result.out;
}

TEST_F(ValidateCli, UsageErrorsExitTwo) {
  EXPECT_EQ(run("").exitCode, 2);
  EXPECT_EQ(run("a.json b.json").exitCode, 2);
  EXPECT_EQ(run("--bogus").exitCode, 2);
}

}  // namespace
