// importMesh: two-material OBJ and glTF written here, axes, errors, cancel.
#include <gtest/gtest.h>

#include <atomic>

#include "../mesh_test_files.h"
#include "floptle/core/asset/mesh_import.h"

namespace floptle::asset {
namespace {

using floptle::testing::makeTempDir;
using floptle::testing::writeText;

int slotNamed(const TriangleMesh& m, const std::string& name) {
  for (std::size_t i = 0; i < m.materialSlots.size(); ++i)
    if (m.materialSlots[i].name == name) return static_cast<int>(i);
  return -1;
}

TEST(AssetImport, TwoMaterialObjKeepsSlotNamesColoursAndPerTriangleLabels) {
  const auto dir = makeTempDir("obj");
  auto mesh = importMesh(floptle::testing::writeTwoMaterialCubeObj(dir));
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  EXPECT_EQ(mesh->triangleCount(), 12u);
  ASSERT_EQ(mesh->materialSlots.size(), 2u) << "DefaultMaterial is unused and must not be a slot";
  const int grass = slotNamed(*mesh, "grass"), rock = slotNamed(*mesh, "rock");
  ASSERT_GE(grass, 0);
  ASSERT_GE(rock, 0);
  EXPECT_NEAR(mesh->materialSlots[grass].baseColor.y, 0.8f, 1e-6f);
  EXPECT_NEAR(mesh->materialSlots[rock].baseColor.x, 0.5f, 1e-6f);
  int grassCount = 0;
  for (std::size_t i = 0; i < mesh->triangleCount(); ++i) {
    const auto c = mesh->corners(i);
    const bool top = c[0].y > 0.49f && c[1].y > 0.49f && c[2].y > 0.49f;
    EXPECT_EQ(mesh->triangleSlots[i], top ? grass : rock) << "triangle " << i;
    grassCount += top;
  }
  EXPECT_EQ(grassCount, 2);
  const Aabb box = mesh->bounds();
  EXPECT_NEAR(box.min.y, -0.5f, 1e-6f);
  EXPECT_NEAR(box.max.y, 0.5f, 1e-6f);
  std::filesystem::remove_all(dir);
}

TEST(AssetImport, TwoMaterialGltfKeepsSlotsAndAppliesNodeTransform) {
  const auto dir = makeTempDir("gltf");
  auto mesh = importMesh(floptle::testing::writeTwoMaterialGltf(dir));
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  ASSERT_EQ(mesh->triangleCount(), 2u);
  ASSERT_EQ(mesh->materialSlots.size(), 2u) << "the appended unnamed default material is unused";
  const int grass = slotNamed(*mesh, "grass"), rock = slotNamed(*mesh, "rock");
  ASSERT_GE(grass, 0);
  ASSERT_GE(rock, 0);
  EXPECT_NEAR(mesh->materialSlots[grass].baseColor.x, 0.1f, 1e-5f);
  EXPECT_NEAR(mesh->materialSlots[grass].baseColor.y, 0.8f, 1e-5f);
  for (std::size_t i = 0; i < 2; ++i) {
    const auto c = mesh->corners(i);
    const float x = (c[0].x + c[1].x + c[2].x) / 3.0f;
    EXPECT_EQ(mesh->triangleSlots[i], x < 2.0f ? rock : grass);
    for (const Vec3& p : c)
      EXPECT_NEAR(p.z, 5.0f, 1e-6f) << "node translation (0,0,5), glTF is Y-up already";
    // Y-up kept: the triangles rise in +Y.
    EXPECT_NEAR(std::max({c[0].y, c[1].y, c[2].y}), 1.0f, 1e-6f);
  }
  std::filesystem::remove_all(dir);
}

TEST(AssetImport, SourceFilesListTheMeshFileThenWhatItRefersTo) {
  const auto dir = makeTempDir("sources");
  const auto canonicalIn = [&](const std::string& name) {
    return std::filesystem::canonical(dir / name);
  };
  const auto canonicalOf = [](const std::vector<std::filesystem::path>& files) {
    std::vector<std::filesystem::path> out;
    for (const auto& f : files) out.push_back(std::filesystem::canonical(f));
    return out;
  };
  auto obj = importMesh(floptle::testing::writeTwoMaterialCubeObj(dir));
  ASSERT_TRUE(obj.ok()) << obj.error().message();
  for (const auto& f : obj->sourceFiles) EXPECT_TRUE(f.is_absolute()) << f;
  EXPECT_EQ(canonicalOf(obj->sourceFiles),
            (std::vector<std::filesystem::path>{canonicalIn("cube.obj"), canonicalIn("cube.mtl")}));
  // A glTF whose buffer is a .bin beside it; an embedded buffer is no file.
  auto separate = importMesh(floptle::testing::writeTwoMaterialGltf(dir, "two.bin"));
  ASSERT_TRUE(separate.ok()) << separate.error().message();
  EXPECT_EQ(separate->triangleCount(), 2u);
  EXPECT_EQ(canonicalOf(separate->sourceFiles),
            (std::vector<std::filesystem::path>{canonicalIn("two.gltf"), canonicalIn("two.bin")}));
  auto embedded = importMesh(floptle::testing::writeTwoMaterialGltf(dir));
  ASSERT_TRUE(embedded.ok()) << embedded.error().message();
  EXPECT_EQ(canonicalOf(embedded->sourceFiles),
            (std::vector<std::filesystem::path>{canonicalIn("two.gltf")}));
  // A mesh made in code has none.
  EXPECT_TRUE(floptle::testing::boxMesh(Vec3(1.0f)).sourceFiles.empty());
  std::filesystem::remove_all(dir);
}

TEST(AssetImport, UpAxisWordsAreTheComponentsAndTheClisOwn) {
  using UpAxis = ImportOptions::UpAxis;
  EXPECT_EQ(upAxisName(UpAxis::Automatic), "auto");
  EXPECT_EQ(upAxisName(UpAxis::Y), "y");
  EXPECT_EQ(upAxisName(UpAxis::Z), "z");
  for (UpAxis axis : {UpAxis::Automatic, UpAxis::Y, UpAxis::Z})
    EXPECT_EQ(parseUpAxis(upAxisName(axis)), axis);
  for (const char* other : {"", "Z", "x", "up", "auto "})
    EXPECT_FALSE(parseUpAxis(other).has_value()) << other;
}

TEST(AssetImport, ZUpFileIsTurnedToYUp) {
  const auto dir = makeTempDir("zup");
  writeText(dir / "tri.obj", "v 1 2 3\nv 2 2 3\nv 1 3 3\nf 1 2 3\n");
  ImportOptions options;
  options.upAxis = ImportOptions::UpAxis::Z;
  auto mesh = importMesh(dir / "tri.obj", options);
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  // (x, y, z) -> (x, z, -y): Blender's +Z up becomes +Y up.
  const auto c = mesh->corners(0);
  EXPECT_NEAR(c[0].x, 1.0f, 1e-6f);
  EXPECT_NEAR(c[0].y, 3.0f, 1e-6f);
  EXPECT_NEAR(c[0].z, -2.0f, 1e-6f);
  EXPECT_NEAR(c[2].z, -3.0f, 1e-6f);
  // A rotation keeps the winding: the face normal turns with the points.
  const Vec3 n = glm::normalize(glm::cross(c[1] - c[0], c[2] - c[0]));
  EXPECT_NEAR(n.y, 1.0f, 1e-6f) << "a +Z-facing triangle in Z-up faces +Y after import";
  options.upAxis = ImportOptions::UpAxis::Automatic;
  options.unitScale = 0.01f;  // centimeters
  auto scaled = importMesh(dir / "tri.obj", options);
  ASSERT_TRUE(scaled.ok());
  EXPECT_NEAR(scaled->corners(0)[0].z, 0.03f, 1e-7f);
  std::filesystem::remove_all(dir);
}

TEST(AssetImport, UnreadableOrEmptyFilesGiveClearErrors) {
  const auto dir = makeTempDir("bad");
  auto missing = importMesh(dir / "nope.obj");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().what.find("not found"), std::string::npos);
  EXPECT_NE(missing.error().where.find("nope.obj"), std::string::npos);

