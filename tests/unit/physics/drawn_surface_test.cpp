// drawn_surface: every drawn triangle's centre within 0.1 cell of distance zero on the collider,
// through a rotated, translated node; outward winding; a drawn terrain collides like its field.
#include <gtest/gtest.h>

#include "../mesh_test_files.h"
#include "floptle/physics/drawn_surface.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {
namespace {

/// A capsule (segment +-0.6 m along local X, radius 0.5 m) under a node transform with
/// rotation, translation and scale 1.5: the collider answers in world space.
class PosedCapsule final : public CollisionShape {
 public:
  explicit PosedCapsule(Transform xf) : xf_(xf) {}
  float distance(Vec3 p, double) const override {
    const Vec3 q = xf_.inverseApplyToPoint(p);
    return (glm::length(q - closestPointOnSegment(q, a_, b_)) - r_) * xf_.scale;
  }
  Vec3 normal(Vec3 p, double) const override {
    const Vec3 q = xf_.inverseApplyToPoint(p);
    return xf_.applyToNormal(glm::normalize(q - closestPointOnSegment(q, a_, b_)));
  }
  Aabb aabb(double) const override { return xf_.applyToAabb(Aabb{a_ - Vec3(r_), b_ + Vec3(r_)}); }

 private:
  Transform xf_;
  Vec3 a_{-0.6f, 0, 0}, b_{0.6f, 0, 0};
  float r_ = 0.5f;
};

TEST(DrawnSurface, EveryTriangleCentreLiesOnTheColliderThroughTheNodeTransform) {
  Transform xf;
  xf.position = Vec3(2.0f, -1.0f, 0.5f);
  xf.rotation = glm::angleAxis(0.7f, glm::normalize(Vec3(1, 2, 3)));
  xf.scale = 1.5f;
  const PosedCapsule shape(xf);
  DrawnSurfaceSettings settings;
  settings.cellSize = 0.075f;  // the capsule's radius is 0.75 m = 10 cells
  settings.chunkCells = 16;    // several chunks: seams are exercised
  auto mesh = drawnSurface(shape, settings);
  ASSERT_TRUE(mesh.ok()) << mesh.error().message();
  ASSERT_GT(mesh->triangleCount(), 1000u);
  const float limit = 0.1f * settings.cellSize;  // the stated fraction: 0.1 cell
  float worst = 0.0f;
  int outward = 0;
  for (std::size_t i = 0; i < mesh->triangleCount(); ++i) {
    const auto c = mesh->corners(i);
    const Vec3 centre = (c[0] + c[1] + c[2]) / 3.0f;
    worst = std::max(worst, std::abs(shape.distance(centre, 0.0)));
    const Vec3 n = glm::cross(c[1] - c[0], c[2] - c[0]);
    outward += glm::dot(n, shape.normal(centre, 0.0)) > 0.0f;
  }
  EXPECT_LE(worst, limit);
  EXPECT_EQ(outward, static_cast<int>(mesh->triangleCount()))
      << "wound counter-clockwise seen from outside";
  // Closed: a collider built from the drawn triangles agrees with the field.
  auto drawn = TriMeshCollider::create(*mesh, TriMeshCollider::Settings{false});
  ASSERT_TRUE(drawn.ok());
  for (Vec3 local : {Vec3(0.0f), Vec3(0.5f, 0.2f, 0.0f), Vec3(0, 1.5f, 0), Vec3(-2, 0, 0.3f)}) {
    const Vec3 p = xf.applyToPoint(local);
    EXPECT_NEAR((*drawn)->distance(p, 0.0), shape.distance(p, 0.0), 0.02f);
  }
}

TEST(DrawnSurface, MeshCollidersAreDrawnToo) {
  auto sphere = TriMeshCollider::create(floptle::testing::icosphere(4, 1.0f));
  ASSERT_TRUE(sphere.ok());
  DrawnSurfaceSettings settings;
  settings.cellSize = 0.1f;
  auto mesh = drawnSurface(**sphere, settings);
  ASSERT_TRUE(mesh.ok());
  ASSERT_GT(mesh->triangleCount(), 500u);
  for (std::size_t i = 0; i < mesh->triangleCount(); ++i) {
    const auto c = mesh->corners(i);
    EXPECT_LE(std::abs((*sphere)->distance((c[0] + c[1] + c[2]) / 3.0f, 0.0)),
              0.1f * settings.cellSize);
  }
}

TEST(DrawnSurface, BadSettingsAreRefused) {
  const PosedCapsule shape(Transform{});
  DrawnSurfaceSettings settings;
  settings.cellSize = 0.0f;
  EXPECT_FALSE(drawnSurface(shape, settings).ok());
  settings.cellSize = 1e-5f;
  EXPECT_FALSE(drawnSurface(shape, settings).ok()) << "too many cells";
  settings.cellSize = 0.1f;
  std::atomic<bool> cancel{true};
  EXPECT_FALSE(drawnSurface(shape, settings, &cancel).ok());
}

}  // namespace
}  // namespace floptle::physics
