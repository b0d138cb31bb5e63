// The scene format's script keys: a node's "script" component and the scene-level "scripts"
// array load, survive save -> load unchanged, name their files, and bad ones are refused with
// their JSON pointer.
#include <gtest/gtest.h>

#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_files.h"
#include "floptle/core/scene/scene_io.h"

namespace floptle::scene {
namespace {

constexpr const char* kScene = R"({
  "format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
  "scripts": [{"file": "level.lua"}],
  "nodes": [{"name": "door", "shape": {"type": "sphere", "radius": 1},
             "script": {"file": "scripts/door.lua"}}]
})";

TEST(SceneScriptKeys, LoadAndRoundTripUnchanged) {
  auto document = parseSceneText(kScene);
  ASSERT_TRUE(document) << document.error().message();
  auto scene = buildScene(*document);
  ASSERT_TRUE(scene) << scene.error().message();
  ASSERT_TRUE(scene->nodes[0].hasComponent("script"));
  EXPECT_EQ(scene->nodes[0].components["script"]["file"], "scripts/door.lua");
  auto text = sceneToText(*document);
  ASSERT_TRUE(text) << text.error().message();
  auto again = parseSceneText(*text);
  ASSERT_TRUE(again) << again.error().message();
  EXPECT_EQ(*again, *document);
  EXPECT_EQ((*again)["scripts"][0]["file"], "level.lua");
}

TEST(SceneScriptKeys, NodeScriptIsAReferencedFile) {
  auto document = parseSceneText(kScene);
  ASSERT_TRUE(document);
  auto scene = buildScene(*document);
  ASSERT_TRUE(scene);
  const auto files = referencedFiles(*scene);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].pointer, "/nodes/0/script/file");
  EXPECT_EQ(files[0].path, "scripts/door.lua");
}

TEST(SceneScriptKeys, ScriptWithoutFileIsRefusedNamingThePointer) {
  const auto problems = checkSceneDocument(nlohmann::ordered_json::parse(R"({
    "format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
    "scripts": [{"path": "level.lua"}], "nodes": []})"));
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].where.rfind("/scripts/0", 0), 0u) << problems[0].message();
}

TEST(SceneScriptKeys, EmptyNodeScriptFileIsRefused) {
  const auto problems = checkSceneDocument(nlohmann::ordered_json::parse(R"({
    "format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
    "nodes": [{"name": "a", "script": {"file": ""}}]})"));
  ASSERT_FALSE(problems.empty());
  EXPECT_EQ(problems[0].where.rfind("/nodes/0/script", 0), 0u) << problems[0].message();
}

}  // namespace
}  // namespace floptle::scene
