// Scene saving: canonical text, byte-identical round trips of the sample scenes, atomic
// replacement that leaves the old file intact on failure, non-finite numbers refused,
// components that no system reads yet survive load -> save unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <limits>

#include <sys/resource.h>
#include <sys/stat.h>

#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "scene_test_util.h"

namespace floptle::scene {
namespace {

using Json = nlohmann::ordered_json;
using test::readBytes;
using test::TempDir;
using test::writeBytes;

std::size_t fileCount(const std::filesystem::path& dir) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++count;
  return count;
}

class SampleScene : public ::testing::TestWithParam<const char*> {};

TEST_P(SampleScene, IsValidCanonicalAndRoundTripsByteForByte) {
  const std::filesystem::path source =
      std::filesystem::path(FLOPTLE_SOURCE_DIR) / "scenes" / GetParam();
  auto loaded = loadSceneFile(source);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  // The committed file is already in canonical form.
  const std::string original = readBytes(source);
  auto text = sceneToText(*loaded);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, original);
  // load -> save -> load -> save gives the same bytes each time.
  TempDir dir;
  const auto first = dir.path() / "first.json";
  const auto second = dir.path() / "second.json";
  ASSERT_TRUE(saveSceneFile(first, *loaded).ok());
  auto reloaded = loadSceneFile(first);
  ASSERT_TRUE(reloaded.ok()) << reloaded.error().message();
  EXPECT_EQ(*reloaded, *loaded);
  ASSERT_TRUE(saveSceneFile(second, *reloaded).ok());
  EXPECT_EQ(readBytes(first), original);
  EXPECT_EQ(readBytes(second), original);
  auto built = buildScene(*loaded);
  ASSERT_TRUE(built.ok()) << built.error().message();
  EXPECT_FALSE(built->nodes.empty());
  EXPECT_FALSE(built->materials.empty());
}

INSTANTIATE_TEST_SUITE_P(Scenes, SampleScene,
                         ::testing::Values("showcase.json", "primitives.json", "gravity.json"));

TEST(SceneSave, ComponentsWithoutSystemsSurviveUnchanged) {
  Json doc = test::minimalScene();
  const Json components = Json::parse(R"({
    "character": {"radius": 0.35, "height": 1.8, "speed": 5.0, "jump_speed": 5.5,
                  "slope_limit": 50, "step_height": 0.3, "future_key": [1, "two", {"3": null}]},
    "vehicle": {"wheels": [{"position": [1.1, 0.0, 0.7]}, {"position": [-1.1, 0.0, 0.7], "tyre": "soft"}],
                "suspension": {"k": 3.5e4}},
    "gravity": {"source": "sphere", "surface_gravity": 6.0, "range": 30.0},
    "matter": {"model": "soft_body", "compliance": 1e-7, "bonds": true},
    "drift": {"boat": {"mass": 120.0}, "ripples": []},
    "mesh": {"file": "meshes/rock.glb", "bake": {"resolution": 0.05}},
    "terrain": {"heightmap": "t.png", "scale": [1.0, 0.2, 1.0]}})");
  for (const auto& [key, value] : components.items()) doc["nodes"][0][key] = value;
  TempDir dir;
  const auto path = dir.path() / "components.json";
  ASSERT_TRUE(saveSceneFile(path, doc).ok());
  const std::string saved = readBytes(path);
  auto loaded = loadSceneFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message();
  for (const auto& [key, value] : components.items()) {
    EXPECT_EQ((*loaded)["nodes"][0][key], value) << key;
  }
  ASSERT_TRUE(saveSceneFile(path, *loaded).ok());
  EXPECT_EQ(readBytes(path), saved);
  // The typed model keeps them raw, beside the typed collider.
  auto scene = buildScene(*loaded);
  ASSERT_TRUE(scene.ok()) << scene.error().message();
  for (const auto& [key, value] : components.items()) {
    EXPECT_EQ(scene->nodes[0].components[key], value) << key;
  }
  ASSERT_TRUE(scene->nodes[0].collider.has_value());
  EXPECT_EQ(scene->nodes[0].collider->body, BodyType::Dynamic);
}

TEST(SceneSave, NonFiniteNumbersAreRefusedAndNothingIsWritten) {
  TempDir dir;
  const auto path = dir.path() / "scene.json";
  ASSERT_TRUE(saveSceneFile(path, test::minimalScene()).ok());
  const std::string before = readBytes(path);
  for (double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()}) {
    Json doc = test::minimalScene();
    doc["nodes"][0]["children"][0]["transform"]["position"][1] = bad;
    auto saved = saveSceneFile(path, doc);
    ASSERT_FALSE(saved.ok());
    EXPECT_EQ(saved.error().where, "/nodes/0/children/0/transform/position/1");
    EXPECT_EQ(readBytes(path), before);
    EXPECT_EQ(fileCount(dir.path()), 1u);
  }
}

TEST(SceneSave, AFailedWriteLeavesTheOldFileByteIdentical) {
  TempDir dir;
  const auto path = dir.path() / "scene.json";
  ASSERT_TRUE(saveSceneFile(path, test::minimalScene()).ok());
  const std::string before = readBytes(path);
  Json bigger = test::minimalScene();
  bigger["description"] = std::string(64 * 1024, 'x');
  // A file-size limit makes the write itself fail, even for root (who ignores permissions).
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited = saved;
  limited.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  auto result = saveSceneFile(path, bigger);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previousHandler);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().where, path.string());
  EXPECT_NE(result.error().what.find("unchanged"), std::string::npos) << result.error().what;
  EXPECT_EQ(readBytes(path), before);
  EXPECT_EQ(fileCount(dir.path()), 1u) << "the temporary file was left behind";
  // After the failure, a save that can succeed does.
  ASSERT_TRUE(saveSceneFile(path, bigger).ok());
  EXPECT_NE(readBytes(path), before);
}

TEST(SceneSave, AParentThatIsAFileIsRefusedWithTheReason) {
  TempDir dir;
  const auto notAFolder = dir.path() / "file.txt";
  writeBytes(notAFolder, "keep me\n");
  auto result = saveSceneFile(notAFolder / "scene.json", test::minimalScene());
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().what.find("Not a directory"), std::string::npos) << result.error().what;
  EXPECT_EQ(readBytes(notAFolder), "keep me\n");
  EXPECT_EQ(fileCount(dir.path()), 1u);
}

TEST(SceneSave, KeepsThePermissionsOfTheReplacedFile) {
  TempDir dir;
  const auto path = dir.path() / "scene.json";
  ASSERT_TRUE(saveSceneFile(path, test::minimalScene()).ok());
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  ASSERT_TRUE(saveSceneFile(path, test::minimalScene()).ok());
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u);
}

TEST(SceneSave, CanonicalTextIsTwoSpaceIndentedWithATrailingNewline) {
  auto text = sceneToText(Json::parse(R"({"a": [1, 2.5], "b": {"c": "d"}})"));
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "{\n  \"a\": [\n    1,\n    2.5\n  ],\n  \"b\": {\n    \"c\": \"d\"\n  }\n}\n");
}

}  // namespace
}  // namespace floptle::scene
