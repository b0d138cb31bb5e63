// meshSceneEntries, the one place that turns an imported mesh into scene JSON (used by
// `floptle import` and the editor's Import Mesh): ids from slot names made unique, the file
// path relative to the scene's folder, the collision kind, node names made unique.
#include <gtest/gtest.h>

#include <cmath>

#include "floptle/core/asset/mesh_scene_entries.h"

using namespace floptle;
using namespace floptle::asset;

namespace {

TriangleMesh twoSlotMesh() {
  TriangleMesh mesh;
  mesh.materialSlots.push_back({"rock", {0.5f, 0.25f, 0.125f, 1.0f}});
  mesh.materialSlots.push_back(
      {"rock", {0.1f, 0.2f, 0.3f, 1.0f}});  // a second slot with the same name
  return mesh;
}

}  // namespace

TEST(MeshSceneEntries, OneMaterialPerSlotWithUniqueIdsAndTheNodeReferencingThem) {
  const MeshSceneEntries e = meshSceneEntries(twoSlotMesh(), "/data/models/house.glb", "/data",
                                              MeshCollision::TriangleMesh);
  ASSERT_EQ(e.materials.size(), 2u);
  EXPECT_EQ(e.materials[0]["id"], "rock");
  EXPECT_EQ(e.materials[1]["id"], "rock#2");
  EXPECT_EQ(e.materials[0]["color"], nlohmann::ordered_json({0.5, 0.25, 0.125}));
  for (const auto& m : e.materials)
    for (const char* key : {"density", "friction", "restitution", "bulk_modulus", "yield_strength"})
      EXPECT_TRUE(m.contains(key)) << key;
  EXPECT_EQ(e.node["name"], "house");
  EXPECT_EQ(e.node["material"], "rock");
  EXPECT_EQ(e.node["mesh"]["file"], "models/house.glb");  // relative to the scene's folder
  EXPECT_EQ(e.node["mesh"]["collision"], "mesh");
  EXPECT_EQ(e.node["mesh"]["materials"], nlohmann::ordered_json({"rock", "rock#2"}));
  EXPECT_EQ(e.node["collider"]["body"], "static");
}

TEST(MeshSceneEntries, TakenIdsAndNamesGetSuffixesAndNoSceneDirGivesAnAbsolutePath) {
  const MeshSceneEntries e =
      meshSceneEntries(twoSlotMesh(), "/data/house.obj", {}, MeshCollision::BakedField,
                       {"rock", "rock#2"}, {"house", "house_2"});
  EXPECT_EQ(e.materials[0]["id"], "rock#3");
  EXPECT_EQ(e.materials[1]["id"], "rock#2#2");
  EXPECT_EQ(e.node["name"], "house_3");
  EXPECT_EQ(e.node["mesh"]["file"], "/data/house.obj");
  EXPECT_EQ(e.node["mesh"]["collision"], "field");
  EXPECT_STREQ(meshCollisionName(MeshCollision::TriangleMesh), "mesh");
}

TEST(MeshSceneEntries, TheImportOptionsAreWrittenUnlessTheyAreTheFormatsOwn) {
  const MeshSceneEntries plain =
      meshSceneEntries(twoSlotMesh(), "m.obj", {}, MeshCollision::TriangleMesh);
  EXPECT_FALSE(plain.node["mesh"].contains("up_axis"));
  EXPECT_FALSE(plain.node["mesh"].contains("unit_scale"));
  ImportOptions options;
  options.upAxis = ImportOptions::UpAxis::Z;
  options.unitScale = 0.01f;
  const MeshSceneEntries e =
      meshSceneEntries(twoSlotMesh(), "m.fbx", {}, MeshCollision::TriangleMesh, {}, {}, options);
  EXPECT_EQ(e.node["mesh"]["up_axis"], "z");
  EXPECT_NEAR(e.node["mesh"]["unit_scale"].get<double>(), 0.01, 1e-9);
  options.upAxis = ImportOptions::UpAxis::Y;
  EXPECT_EQ(
      meshSceneEntries(twoSlotMesh(), "m.fbx", {}, MeshCollision::TriangleMesh, {}, {}, options)
          .node["mesh"]["up_axis"],
      "y");
}

TEST(MeshSceneEntries, NonFiniteColoursAreWrittenAsZero) {
  TriangleMesh mesh;
  mesh.materialSlots.push_back({"bad", {std::nanf(""), INFINITY, 0.3333333333f, 1.0f}});
  const MeshSceneEntries e = meshSceneEntries(mesh, "m.obj", {}, MeshCollision::TriangleMesh);
  EXPECT_EQ(e.materials[0]["color"][0], 0.0);
  EXPECT_EQ(e.materials[0]["color"][1], 0.0);
  EXPECT_NEAR(e.materials[0]["color"][2].get<double>(), 0.333333, 1e-9);
}
