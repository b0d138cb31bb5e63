// A Blender level re-exported after an edit in Blender (tests/data/blender: level_v2.* has
// CrateA moved to (0, 7, 0.5) Blender, turned 90 deg, and Wall-col deleted) reloads into the
// subtree imported from level.*: the user's edits survive, the moved object follows the file,
// the deleted object's node goes and is named in the report, and nothing else changes.
//
// The fixtures are committed; to write them again (needs Blender, never the test suite), from
// the repository root: env -i PATH=/usr/bin:/bin HOME=$HOME blender -b --factory-startup
//   --python tests/data/blender/make_fixtures.py -- tests/data/blender  (one command line)
// level_v2.expected.json is Blender's own world transform of each object of version 2, +Y up.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "../mesh_test_files.h"
#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/asset/mesh_subtree_resync.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"

namespace floptle::asset {
namespace {

using Json = nlohmann::ordered_json;
const std::filesystem::path kDir = std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender";

/// Copies version `stem` ("level" or "level_v2") of the level into `dir` as level<ext>, as a
/// re-export over the imported file would (OBJ's material library keeps its own name).
void exportAs(const std::string& stem, const std::string& ext, const std::filesystem::path& dir) {
  std::filesystem::copy_file(kDir / (stem + ext), dir / ("level" + ext),
                             std::filesystem::copy_options::overwrite_existing);
  if (ext == ".obj")
    std::filesystem::copy_file(kDir / (stem + ".mtl"), dir / (stem + ".mtl"),
                               std::filesystem::copy_options::overwrite_existing);
}

/// A scene holding the file's subtree, as `floptle import` writes it.
Json importedScene(const std::filesystem::path& file) {
  auto tree = importMeshObjects(file);
  EXPECT_TRUE(tree.ok()) << tree.error().message();
  const auto entries =
      meshSubtreeEntries(*tree, file, file.parent_path(), MeshCollision::TriangleMesh);
  Json scene = {{"format", "floptle.scene"}, {"version", 1}};
  scene["materials"] = entries.materials;
  scene["interactions"] = Json::array();
  scene["nodes"] = Json::array({entries.node});
  return scene;
}

/// The node named `name` anywhere under `nodes`, or null.
Json* findNode(Json& nodes, const std::string& name) {
  for (Json& node : nodes) {
    if (node["name"] == name) return &node;
    if (node.contains("children"))
      if (Json* found = findNode(node["children"], name)) return found;
  }
  return nullptr;
}

bool removeNode(Json& nodes, const std::string& name) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i]["name"] == name) return nodes.erase(i), true;
    if (nodes[i].contains("children") && removeNode(nodes[i]["children"], name)) return true;
  }
  return false;
}

Vec3 expectedV2Position(const std::string& object) {
  std::ifstream in(kDir / "level_v2.expected.json");
  const auto doc = nlohmann::json::parse(in);
  for (const auto& o : doc["objects"])
    if (o["name"] == object)
      return Vec3(o["position"][0].get<float>(), o["position"][1].get<float>(),
                  o["position"][2].get<float>());
  ADD_FAILURE() << object << " not in level_v2.expected.json";
  return Vec3(0.0f);
}

/// The user's edits: Suzanne made dynamic, the block's sides given Stone, CrateB renamed, a
/// marker node added under the block.
void editAsAUser(Json& scene) {
  Json& nodes = scene["nodes"];
  findNode(nodes, "Suzanne")->operator[]("collider")["body"] = "dynamic";
  Json& block = *findNode(nodes, "Block");
  block["material"] = "Stone";
  block["mesh"]["materials"][0] = "Stone";
  block["children"] =
      Json::array({{{"name", "Marker"}, {"transform", {{"position", {0, 1.5, 0}}}}}});
  findNode(nodes, "CrateB")->operator[]("name") = "CrateRight";
}

class BlenderReload : public ::testing::TestWithParam<const char*> {};

