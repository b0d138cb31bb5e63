// A save killed at any moment (SIGKILL, no chance to clean up) leaves the scene file holding
// either the old bytes or the new bytes: never a mix, never empty. The kills are spread evenly
// over the time one save takes, so they land in the serialisation, the write, the flush and
// the rename alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "floptle/core/scene/scene_io.h"
#include "scene_test_util.h"

namespace floptle::scene {
namespace {

using Json = nlohmann::ordered_json;
using test::readBytes;
using test::TempDir;

/// The minimal scene with `count` more spheres, each moved by `offset` (m): about 200 bytes of
/// canonical text per sphere.
Json largeScene(int count, double offset) {
  Json doc = test::minimalScene();
  for (int i = 0; i < count; ++i) {
    doc["nodes"].push_back({{"name", "prop_" + std::to_string(i)},
                            {"transform", {{"position", {i * 0.5 + offset, offset, -i * 0.25}}}},
                            {"shape", {{"type", "sphere"}, {"radius", 0.25 + (i % 7) * 0.01}}},
                            {"material", "rock"}});
  }
  return doc;
}

std::size_t temporaryFiles(const std::filesystem::path& dir) {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    count += entry.path().filename().string().find(".tmp-") != std::string::npos;
  return count;
}

TEST(SceneSaveKill, AKilledSaveLeavesTheOldOrTheNewBytesNeverAMix) {
  TempDir dir;
  const auto path = dir.path() / "level.json";
  const Json before = largeScene(5000, 0.0);
  const Json after = largeScene(5000, 1.0);
  ASSERT_TRUE(saveSceneFile(path, before).ok());
  const std::string oldBytes = readBytes(path);
  ASSERT_TRUE(saveSceneFile(path, after).ok());
  const std::string newBytes = readBytes(path);
  ASSERT_GT(oldBytes.size(), 500'000u);
  ASSERT_NE(oldBytes, newBytes);

  // How long one save takes here (the median of five), to spread the kills over.
  using Clock = std::chrono::steady_clock;
  std::vector<Clock::duration> times;
  for (int i = 0; i < 5; ++i) {
    const auto start = Clock::now();
    ASSERT_TRUE(saveSceneFile(path, i % 2 ? after : before).ok());
    times.push_back(Clock::now() - start);
  }
  std::sort(times.begin(), times.end());
  const Clock::duration save = times[2];

  // Kills at kSpread points spread evenly from the start of the save to a little past its
  // usual end, in rounds, until kKills of them landed during a save: a save slower or faster
  // than the median (a loaded machine, a sanitizer build) takes more rounds, never fewer kills.
  constexpr int kKills = 200;
  constexpr int kSpread = 300;
  constexpr int kMaxAttempts = 4 * kSpread;
  int attempts = 0, killedMidSave = 0, sawOld = 0, sawNew = 0;
  for (; killedMidSave < kKills && attempts < kMaxAttempts; ++attempts) {
    // The old scene on disk again (a save of it, as a user's earlier save left it).
    if (readBytes(path) != oldBytes) {
      ASSERT_TRUE(saveSceneFile(path, before).ok());
    }
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {  // the saving process: replace the old scene by the new one
      _exit(saveSceneFile(path, after).ok() ? 0 : 1);
    }
    std::this_thread::sleep_for(save * ((attempts % kSpread) + 0.5) * 1.1 / kSpread);
    ::kill(child, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
      ++killedMidSave;
    } else {
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the save failed on its own";
    }
    const std::string onDisk = readBytes(path);
    ASSERT_TRUE(onDisk == oldBytes || onDisk == newBytes)
        << "kill " << attempts << " left " << onDisk.size() << " bytes that are neither version";
    (onDisk == oldBytes ? sawOld : sawNew) += 1;
  }
  EXPECT_GE(killedMidSave, kKills) << "too few kills landed during a save in " << attempts
                                   << " attempts (" << save.count() << " ns each)";
  // A killed save cannot remove its temporary file; the next save of the scene does not need
  // it, and nothing reads it. They are the only other files in the folder.
  std::size_t others = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    others += entry.path() != path;
  EXPECT_EQ(others, temporaryFiles(dir.path()));
  RecordProperty("attempts", attempts);
  RecordProperty("killed_mid_save", killedMidSave);
  RecordProperty("old_bytes_seen", sawOld);
  RecordProperty("new_bytes_seen", sawNew);
}

}  // namespace
}  // namespace floptle::scene
