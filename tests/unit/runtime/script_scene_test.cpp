// scenes/scripted.json in process, as play mode runs it: the same scene, scripts and inputs
// give the same state hash whatever the frame times that hand out the ticks, and the set
// pieces happen in order.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/matter/soft_body_stage.h"
#include "floptle/runtime/replay.h"
#include "floptle/runtime/scene_runtime.h"
#include "floptle/runtime/script_stage.h"

namespace floptle::runtime::test {
namespace {

const std::filesystem::path kScenes = std::filesystem::path(FLOPTLE_SOURCE_DIR) / "scenes";

struct SceneRun {
  std::uint64_t hash = 0;
  std::vector<std::string> logs;  ///< "node: text"
  /// The player's blob at the end: its stickiness (-) and the lowest y of its particles (m).
  float blobStickiness = -1.0f;
  float blobBottom = 0.0f;
};

/// Runs scripted.json with its inputs for `ticks`, the ticks handed out by frames of the
/// given lengths (s) in turn.
SceneRun run(std::uint64_t ticks, const std::vector<double>& frames) {
  auto document = scene::loadSceneFile(kScenes / "scripted.json");
  EXPECT_TRUE(document) << document.error().message();
  auto sc = scene::buildScene(*document);
  EXPECT_TRUE(sc);
  BuildOptions options;
  options.sceneDir = kScenes;
  auto runtime = SceneRuntime::build(*document, *sc, options);
  EXPECT_TRUE(runtime) << runtime.error().message();
  physics::Simulation& sim = *runtime->physics();
  auto inputs = readInputsFile((kScenes / "scripted-inputs.json").string());
  EXPECT_TRUE(inputs);
  auto events = physics::parseInputEvents(*inputs);
  EXPECT_TRUE(events);
  sim.setInputEvents(*events);
  std::vector<std::string> logs;
  for (std::size_t f = 0; sim.tick() < ticks; ++f) {
    int n = sim.clock().advance(frames[f % frames.size()]);
    for (; n > 0 && sim.tick() < ticks; --n) {
      sim.step();
      for (const ScriptLog& log : scriptStageOf(sim)->takeLogs())
        logs.push_back(log.node + ": " + log.text);
    }
  }
  EXPECT_FALSE(scriptStageOf(sim)->failure());
  SceneRun result{sim.stateHash(), logs};
  if (auto* matter = dynamic_cast<matter::SoftBodyStage*>(sim.matterStage()))
    for (const matter::SoftBody& b : matter->bodies())
      if (b.name() == "player_blob") {
        result.blobStickiness = b.desc().viscoKnobs.stickiness;
        result.blobBottom = b.bounds().min.y;
      }
  return result;
}

TEST(ScriptedScene, SameHashWhateverTheFrameTimes) {
  const auto a = run(420, {1.0 / 60.0});
  const auto b = run(420, {0.007, 0.031, 0.016, 0.049, 0.002});
  EXPECT_EQ(a.hash, b.hash);
  EXPECT_EQ(a.logs, b.logs);
}

TEST(ScriptedScene, SetPiecesHappenInOrder) {
  const SceneRun r = run(420, {1.0 / 60.0});
  const std::vector<std::string>& logs = r.logs;
  const std::vector<std::string> starts{
      ": level start", "sticky_pad: player_blob is sticky", "door: door blends into the wall",
      "flip_pad: gravity flipped, g = 9.81", ": player on the ceiling"};
  ASSERT_EQ(logs.size(), starts.size()) << ::testing::PrintToString(logs);
  for (std::size_t i = 0; i < logs.size(); ++i)
    EXPECT_EQ(logs[i].rfind(starts[i], 0), 0u) << logs[i];
}

TEST(ScriptedScene, ThePadMakesTheBlobStickyAndItStaysOnThePad) {
  const SceneRun r = run(420, {1.0 / 60.0});
  EXPECT_EQ(r.blobStickiness, 0.7f);
  // Resting on the pad's top (y = 0.1), not fallen, not carried off: the flip is the far
  // pad's region only.
  EXPECT_NEAR(r.blobBottom, 0.1f, 0.05f);
}

}  // namespace
}  // namespace floptle::runtime::test