TEST_P(BlenderReload, EditsSurviveTheMovedObjectFollowsTheFileTheDeletedOneGoes) {
  const std::string ext = GetParam();
  const auto dir = floptle::testing::makeTempDir("blender_reload");
  const auto file = dir / ("level" + ext);
  exportAs("level", ext, dir);
  Json scene = importedScene(file);
  editAsAUser(scene);
  ASSERT_TRUE(scene::checkSceneDocument(scene).empty()) << scene.dump(1);
  const Json edited = scene;

  exportAs("level_v2", ext, dir);
  const std::string group = findMeshSubtree(scene, file, dir);
  ASSERT_EQ(group, "/nodes/0");
  const auto source = subtreeSource(scene.at(Json::json_pointer(group)));
  ASSERT_TRUE(source.ok()) << source.error().message();
  EXPECT_EQ(source->file, "level" + ext);
  auto tree = importMeshObjects(file, source->options);
  ASSERT_TRUE(tree.ok()) << tree.error().message();
  const auto resync = resyncMeshSubtree(scene, group, *tree, file, dir, *source);
  ASSERT_TRUE(resync.ok()) << resync.error().message();
  const ResyncReport& report = resync->report;

  ASSERT_EQ(report.removed.size(), 1u) << report.line();
  EXPECT_EQ(report.removed[0].object, "Wall-col");
  EXPECT_EQ(report.removed[0].node, "Wall");
  EXPECT_NE(report.line().find("removed 1 (Wall)"), std::string::npos) << report.line();
  EXPECT_TRUE(report.added.empty()) << report.line();
  EXPECT_EQ(report.kept.size(), tree->objects.size());
  // OBJ has no transforms: the moved crate's vertices moved, its node stays at the identity.
  const bool hierarchy = ext != ".obj";
  ASSERT_EQ(report.moved.size(), hierarchy ? 1u : 0u) << report.line();
  if (hierarchy) {
    EXPECT_EQ(report.moved[0].node, "CrateA");
  }

  scene[Json::json_pointer(group)] = resync->node;
  scene["materials"] = resync->materials;
  const auto problems = scene::checkSceneDocument(scene);
  ASSERT_TRUE(problems.empty()) << scene::joinProblems(problems).message();

  // Nothing else changed: the edited scene without the wall and with the crate's new
  // transform is the reloaded one, key for key.
  Json want = edited;
  ASSERT_TRUE(removeNode(want["nodes"], "Wall"));
  Json& crate = *findNode(want["nodes"], "CrateA");
  const Json& reloadedCrate = *findNode(scene["nodes"], "CrateA");
  if (reloadedCrate.contains("transform"))
    crate["transform"] = reloadedCrate["transform"];
  else
    crate.erase("transform");
  EXPECT_EQ(scene, want) << "reloaded:\n" << scene.dump(1) << "\nwanted:\n" << want.dump(1);
  EXPECT_EQ(findNode(scene["nodes"], "Suzanne")->at("collider")["body"], "dynamic");
  EXPECT_EQ(findNode(scene["nodes"], "Block")->at("mesh")["materials"], Json({"Stone", "Grass"}));
  EXPECT_EQ(findNode(scene["nodes"], "CrateRight")->at("mesh")["object"], "CrateB");

  // The moved crate stands where Blender put it: its mesh's bounds, placed by its node's world
  // transform, centre on Blender's position for it (a 1 m cube about its origin).
  auto built = scene::buildScene(scene);
  ASSERT_TRUE(built.ok()) << built.error().message();
  const scene::SceneNode& node = built->nodes[static_cast<std::size_t>(built->findNode("CrateA"))];
  ImportOptions one = source->options;
  one.object = "CrateA";
  auto mesh = importMesh(file, one);
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  const Aabb box = node.world.applyToAabb(mesh->bounds());
  const Vec3 centre = 0.5f * (box.min + box.max);
  const Vec3 expected = expectedV2Position("CrateA");
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(centre[k], expected[k], 1e-4f) << ext << " axis " << k;

  // A second reload of the same file changes nothing.
  const auto again = resyncMeshSubtree(scene, group, *tree, file, dir, *source);
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_TRUE(again->report.changesNothing()) << again->report.line();
  EXPECT_EQ(again->node, scene.at(Json::json_pointer(group)));
  EXPECT_EQ(again->materials, scene["materials"]);
}

