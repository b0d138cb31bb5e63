// TriMeshCollider vs closed forms: icosphere vs the sphere field, winding-number sign with a
// hole, face labels from an imported two-material OBJ and glTF, the scene factories.
#include <gtest/gtest.h>

#include <random>

#include "../mesh_test_files.h"
#include "floptle/core/asset/mesh_import.h"
#include "floptle/physics/baked_field_collider.h"
#include "floptle/physics/mesh_collider.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {
namespace {

using floptle::testing::icosphere;

/// Exact sphere field for comparisons.
class SphereShape final : public CollisionShape {
 public:
  SphereShape(Vec3 c, float r) : c_(c), r_(r) {}
  float distance(Vec3 p, double) const override { return glm::length(p - c_) - r_; }
  Vec3 normal(Vec3 p, double) const override { return glm::normalize(p - c_); }
  Aabb aabb(double) const override { return Aabb::fromCenterHalf(c_, Vec3(r_)); }

 private:
  Vec3 c_;
  float r_;
};

class PlaneShape final : public CollisionShape {
 public:
  float distance(Vec3 p, double) const override { return p.y; }
  Vec3 normal(Vec3, double) const override { return kUp; }
  Aabb aabb(double) const override { return {Vec3(-INFINITY), Vec3(INFINITY)}; }
};

TEST(MeshCollider, IcosphereAgreesWithTheSphereFieldWithinItsFacetError) {
  const auto mesh = icosphere(3, 1.0f);
  auto collider = TriMeshCollider::create(mesh);
  ASSERT_TRUE(collider.ok()) << collider.error().message();
  const float facet = 1.0f - floptle::testing::inradius(mesh);  // Hausdorff gap (m)
  ASSERT_LT(facet, 0.01f);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    const float exact = glm::length(p) - 1.0f;
    const float d = (*collider)->distance(p, 0.0);
    EXPECT_NEAR(d, exact, facet + 1e-5f) << p.x << "," << p.y << "," << p.z;
    if (std::abs(exact) > 2.0f * facet) {
      EXPECT_EQ(d < 0.0f, exact < 0.0f);
    }
    if (glm::length(p) > 1.2f) {
      EXPECT_GT(glm::dot((*collider)->normal(p, 0.0), glm::normalize(p)), 0.99f);
    }
  }
  // The hierarchical winding number is first order (dipole far field): within 0.03 of the exact
  // 1 inside and 0 outside, far from the 1/2 the sign test uses.
  EXPECT_NEAR((*collider)->windingNumber(Vec3(0.0f)), 1.0f, 0.03f);
  EXPECT_NEAR((*collider)->windingNumber(Vec3(0.3f, -0.2f, 0.1f)), 1.0f, 0.03f);
  EXPECT_NEAR((*collider)->windingNumber(Vec3(5.0f, 1.0f, 0.0f)), 0.0f, 0.03f);
  // One surface, one label: a plain mesh still reports its slot (it has a slot table).
  EXPECT_EQ((*collider)->faceLabel(Vec3(2, 0, 0)).value_or(99), 0);
  EXPECT_EQ((*collider)->labelName(0), "surface");
}

