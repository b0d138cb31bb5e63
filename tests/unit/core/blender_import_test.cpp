// Files Blender 3.4 wrote (tests/data/blender): each format's objects come in as a tree with
// Blender's names, parents and world transforms, their slots, and one object's triangles alone.
//
// The fixtures are committed; to write them again (needs Blender, never the test suite), run
// this one command from the repository root:
//   env -i PATH=/usr/bin:/bin HOME=$HOME blender -b --factory-startup
//       --python tests/data/blender/make_fixtures.py -- tests/data/blender
// level.expected.json is Blender's own world transform of each object, turned to +Y up.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_scene_entries.h"

namespace floptle::asset {
namespace {

const std::filesystem::path kDir = std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender";

struct Expected3d {
  std::string parent;
  bool empty = false;
  Vec3 position{0.0f};
  Quat rotation{1, 0, 0, 0};
  std::vector<std::string> slots;
};

std::map<std::string, Expected3d> blenderObjects() {
  std::ifstream in(kDir / "level.expected.json");
  const auto doc = nlohmann::json::parse(in);
  std::map<std::string, Expected3d> out;
  for (const auto& o : doc["objects"]) {
    Expected3d e;
    e.parent = o["parent"].is_null() ? "" : o["parent"].get<std::string>();
    e.empty = o["type"] == "EMPTY";
    e.position = Vec3(o["position"][0].get<float>(), o["position"][1].get<float>(),
                      o["position"][2].get<float>());
    e.rotation = Quat(o["rotation"][3].get<float>(), o["rotation"][0].get<float>(),
                      o["rotation"][1].get<float>(), o["rotation"][2].get<float>());
    e.slots = o["slots"].get<std::vector<std::string>>();
    out[o["name"].get<std::string>()] = e;
  }
  return out;
}

/// World transform of object i: its parents' locals composed.
Transform worldOf(const MeshObjectTree& tree, int i) {
  Transform world = tree.objects[static_cast<std::size_t>(i)].local;
  for (int p = tree.objects[static_cast<std::size_t>(i)].parent; p >= 0;
       p = tree.objects[static_cast<std::size_t>(p)].parent)
    world = tree.objects[static_cast<std::size_t>(p)].local.compose(world);
  return world;
}

int indexOf(const MeshObjectTree& tree, const std::string& name) {
  for (std::size_t i = 0; i < tree.objects.size(); ++i)
    if (tree.objects[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> slotNames(const MeshObject& object) {
  std::vector<std::string> names;
  for (const MaterialSlot& s : object.materialSlots) names.push_back(s.name);
  return names;
}

class BlenderFile : public ::testing::TestWithParam<const char*> {};

TEST_P(BlenderFile, ObjectsKeepTheirNamesParentsWorldTransformsAndSlots) {
  const std::string ext = GetParam();
  auto tree = importMeshObjects(kDir / ("level" + ext));
  ASSERT_TRUE(tree.ok()) << tree.error().message();
  const auto expected = blenderObjects();
  // OBJ keeps neither empties, parents nor transforms: Blender wrote world-space vertices.
  const bool hierarchy = ext != ".obj";
  std::size_t meshObjects = 0;
  for (const auto& [name, e] : expected) {
    const int i = indexOf(*tree, name);
    if (!hierarchy && e.empty) {
      EXPECT_LT(i, 0) << name;
      continue;
    }
    ASSERT_GE(i, 0) << name << " missing from " << ext;
    const MeshObject& object = tree->objects[static_cast<std::size_t>(i)];
    EXPECT_EQ(object.triangleCount == 0, e.empty) << name;
    meshObjects += !e.empty;
    EXPECT_EQ(slotNames(object), e.slots) << name;
    EXPECT_EQ(object.hasFacesWithoutSlot, e.slots.empty() && !e.empty) << name;
    if (!hierarchy) {
      EXPECT_EQ(object.parent, -1) << name;
      EXPECT_TRUE(object.local.isIdentity()) << name;
      continue;
    }
    const std::string parent =
        object.parent < 0 ? "" : tree->objects[static_cast<std::size_t>(object.parent)].name;
    EXPECT_EQ(parent, e.parent) << name;
    const Transform world = worldOf(*tree, i);
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(world.position[k], e.position[k], 1e-4f) << name << " axis " << k;
    EXPECT_NEAR(std::abs(glm::dot(world.rotation, e.rotation)), 1.0f, 1e-5f) << name;
    EXPECT_NEAR(world.scale, 1.0f, 1e-5f) << name;
  }
  EXPECT_EQ(tree->objects.size(), hierarchy ? expected.size() : meshObjects) << ext;
  if (hierarchy) {  // the linked duplicate: one mesh in the file, two objects
    EXPECT_EQ(tree->objects[static_cast<std::size_t>(indexOf(*tree, "CrateB"))].instanceOf,
              "CrateA");
    EXPECT_EQ(tree->objects[static_cast<std::size_t>(indexOf(*tree, "CrateA"))].instanceOf, "");
  }
}

TEST_P(BlenderFile, OneObjectIsReadAloneInTheFrameItsNodePlaces) {
  const std::string ext = GetParam();
  const bool hierarchy = ext != ".obj";
  ImportOptions options;
  options.object = "Block";
  auto block = importMesh(kDir / ("level" + ext), options);
  ASSERT_TRUE(block.ok()) << block.error().message();
  EXPECT_EQ(block->triangleCount(), 12u);
  // The 2 m block stands on the ground at the origin: its node is at y = 1 (glTF, FBX) and
  // its vertices span +-1 around it; OBJ's node is the identity, its vertices at y 0..2.
  const Aabb box = block->bounds();
  const float lift = hierarchy ? 0.0f : 1.0f;
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(box.min[k], k == 1 ? lift - 1.0f : -1.0f, 1e-5f) << ext << " axis " << k;
    EXPECT_NEAR(box.max[k], k == 1 ? lift + 1.0f : 1.0f, 1e-5f) << ext << " axis " << k;
  }
  ASSERT_EQ(block->materialSlots.size(), 2u);
  for (std::size_t t = 0; t < block->triangleCount(); ++t) {
    const auto c = block->corners(t);
    const bool top = c[0].y > lift + 0.99f && c[1].y > lift + 0.99f && c[2].y > lift + 0.99f;
    EXPECT_EQ(block->materialSlots[block->triangleSlots[t]].name, top ? "Grass" : "Brick")
        << ext << " triangle " << t;
  }

  options.object = "Suzanne";
  auto suzanne = importMesh(kDir / ("level" + ext), options);
  ASSERT_TRUE(suzanne.ok()) << suzanne.error().message();
  EXPECT_EQ(suzanne->triangleCount(), 968u) << "Blender's monkey: 500 faces, 968 triangles";
  EXPECT_TRUE(suzanne->materialSlots.empty());
  for (std::uint16_t slot : suzanne->triangleSlots) ASSERT_EQ(slot, kNoMaterialSlot);

  options.object = "Nobody";
  auto missing = importMesh(kDir / ("level" + ext), options);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message().find("'Nobody'"), std::string::npos)
      << missing.error().message();
}

TEST_P(BlenderFile, TheWholeFileFlattenedLabelsSuzanneWithNoSlot) {
  auto mesh = importMesh(kDir / (std::string("level") + GetParam()));
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  std::vector<std::string> names;
  for (const MaterialSlot& s : mesh->materialSlots) names.push_back(s.name);
  for (const std::string& name : names) {
    EXPECT_NE(name, "DefaultMaterial");
    EXPECT_NE(name.rfind("slot", 0), 0u) << name;
  }
  std::size_t unslotted = 0;
  for (std::uint16_t slot : mesh->triangleSlots) unslotted += slot == kNoMaterialSlot;
  EXPECT_EQ(unslotted, 968u) << "Suzanne's triangles, and only hers";
}

INSTANTIATE_TEST_SUITE_P(Formats, BlenderFile, ::testing::Values(".glb", ".fbx", ".obj"),
                         [](const auto& info) { return std::string(info.param).substr(1); });

TEST(BlenderSubtree, SuffixesSkipsAndSharedSlotsMakeTheSceneNodes) {
  auto tree = importMeshObjects(kDir / "level.glb");
  ASSERT_TRUE(tree.ok()) << tree.error().message();
  SubtreeRules rules;
  rules.skip = {"Crate?"};
  const auto entries =
      meshSubtreeEntries(*tree, kDir / "level.glb", kDir, MeshCollision::TriangleMesh, rules);
  const auto& group = entries.node;
  EXPECT_EQ(group["name"], "level");
  EXPECT_FALSE(group.contains("mesh"));
  std::map<std::string, nlohmann::ordered_json> top;
  for (const auto& child : group["children"]) top[child["name"].get<std::string>()] = child;
  EXPECT_EQ(top.size(), 4u) << group.dump();  // Block, Suzanne, Pivot, Wall; the crates skipped
  EXPECT_FALSE(top.count("CrateA"));
  ASSERT_TRUE(top.count("Wall")) << "'-col' is dropped from the node name";
  EXPECT_EQ(top["Wall"]["mesh"]["object"], "Wall-col") << "the component names the file's object";
  EXPECT_EQ(top["Wall"]["collider"]["body"], "static");
  EXPECT_EQ(top["Block"]["mesh"]["file"], "level.glb");
  EXPECT_EQ(top["Block"]["mesh"]["materials"], nlohmann::ordered_json({"Brick", "Grass"}));
  EXPECT_EQ(top["Block"]["material"], "Brick");
  EXPECT_EQ(top["Suzanne"]["mesh"]["materials"], nlohmann::ordered_json::array());
  EXPECT_FALSE(top["Suzanne"].contains("material"));
  ASSERT_TRUE(top.count("Pivot"));
  EXPECT_FALSE(top["Pivot"].contains("mesh")) << "an empty is an empty node";
  ASSERT_EQ(top["Pivot"]["children"].size(), 1u);
  EXPECT_EQ(top["Pivot"]["children"][0]["name"], "Child");
  std::set<std::string> ids;
  for (const auto& m : entries.materials) ids.insert(m["id"].get<std::string>());
  EXPECT_EQ(ids, (std::set<std::string>{"Brick", "Grass", "Stone"}))
      << "one material per slot name; Wood skipped";

  rules = {};
  rules.collideOnlySuffixed = true;
  const auto suffixed =
      meshSubtreeEntries(*tree, kDir / "level.glb", kDir, MeshCollision::TriangleMesh, rules);
  for (const auto& child : suffixed.node["children"]) {
    if (!child.contains("collider")) continue;
    EXPECT_EQ(child["collider"].value("collidable", true), child["name"] == "Wall")
        << child["name"];
  }
}

TEST(BlenderSubtree, GlobsMatchWholeNames) {
  EXPECT_TRUE(globMatch("*_nocol", "rock_nocol"));
  EXPECT_FALSE(globMatch("*_nocol", "rock_nocol2"));
  EXPECT_TRUE(globMatch("Crate?", "CrateB"));
  EXPECT_FALSE(globMatch("Crate?", "Crate"));
  EXPECT_TRUE(globMatch("*", ""));
  EXPECT_TRUE(globMatch("a*b*c", "aXbYbZc"));
  EXPECT_FALSE(globMatch("a*b*c", "aXbYbZ"));
}

}  // namespace
}  // namespace floptle::asset

namespace floptle::asset {
namespace {

TEST(BlenderSubtree, ColOnlyIsNotDrawnAndTransformsRoundToTheirDefaults) {
  MeshObjectTree tree;
  MeshObject floor;
  floor.name = "Floor-colonly";
  floor.triangleCount = 2;
  floor.local.rotation = Quat(1.0f, -1e-9f, 0.0f, 0.0f);  // identity but for float noise
  floor.local.position = Vec3(0.0f, 2.5f, 0.0f);
  tree.objects.push_back(floor);
  const auto entries =
      meshSubtreeEntries(tree, "/levels/floor.glb", {}, MeshCollision::TriangleMesh);
  const auto& node = entries.node["children"][0];
  EXPECT_EQ(node["name"], "Floor");
  EXPECT_EQ(node["mesh"]["object"], "Floor-colonly");
  EXPECT_EQ(node["mesh"]["drawn"], false);
  EXPECT_EQ(node["collider"]["body"], "static");
  EXPECT_EQ(node["transform"].dump(), R"({"position":[0.0,2.5,0.0]})");
  EXPECT_EQ(node["mesh"]["file"], "/levels/floor.glb") << "no scene folder: absolute";
}

}  // namespace
}  // namespace floptle::asset