TEST_P(BlenderReload, AnObjectNewInTheFileGetsItsNodeAndReusesTheSceneMaterial) {
  const std::string ext = GetParam();
  const auto dir = floptle::testing::makeTempDir("blender_reload_add");
  const auto file = dir / ("level" + ext);
  exportAs("level_v2", ext, dir);
  Json scene = importedScene(file);
  const std::size_t materials = scene["materials"].size();
  exportAs("level", ext, dir);
  const auto source = subtreeSource(scene["nodes"][0]);
  ASSERT_TRUE(source.ok()) << source.error().message();
  auto tree = importMeshObjects(file, source->options);
  ASSERT_TRUE(tree.ok()) << tree.error().message();
  const auto resync = resyncMeshSubtree(scene, "/nodes/0", *tree, file, dir, *source);
  ASSERT_TRUE(resync.ok()) << resync.error().message();
  ASSERT_EQ(resync->report.added.size(), 1u) << resync->report.line();
  EXPECT_EQ(resync->report.added[0].object, "Wall-col");
  EXPECT_TRUE(resync->report.removed.empty()) << resync->report.line();
  Json nodes = resync->node["children"];
  const Json* wall = findNode(nodes, "Wall");
  ASSERT_NE(wall, nullptr) << resync->node.dump(1);
  EXPECT_EQ(wall->at("mesh")["object"], "Wall-col");
  EXPECT_EQ(wall->at("mesh")["materials"], Json({"Stone"})) << "the scene's Stone, not a new one";
  EXPECT_EQ(wall->at("collider")["body"], "static");
  EXPECT_EQ(resync->materials.size(), materials);
}

INSTANTIATE_TEST_SUITE_P(Formats, BlenderReload, ::testing::Values(".glb", ".fbx", ".obj"),
                         [](const auto& info) { return std::string(info.param).substr(1); });

TEST(BlenderReloadSubtree, AGroupWrittenBeforeTheImportKeyIsFoundAndItsEmptiesMatchByName) {
  const auto dir = floptle::testing::makeTempDir("blender_reload_old");
  const auto file = dir / "level.glb";
  exportAs("level", ".glb", dir);
  Json scene = importedScene(file);
  // As scenes were written before groups and empties carried "import".
  scene["nodes"][0].erase("import");
  Json& pivot = *findNode(scene["nodes"], "Pivot");
  pivot.erase("import");
  pivot["transform"]["position"] = {-4, 3, 0};  // to tell that the file's transform wins
  ASSERT_EQ(findMeshSubtree(scene, file, dir), "/nodes/0");
  const auto source = subtreeSource(scene["nodes"][0]);
  ASSERT_TRUE(source.ok()) << source.error().message();
  EXPECT_EQ(source->file, "level.glb");
  auto tree = importMeshObjects(file, source->options);
  ASSERT_TRUE(tree.ok()) << tree.error().message();
  const auto resync = resyncMeshSubtree(scene, "/nodes/0", *tree, file, dir, *source);
  ASSERT_TRUE(resync.ok()) << resync.error().message();
  EXPECT_TRUE(resync->report.added.empty()) << resync->report.line();
  EXPECT_TRUE(resync->report.removed.empty()) << resync->report.line();
  ASSERT_EQ(resync->report.moved.size(), 1u) << resync->report.line();
  EXPECT_EQ(resync->report.moved[0].node, "Pivot");
  Json nodes = resync->node["children"];
  const Json* reloaded = findNode(nodes, "Pivot");
  ASSERT_NE(reloaded, nullptr);
  EXPECT_EQ(reloaded->at("import")["object"], "Pivot") << "the reload writes the reference";
  EXPECT_EQ(reloaded->at("transform")["position"], Json({-4.0, 0.0, 0.0}));
  EXPECT_EQ(resync->node["import"]["file"], "level.glb");
}

TEST(BlenderReloadSubtree, AFileNoSceneNodeHoldsIsNotFound) {
  const auto dir = floptle::testing::makeTempDir("blender_reload_none");
  exportAs("level", ".glb", dir);
  const Json scene = importedScene(dir / "level.glb");
  EXPECT_EQ(findMeshSubtree(scene, dir / "other.glb", dir), "");
  EXPECT_EQ(findMeshSubtree(scene, dir / "level.glb", dir / "elsewhere"), "");
  auto tree = importMeshObjects(dir / "level.glb");
  ASSERT_TRUE(tree.ok());
  const auto missing = resyncMeshSubtree(scene, "/nodes/7", *tree, dir / "level.glb", dir, {});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().where, "/nodes/7");
}

}  // namespace
}  // namespace floptle::asset