TEST(MeshCollider, WindingNumberGivesAHoledSphereASensibleInside) {
  auto mesh = icosphere(3, 1.0f);
  // Cut a cap (every triangle with a corner above y = 0.9): a hole of radius ~0.44 m.
  asset::TriangleMesh holed = mesh;
  holed.triangles.clear();
  holed.triangleSlots.clear();
  for (std::size_t i = 0; i < mesh.triangleCount(); ++i) {
    const auto c = mesh.corners(i);
    if (c[0].y > 0.9f || c[1].y > 0.9f || c[2].y > 0.9f) continue;
    holed.triangles.push_back(mesh.triangles[i]);
    holed.triangleSlots.push_back(0);
  }
  ASSERT_LT(holed.triangleCount(), mesh.triangleCount());
  auto collider = TriMeshCollider::create(holed);
  ASSERT_TRUE(collider.ok());
  const auto& c = **collider;
  // Inside, including right under the hole where the nearest feature is the hole's rim.
  for (Vec3 p : {Vec3(0.0f), Vec3(0, -0.5f, 0), Vec3(0, 0.7f, 0), Vec3(0.1f, 0.7f, 0.05f),
                 Vec3(0.5f, 0.3f, 0.2f)}) {
    EXPECT_LT(c.distance(p, 0.0), 0.0f) << p.x << "," << p.y << "," << p.z;
    EXPECT_GT(c.windingNumber(p), 0.5f);
  }
  // Outside, including just above the hole.
  for (Vec3 p : {Vec3(0, 1.2f, 0), Vec3(0.2f, 1.05f, 0.0f), Vec3(2, 0, 0), Vec3(0, -1.5f, 0.3f),
                 Vec3(0.6f, 0.95f, 0.0f)}) {
    EXPECT_GT(c.distance(p, 0.0), 0.0f) << p.x << "," << p.y << "," << p.z;
    EXPECT_LT(c.windingNumber(p), 0.5f);
  }
}

TEST(MeshCollider, FaceLabelsOfAnImportedTwoMaterialObjAndGltf) {
  const auto dir = floptle::testing::makeTempDir("labels");
  auto obj = asset::importMesh(floptle::testing::writeTwoMaterialCubeObj(dir));
  ASSERT_TRUE(obj.ok()) << obj.error().message();
  auto cube = TriMeshCollider::create(*obj);
  ASSERT_TRUE(cube.ok());
  auto top = (*cube)->faceLabel(Vec3(0.1f, 0.7f, -0.1f));
  auto side = (*cube)->faceLabel(Vec3(0.9f, 0.0f, 0.1f));
  auto bottom = (*cube)->faceLabel(Vec3(0.0f, -0.45f, 0.0f));
  ASSERT_TRUE(top && side && bottom);
  EXPECT_EQ((*cube)->labelName(*top), "grass");
  EXPECT_EQ((*cube)->labelName(*side), "rock");
  EXPECT_EQ((*cube)->labelName(*bottom), "rock");
  EXPECT_NEAR((*cube)->distance(Vec3(0.0f), 0.0), -0.5f, 1e-6f);

  auto gltf = asset::importMesh(floptle::testing::writeTwoMaterialGltf(dir));
  ASSERT_TRUE(gltf.ok()) << gltf.error().message();
  auto pair = TriMeshCollider::create(*gltf);
  ASSERT_TRUE(pair.ok());
  auto left = (*pair)->faceLabel(Vec3(0.2f, 0.2f, 5.3f));
  auto right = (*pair)->faceLabel(Vec3(3.2f, 0.2f, 4.8f));
  ASSERT_TRUE(left && right);
  EXPECT_EQ((*pair)->labelName(*left), "rock");
  EXPECT_EQ((*pair)->labelName(*right), "grass");
  std::filesystem::remove_all(dir);
}

