#pragma once
// Helpers for the script tests: a scene folder of its own per test (scene JSON and .lua
// files), and the simulation runtime builds from it (buildSimulation, the one assembly).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "floptle/core/scene/scene.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/scene_runtime.h"
#include "floptle/runtime/scene_simulation.h"
#include "floptle/runtime/script_stage.h"

namespace floptle::runtime::test {

class ScriptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "floptle-script-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    dir_ = root_ / "level";
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  /// Writes `text` to `name` under the scene folder.
  void write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }

  /// A scene document: `nodes` and `scripts` as given, a floor-less world by default.
  static nlohmann::ordered_json document(nlohmann::ordered_json nodes,
                                         nlohmann::ordered_json scripts = nullptr,
                                         nlohmann::ordered_json gravity = {0.0, -9.81, 0.0}) {
    // `document({node})`: GCC makes the one-element braced list an array, clang a copy of the
    // node (the language lets a single-element list copy-initialise); either way one node.
    if (nodes.is_object()) nodes = nlohmann::ordered_json::array({std::move(nodes)});
    nlohmann::ordered_json doc{
        {"format", "floptle.scene"},
        {"version", 1},
        {"materials", {{{"id", "a"}, {"density", 1000.0}}, {{"id", "b"}, {"density", 1000.0}}}},
        {"interactions", nlohmann::ordered_json::array()},
        {"settings", {{"gravity", gravity}}},
        {"nodes", std::move(nodes)}};
    if (!scripts.is_null()) doc["scripts"] = std::move(scripts);
    return doc;
  }

  /// Builds `doc` in this test's folder as play mode and the CLI do (SceneRuntime::build).
  Expected<SceneRuntime> buildRuntime(const nlohmann::ordered_json& doc) {
    auto sc = scene::buildScene(doc);
    if (!sc) return sc.error();
    BuildOptions options;
    options.sceneDir = dir_;
    return SceneRuntime::build(doc, sc.value(), options);
  }

  /// The physics simulation of `doc` (kept by the fixture); a failure to build fails the test.
  physics::Simulation& build(const nlohmann::ordered_json& doc) {
    auto runtime = buildRuntime(doc);
    EXPECT_TRUE(runtime) << (runtime ? "" : runtime.error().message());
    runtimes_.push_back(std::make_unique<SceneRuntime>(std::move(runtime.value())));
    return *runtimes_.back()->physics();
  }

  /// The log texts of the simulation's scripts since the last call.
  static std::vector<std::string> logs(physics::Simulation& sim) {
    std::vector<std::string> texts;
    if (ScriptStage* stage = scriptStageOf(sim))
      for (const ScriptLog& log : stage->takeLogs()) texts.push_back(log.text);
    return texts;
  }

  static std::string failure(physics::Simulation& sim) {
    ScriptStage* stage = scriptStageOf(sim);
    return stage && stage->failure() ? describeFailure(*stage->failure()) : "";
  }

  std::filesystem::path root_;
  std::filesystem::path dir_;
  std::vector<std::unique_ptr<SceneRuntime>> runtimes_;
};

/// A static box node.
inline nlohmann::ordered_json staticBox(const std::string& name, std::vector<float> position,
                                        std::vector<float> half, const std::string& material) {
  return {{"name", name},
          {"transform", {{"position", position}}},
          {"shape", {{"type", "box"}, {"half_extents", half}}},
          {"material", material},
          {"collider", {{"body", "static"}}}};
}

/// A dynamic sphere node.
inline nlohmann::ordered_json ball(const std::string& name, std::vector<float> position,
                                   float radius) {
  return {{"name", name},
          {"transform", {{"position", position}}},
          {"shape", {{"type", "sphere"}, {"radius", radius}}},
          {"material", "a"},
          {"collider", {{"body", "dynamic"}}}};
}

}  // namespace floptle::runtime::test