  writeText(dir / "empty.obj", "");
  auto empty = importMesh(dir / "empty.obj");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.error().what.find("empty"), std::string::npos);

  writeText(dir / "points.obj", "v 0 0 0\nv 1 0 0\n");
  auto noTriangles = importMesh(dir / "points.obj");
  ASSERT_FALSE(noTriangles.ok());

  writeText(dir / "junk.glb", "this is not a binary glTF at all");
  auto junk = importMesh(dir / "junk.glb");
  ASSERT_FALSE(junk.ok());
  EXPECT_FALSE(junk.error().what.empty());

  writeText(dir / "mesh.txt", "v 0 0 0\n");
  auto format = importMesh(dir / "mesh.txt");
  ASSERT_FALSE(format.ok());
  EXPECT_NE(format.error().what.find("unsupported"), std::string::npos);

  std::filesystem::create_directories(dir / "folder.obj");
  EXPECT_FALSE(importMesh(dir / "folder.obj").ok());
  std::filesystem::remove_all(dir);
}

TEST(AssetImport, ProgressIsReportedAndCancelStops) {
  const auto dir = makeTempDir("progress");
  const auto path = floptle::testing::writeTwoMaterialCubeObj(dir);
  float last = -1.0f;
  bool monotonic = true;
  auto mesh = importMesh(path, {}, [&](float f, std::string_view) {
    monotonic = monotonic && f >= last;
    last = f;
  });
  ASSERT_TRUE(mesh.ok());
  EXPECT_TRUE(monotonic);
  EXPECT_FLOAT_EQ(last, 1.0f);
  std::atomic<bool> cancel{true};
  auto cancelled = importMesh(path, {}, {}, &cancel);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_NE(cancelled.error().what.find("cancel"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace floptle::asset
