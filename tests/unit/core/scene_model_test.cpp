// The typed scene model: materials by string or integer id, defaults, the node tree and its
// world transforms, the scene field against closed-form distances.
#include <gtest/gtest.h>

#include <cmath>

#include "floptle/core/field/field_program.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "scene_test_util.h"

namespace floptle::scene {
namespace {

using Json = nlohmann::ordered_json;

Scene build(const Json& doc) {
  auto scene = buildScene(doc);
  EXPECT_TRUE(scene.ok()) << scene.error().message();
  return scene.ok() ? *scene : Scene{};
}

TEST(SceneModel, MaterialsByStringOrIntegerId) {
  const Scene scene = build(test::minimalScene());
  ASSERT_EQ(scene.materials.size(), 2u);
  EXPECT_EQ(scene.materials[0].displayId, "rock");
  EXPECT_EQ(scene.materials[1].displayId, "7");
  EXPECT_EQ(scene.materials[1].id, Json(7));
  EXPECT_EQ(scene.findMaterial(Json("rock")), 1);
  EXPECT_EQ(scene.findMaterial(Json(7)), 2);
  EXPECT_EQ(scene.findMaterial(Json("7")), 2);
  EXPECT_EQ(scene.findMaterial(Json("none")), 0);
  EXPECT_FLOAT_EQ(scene.materials[0].density, 2600.0f);
  EXPECT_FLOAT_EQ(scene.materials[0].bulkModulus, 5e10f);
  EXPECT_FLOAT_EQ(scene.materials[1].restitution, 0.8f);
  EXPECT_EQ(scene.material(2)->displayId, "7");
  EXPECT_EQ(scene.material(0), nullptr);
  EXPECT_EQ(scene.material(3), nullptr);
  ASSERT_EQ(scene.interactions.size(), 1u);
  const Interaction* merge = scene.findInteraction(1, 2);
  ASSERT_NE(merge, nullptr);
  EXPECT_EQ(merge->rule, InteractionRule::Merge);
  EXPECT_FALSE(merge->k.animated());
  EXPECT_FLOAT_EQ(merge->k.at(0.0), 0.5f);
  EXPECT_EQ(scene.findInteraction(2, 1), nullptr);  // ordered pairs
}

TEST(SceneModel, DefaultsForSettingsCamerasTransformsAndColliders) {
  Json doc = test::minimalScene();
  doc["cameras"] = Json::parse(R"([{"name": "c", "position": [0, 1, 5], "look_at": [0, 1, 0]}])");
  doc["nodes"][0]["children"][0]["collider"] = Json::object();
  const Scene scene = build(doc);
  EXPECT_DOUBLE_EQ(scene.settings.fixedDt, 1.0 / 60.0);
  EXPECT_EQ(scene.settings.gravity, Vec3(0.0f, -9.81f, 0.0f));
  EXPECT_FLOAT_EQ(scene.settings.slopeLimitDegrees, 60.0f);
  ASSERT_NE(scene.findCamera("c"), nullptr);
  EXPECT_FLOAT_EQ(scene.findCamera("c")->fovDegrees, 60.0f);
  EXPECT_EQ(scene.findCamera("missing"), nullptr);
  const SceneNode& crate = scene.nodes[static_cast<std::size_t>(scene.findNode("crate"))];
  EXPECT_EQ(crate.local.rotation, Quat(1, 0, 0, 0));
  EXPECT_FLOAT_EQ(crate.local.scale, 1.0f);
  ASSERT_TRUE(crate.collider.has_value());
  EXPECT_EQ(crate.collider->body, BodyType::Static);
  EXPECT_TRUE(crate.collider->collidable);
}

TEST(SceneModel, TreeOrderParentsAndWorldTransforms) {
  Json doc = test::minimalScene();
  // Parent: at (1, 2, 3), turned +90 degrees about +Y, scaled 2. Child at local (0, 0, 2).
  const float half = std::sqrt(0.5f);
  doc["nodes"][0]["transform"] = {
      {"position", {1, 2, 3}}, {"rotation", {0, half, 0, half}}, {"scale", 2}};
  const Scene scene = build(doc);
  ASSERT_EQ(scene.nodes.size(), 2u);
  EXPECT_EQ(scene.nodes[0].name, "ball");
  EXPECT_EQ(scene.nodes[0].parent, -1);
  EXPECT_EQ(scene.nodes[1].parent, 0);
  EXPECT_EQ(scene.nodes[0].children, std::vector<int>{1});
  EXPECT_EQ(scene.nodes[1].pointer, "/nodes/0/children/0");
  EXPECT_EQ(scene.findNode("crate"), 1);
  EXPECT_EQ(scene.findNode("nobody"), -1);
  // +90 deg about Y maps +Z to +X: world = (1, 2, 3) + 2 * (2, 0, 0) = (5, 2, 3).
  const Transform& world = scene.nodes[1].world;
  EXPECT_NEAR(world.position.x, 5.0f, 1e-5f);
  EXPECT_NEAR(world.position.y, 2.0f, 1e-5f);
  EXPECT_NEAR(world.position.z, 3.0f, 1e-5f);
  EXPECT_FLOAT_EQ(world.scale, 2.0f);
  // Materials: the node's own on its shape root; the child's shape names none.
  EXPECT_EQ(scene.nodes[0].material, 2);
  ASSERT_TRUE(scene.nodes[0].shape.has_value());
  EXPECT_EQ(scene.nodes[0].shape->material, 2);
  EXPECT_EQ(scene.nodes[1].material, 1);
}

TEST(SceneModel, SceneFieldMatchesClosedFormDistances) {
  Json doc = test::minimalScene();
  // ball: sphere r=1 at (1, 2, 3); crate: half extent 0.5 box at (1, 2, 5) (no rotation).
  const Scene scene = build(doc);
  auto program = field::FieldProgram::compile(sceneField(scene));
  ASSERT_TRUE(program.ok()) << program.error().message();
  EXPECT_NEAR(program->distance(Vec3(1, 2, 3), 0.0), -1.0f, 1e-4f);
  EXPECT_NEAR(program->distance(Vec3(1, 5, 3), 0.0), 2.0f, 1e-4f);
  EXPECT_NEAR(program->distance(Vec3(1, 2, 7), 0.0), 1.5f, 1e-4f);
  // Materials survive the union: the ball is material 2 ("7"), the crate 1 ("rock").
  EXPECT_EQ(program->sample(Vec3(1, 2, 3), 0.0).material, 2);
  EXPECT_EQ(program->sample(Vec3(1, 2, 5), 0.0).material, 1);
  // Only the ball has a collider: the collidable field holds just the sphere.
  const field::FieldNode collidable = sceneField(scene, true);
  ASSERT_EQ(collidable.children.size(), 1u);
  auto collidableProgram = field::FieldProgram::compile(collidable);
  ASSERT_TRUE(collidableProgram.ok());
  EXPECT_NEAR(collidableProgram->distance(Vec3(1, 2, 7), 0.0), 3.0f, 1e-4f);
}

TEST(SceneModel, SampleScenesHaveWhatTheyPromise) {
  auto showcase = loadSceneFile(std::filesystem::path(FLOPTLE_SOURCE_DIR) / "scenes/showcase.json");
  ASSERT_TRUE(showcase.ok()) << showcase.error().message();
  const Scene scene = build(*showcase);
  for (const char* name :
       {"ground", "ramp", "stairs", "mandelbulb_island", "sculpture", "planet", "player_spawn"}) {
    EXPECT_GE(scene.findNode(name), 0) << name;
  }
  EXPECT_TRUE(scene.nodes[static_cast<std::size_t>(scene.findNode("planet"))].hasComponent(
      "gravity_source"));
  EXPECT_TRUE(scene.nodes[static_cast<std::size_t>(scene.findNode("player_spawn"))].hasComponent(
      "character"));
  EXPECT_NE(scene.findCamera("overview"), nullptr);
  EXPECT_GE(scene.materials.size(), 5u);
  EXPECT_GE(scene.interactions.size(), 3u);
  const auto& island = scene.nodes[static_cast<std::size_t>(scene.findNode("mandelbulb_island"))];
  ASSERT_TRUE(island.shape.has_value());
  EXPECT_TRUE(field::FieldProgram::compile(sceneField(scene)).ok());
  auto program = field::FieldProgram::compile(sceneField(scene));
  EXPECT_TRUE(program->animated());  // the island's power is driven by a sine

  // primitives.json: every field node type at least once.
  auto primitives =
      loadSceneFile(std::filesystem::path(FLOPTLE_SOURCE_DIR) / "scenes/primitives.json");
  ASSERT_TRUE(primitives.ok()) << primitives.error().message();
  const Scene all = build(*primitives);
  std::vector<bool> seen(32, false);
  std::vector<const field::FieldNode*> stack;
  for (const SceneNode& node : all.nodes) {
    if (node.shape) stack.push_back(&*node.shape);
  }
  while (!stack.empty()) {
    const field::FieldNode* node = stack.back();
    stack.pop_back();
    seen[static_cast<std::size_t>(node->type)] = true;
    for (const auto& child : node->children) stack.push_back(&child);
  }
  for (std::size_t type = 0; type < field::kNodeTypeCount; ++type) {
    EXPECT_TRUE(seen[type]) << "node type " << type << " missing";
  }
}

TEST(SceneModel, BuildSceneNeverThrowsOnGarbage) {
  for (const char* text :
       {"null", "[]", "{}", R"({"nodes": 3})", R"({"nodes": [3, "x", null]})",
        R"({"materials": [{"id": {}}], "nodes": [{"name": 5, "children": 1}]})",
        R"({"interactions": [{"a": [], "b": null, "rule": 1}]})",
        R"({"nodes": [{"name": "a", "transform": [], "shape": 1, "collider": 2}]})"}) {
    auto result = buildScene(Json::parse(text));
    EXPECT_FALSE(result.ok() && std::string(text) != "{}") << text;
    EXPECT_FALSE(checkSceneDocument(Json::parse(text)).empty()) << text;
  }
}

}  // namespace
}  // namespace floptle::scene

namespace floptle::scene {
namespace {

TEST(SceneFormatDoc, TheExampleInTheFormatDocumentIsValid) {
  const std::string doc =
      test::readBytes(std::filesystem::path(FLOPTLE_SOURCE_DIR) / "resources/scene-format.md");
  const std::size_t section = doc.find("## Example");
  ASSERT_NE(section, std::string::npos);
  const std::size_t begin = doc.find("```json\n", section);
  ASSERT_NE(begin, std::string::npos);
  const std::size_t end = doc.find("```", begin + 8);
  auto parsed = parseSceneText(doc.substr(begin + 8, end - begin - 8));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  auto scene = buildScene(*parsed);
  ASSERT_TRUE(scene.ok());
  EXPECT_EQ(scene->nodes.size(), 3u);
}

TEST(SceneSchema, EmbeddedSchemaIsTheResourceFile) {
  EXPECT_EQ(
      std::string(sceneSchemaText()),
      test::readBytes(std::filesystem::path(FLOPTLE_SOURCE_DIR) / "resources/scene.schema.json"));
}

}  // namespace
}  // namespace floptle::scene