TEST(MeshCollider, FactoryLoadsTheFileUnderTheNodeTransform) {
  const auto dir = floptle::testing::makeTempDir("factory");
  floptle::testing::writeTwoMaterialCubeObj(dir);
  Transform world;
  world.position = Vec3(10, 0, 0);
  world.scale = 2.0f;
  world.rotation = glm::angleAxis(0.5f, glm::normalize(Vec3(0, 1, 0)));
  auto shape = makeMeshCollider(nlohmann::ordered_json{{"file", "cube.obj"}}, dir, world);
  ASSERT_TRUE(shape.ok()) << shape.error().message();
  EXPECT_NEAR((*shape)->distance(Vec3(10, 0, 0), 0.0), -1.0f, 1e-5f);  // half extent 0.5 * 2
  EXPECT_NEAR((*shape)->distance(Vec3(10, 3, 0), 0.0), 2.0f, 1e-5f);   // above the top face
  auto label = (*shape)->faceLabel(Vec3(10, 1.5f, 0));
  ASSERT_TRUE(label.has_value());
  EXPECT_EQ((*shape)->labelName(*label), "grass");

  auto field = makeMeshCollider(
      nlohmann::ordered_json{{"file", "cube.obj"}, {"collision", "field"}, {"cell_size", 0.1}}, dir,
      world);
  ASSERT_TRUE(field.ok()) << field.error().message();
  EXPECT_NEAR((*field)->distance(Vec3(10, 1.1f, 0), 0.0), 0.1f, 0.05f);
  EXPECT_NEAR((*field)->distance(Vec3(10, 0.9f, 0), 0.0), -0.1f, 0.05f);
  EXPECT_FALSE((*field)->faceLabel(Vec3(10, 1.1f, 0)).has_value()) << "a field has one surface";

  auto missing = makeMeshCollider(nlohmann::ordered_json{{"file", "gone.obj"}}, dir, world);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().where, "mesh/file");
  auto badMode = makeMeshCollider(
      nlohmann::ordered_json{{"file", "cube.obj"}, {"collision", "voxels"}}, dir, world);
  ASSERT_FALSE(badMode.ok());
  EXPECT_EQ(badMode.error().where, "mesh/collision");
  auto badCell =
      makeMeshCollider(nlohmann::ordered_json{{"file", "cube.obj"}, {"cell_size", -1}}, dir, world);
  ASSERT_FALSE(badCell.ok());
  EXPECT_EQ(badCell.error().where, "mesh/cell_size");
  std::filesystem::remove_all(dir);
}

TEST(MeshCollider, TerrainCollidesWithItsDrawnTrianglesOrItsField) {
  auto drawn =
      makeTerrainCollider(nlohmann::ordered_json{{"collision", "drawn"}, {"cell_size", 0.1}},
                          std::make_unique<SphereShape>(Vec3(0.0f), 1.0f));
  ASSERT_TRUE(drawn.ok()) << drawn.error().message();
  EXPECT_NEAR((*drawn)->distance(Vec3(0, 1.5f, 0), 0.0), 0.5f, 0.01f);
  EXPECT_NEAR((*drawn)->distance(Vec3(0.3f, 0.2f, 0.1f), 0.0),
              glm::length(Vec3(0.3f, 0.2f, 0.1f)) - 1.0f, 0.01f);
  EXPECT_FALSE((*drawn)->faceLabel(Vec3(0, 1.5f, 0)).has_value()) << "a terrain has one surface";

  auto sphere = std::make_unique<SphereShape>(Vec3(0.0f), 1.0f);
  const CollisionShape* raw = sphere.get();
  auto field =
      makeTerrainCollider(nlohmann::ordered_json{{"collision", "field"}}, std::move(sphere));
  ASSERT_TRUE(field.ok());
  EXPECT_EQ(field->get(), raw);

  auto unbounded =
      makeTerrainCollider(nlohmann::ordered_json::object(), std::make_unique<PlaneShape>());
  ASSERT_FALSE(unbounded.ok());
  EXPECT_EQ(unbounded.error().where, "terrain/bounds");
  auto bounded = makeTerrainCollider(
      nlohmann::ordered_json{{"cell_size", 0.5},
                             {"bounds", {{"min", {-4, -1, -4}}, {"max", {4, 1, 4}}}}},
      std::make_unique<PlaneShape>());
  ASSERT_TRUE(bounded.ok()) << bounded.error().message();
  EXPECT_NEAR((*bounded)->distance(Vec3(1, 2, 1), 0.0), 2.0f, 1e-4f);
  auto badMode = makeTerrainCollider(nlohmann::ordered_json{{"collision", "mesh"}},
                                     std::make_unique<PlaneShape>());
  ASSERT_FALSE(badMode.ok());
  EXPECT_EQ(badMode.error().where, "terrain/collision");
}

}  // namespace
}  // namespace floptle::physics
