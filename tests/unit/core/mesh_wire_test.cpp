// The import worker's frames: a mesh, an object tree and an error come back equal; every
// truncation and a corrupted index are refused as errors (never read out of bounds).
#include <gtest/gtest.h>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_wire.h"

namespace floptle::asset {
namespace {

const std::filesystem::path kLevel =
    std::filesystem::path(FLOPTLE_TEST_DATA_DIR) / "blender" / "level.glb";

TEST(MeshWire, AMeshRoundTripsExactly) {
  auto mesh = importMesh(kLevel);
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  auto decoded = decodeFrame(encodeMeshFrame(*mesh));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message();
  const auto* back = std::get_if<TriangleMesh>(&*decoded);
  ASSERT_NE(back, nullptr);
  EXPECT_EQ(back->positions, mesh->positions);
  EXPECT_EQ(back->triangles, mesh->triangles);
  EXPECT_EQ(back->triangleSlots, mesh->triangleSlots);
  ASSERT_EQ(back->materialSlots.size(), mesh->materialSlots.size());
  for (std::size_t i = 0; i < mesh->materialSlots.size(); ++i) {
    EXPECT_EQ(back->materialSlots[i].name, mesh->materialSlots[i].name);
    EXPECT_EQ(back->materialSlots[i].baseColor, mesh->materialSlots[i].baseColor);
  }
  EXPECT_EQ(back->sourceFiles, mesh->sourceFiles);
}

TEST(MeshWire, AnObjectTreeAndAnErrorRoundTrip) {
  auto tree = importMeshObjects(kLevel);
  ASSERT_TRUE(tree.ok()) << tree.error().message();
  auto decoded = decodeFrame(encodeObjectsFrame(*tree));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message();
  const auto* back = std::get_if<MeshObjectTree>(&*decoded);
  ASSERT_NE(back, nullptr);
  ASSERT_EQ(back->objects.size(), tree->objects.size());
  for (std::size_t i = 0; i < tree->objects.size(); ++i) {
    EXPECT_EQ(back->objects[i].name, tree->objects[i].name);
    EXPECT_EQ(back->objects[i].parent, tree->objects[i].parent);
    EXPECT_EQ(back->objects[i].local.position, tree->objects[i].local.position);
    EXPECT_EQ(back->objects[i].local.rotation, tree->objects[i].local.rotation);
    EXPECT_EQ(back->objects[i].local.scale, tree->objects[i].local.scale);
    EXPECT_EQ(back->objects[i].triangleCount, tree->objects[i].triangleCount);
    EXPECT_EQ(back->objects[i].materialSlots.size(), tree->objects[i].materialSlots.size());
    EXPECT_EQ(back->objects[i].instanceOf, tree->objects[i].instanceOf);
  }
  const Error sent{"a.glb", "no triangles"};
  auto error = decodeFrame(encodeErrorFrame(sent));
  ASSERT_TRUE(error.ok());
  ASSERT_NE(std::get_if<Error>(&*error), nullptr);
  EXPECT_EQ(std::get<Error>(*error).where, sent.where);
  EXPECT_EQ(std::get<Error>(*error).what, sent.what);
}

TEST(MeshWire, EveryTruncationAndACorruptIndexAreRefused) {
  TriangleMesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh.triangles = {{0, 1, 2}};
  mesh.triangleSlots = {0};
  mesh.materialSlots = {MaterialSlot{"Brick", {0.5f, 0.2f, 0.1f, 1.0f}}};
  const std::string frame = encodeMeshFrame(mesh);
  ASSERT_TRUE(decodeFrame(frame).ok());
  for (std::size_t size = 0; size < frame.size(); ++size) {
    auto cut = decodeFrame(std::string_view(frame).substr(0, size));
    ASSERT_FALSE(cut.ok()) << "a frame cut to " << size << " bytes was accepted";
    EXPECT_EQ(cut.error().where, "frame");
  }
  EXPECT_FALSE(decodeFrame(frame + "x").ok()) << "trailing bytes";
  TriangleMesh bad = mesh;
  bad.triangles = {{0, 1, 3}};
  EXPECT_FALSE(decodeFrame(encodeMeshFrame(bad)).ok()) << "a vertex index past the end";
  bad = mesh;
  bad.triangleSlots = {1};
  EXPECT_FALSE(decodeFrame(encodeMeshFrame(bad)).ok()) << "a slot past the end";
}

}  // namespace
}  // namespace floptle::asset
