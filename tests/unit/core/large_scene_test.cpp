// The generator of the large level (tests/large_scene): deterministic by seed, the layout it
// promises (a ground plane, N spheres resting on it inside the 400 x 400 m square), and a
// document every check of a scene file accepts, written and read back unchanged.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "../../large_scene/large_scene.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"

namespace floptle {
namespace {

using Json = nlohmann::ordered_json;

TEST(LargeScene, TheSameSeedGivesTheSameSceneAndAnotherSeedAnother) {
  test::LargeSceneSpec spec;
  spec.spheres = 500;
  const Json a = test::largeScene(spec);
  EXPECT_EQ(test::largeScene(spec), a);
  spec.seed = 26;
  EXPECT_NE(test::largeScene(spec)["nodes"], a["nodes"]);
}

TEST(LargeScene, SpheresRestOnTheGroundInsideTheSquare) {
  test::LargeSceneSpec spec;
  spec.spheres = 2000;
  spec.dynamicBalls = 3;
  const Json scene = test::largeScene(spec);
  const Json& nodes = scene["nodes"];
  ASSERT_EQ(nodes.size(), std::size_t(1 + 2000 + 3));
  EXPECT_EQ(nodes[0]["shape"]["type"], "plane");
  std::set<std::string> names;
  double minX = 1e9, maxX = -1e9;
  for (std::size_t i = 1; i <= 2000; ++i) {
    const Json& node = nodes[i];
    names.insert(node["name"].get<std::string>());
    const double r = node["shape"]["radius"].get<double>();
    const Json& p = node["transform"]["position"];
    EXPECT_GE(r, 0.25);
    EXPECT_LE(r, 1.5);
    EXPECT_EQ(p[1].get<double>(), r);  // resting on y = 0
    for (int axis : {0, 2}) {
      EXPECT_GE(p[axis].get<double>(), -200.0);
      EXPECT_LE(p[axis].get<double>(), 200.0);
    }
    minX = std::min(minX, p[0].get<double>());
    maxX = std::max(maxX, p[0].get<double>());
    EXPECT_EQ(node["collider"]["body"], "static");
  }
  EXPECT_EQ(names.size(), 2000u);
  // Spread over the square, not bunched: 2,000 uniform draws reach within 5 m of both sides.
  EXPECT_LT(minX, -195.0);
  EXPECT_GT(maxX, 195.0);
  EXPECT_EQ(nodes[2001]["collider"]["body"], "dynamic");
}

TEST(LargeScene, TheWrittenFileLoadsWithEveryCheckAndReadsBackTheSameDocument) {
  test::LargeSceneSpec spec;
  spec.spheres = 1000;
  spec.dynamicBalls = 2;
  const auto path = std::filesystem::temp_directory_path() / "floptle-large-scene-test.json";
  ASSERT_TRUE(test::writeLargeScene(path, spec));
  auto loaded = scene::loadSceneFile(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(loaded) << loaded.error().message();
  EXPECT_EQ(*loaded, test::largeScene(spec));
  auto built = scene::buildScene(*loaded);
  ASSERT_TRUE(built) << built.error().message();
  EXPECT_EQ(built->nodes.size(), std::size_t(1 + 1000 + 2));
  // The typed scene's name index finds every node where it is.
  for (int i : {0, 1, 500, 1002}) EXPECT_EQ(built->findNode(built->nodes[std::size_t(i)].name), i);
  EXPECT_EQ(built->findNode("no such node"), -1);
  // A node renamed by hand after the build: found by its new name, not by its old one.
  built->nodes[7].name = "renamed";
  EXPECT_EQ(built->findNode("renamed"), 7);
  EXPECT_EQ(built->findNode("sphere_6"), -1);
}

}  // namespace
}  // namespace floptle
