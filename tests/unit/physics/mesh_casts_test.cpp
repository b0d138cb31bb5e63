// TriMeshCollider casts against closed forms: rays and sphere casts vs rotated boxes, capsule
// casts vs a plane, glancing rays, rays from inside, a fast sphere vs a 1 cm wall.
#include <gtest/gtest.h>

#include <random>

#include "../mesh_test_files.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {
namespace {

float sdBox(Vec3 p, Vec3 half) {
  const Vec3 q = glm::abs(p) - half;
  return glm::length(glm::max(q, Vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
}

Quat randomRotation(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  return glm::normalize(Quat(n(rng), n(rng), n(rng), n(rng)));
}

struct Posed {
  Transform xf;
  Vec3 half;
  std::unique_ptr<TriMeshCollider> collider;
};

Posed posedBox(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-3.0f, 3.0f), size(0.2f, 2.0f);
  Posed b;
  b.half = Vec3(size(rng), size(rng), size(rng));
  b.xf.rotation = randomRotation(rng);
  b.xf.position = Vec3(u(rng), u(rng), u(rng));
  auto mesh = floptle::testing::boxMesh(b.half);
  mesh.transform(b.xf);
  b.collider = std::move(TriMeshCollider::create(mesh)).value();
  return b;
}

TEST(MeshCasts, RaysAgainstRotatedBoxesMatchTheSlabTest) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int box = 0; box < 40; ++box) {
    const Posed b = posedBox(rng);
    for (int i = 0; i < 50; ++i) {
      // From a random point 8 m away, aimed at a random point inside the box.
      const Vec3 targetLocal = b.half * Vec3(u(rng), u(rng), u(rng)) * 0.9f;
      const Vec3 target = b.xf.applyToPoint(targetLocal);
      const Vec3 origin =
          target + 8.0f * glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(1e-3f));
      const Vec3 dir = glm::normalize(target - origin);
      const Ray local{b.xf.inverseApplyToPoint(origin), b.xf.inverseApplyToDirection(dir)};
      float tIn = 0, tOut = 0;
      ASSERT_TRUE(intersectRayAabb(local, Aabb{-b.half, b.half}, 100.0f, tIn, tOut));
      const auto hit = b.collider->raycast(origin, dir, 100.0f);
      ASSERT_TRUE(hit.hit);
      EXPECT_NEAR(hit.distance, tIn, 1e-4f);
      EXPECT_LT(glm::dot(hit.normal, dir), 0.0f);
      EXPECT_NEAR(glm::length(hit.normal), 1.0f, 1e-5f);
      // From inside, the exit face is hit.
      const auto inside = b.collider->raycast(target, dir, 100.0f);
      ASSERT_TRUE(inside.hit);
      EXPECT_NEAR(inside.distance, tOut - tIn - (8.0f - tIn), 1e-4f);
      // Too short: no hit.
      EXPECT_FALSE(b.collider->raycast(origin, dir, tIn - 1e-3f).hit);
    }
  }
}

TEST(MeshCasts, SphereCastsAgainstRotatedBoxesMatchTheRoundedBoxField) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), radius(0.05f, 0.6f);
  for (int box = 0; box < 30; ++box) {
    const Posed b = posedBox(rng);
    for (int i = 0; i < 30; ++i) {
      const float r = radius(rng);
      const Vec3 target = b.xf.applyToPoint(b.half * Vec3(u(rng), u(rng), u(rng)) * 0.5f);
      const Vec3 origin =
          target + 10.0f * glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(1e-3f));
      const Vec3 dir = glm::normalize(target - origin);
      // Closed form: the first s where the box's exact distance equals r (march to 1e-7).
      float s = 0.0f;
      for (int k = 0; k < 10000; ++k) {
        const float d = sdBox(b.xf.inverseApplyToPoint(origin + dir * s), b.half) - r;
        if (d < 1e-7f) break;
        s += d;
      }
      const auto hit = b.collider->sphereCast(origin, dir, r, 100.0f);
      ASSERT_TRUE(hit.hit);
      EXPECT_NEAR(hit.distance, s, 1e-4f) << "r " << r;
      // The contact point is on the box surface, r from the centre at contact.
      EXPECT_NEAR(sdBox(b.xf.inverseApplyToPoint(hit.point), b.half), 0.0f, 1e-4f);
      EXPECT_NEAR(glm::length(origin + dir * hit.distance - hit.point), r, 1e-4f);
      const auto cast = b.collider->castSphere(origin, dir, r, 100.0f, 0.0);
      EXPECT_TRUE(cast.handled);
      EXPECT_NEAR(cast.distance, hit.distance, 1e-6f);
    }
  }
}

TEST(MeshCasts, GlancingRaysAndStartingContact) {
  auto box = std::move(TriMeshCollider::create(floptle::testing::boxMesh(Vec3(1.0f)))).value();
  // Parallel to the top face, 1 mm above: a miss; 1 mm below the face plane: hits the side.
  EXPECT_FALSE(box->raycast(Vec3(-3, 1.001f, 0), Vec3(1, 0, 0), 10.0f).hit);
  const auto under = box->raycast(Vec3(-3, 0.999f, 0), Vec3(1, 0, 0), 10.0f);
  ASSERT_TRUE(under.hit);
  EXPECT_NEAR(under.distance, 2.0f, 1e-5f);
  // A sphere already touching reports contact at distance 0.
  const auto touching = box->sphereCast(Vec3(0, 1.2f, 0), Vec3(1, 0, 0), 0.3f, 5.0f);
  ASSERT_TRUE(touching.hit);
  EXPECT_EQ(touching.distance, 0.0f);
  EXPECT_NEAR(touching.normal.y, 1.0f, 1e-5f);
  // Grazing sphere over an edge: passes 1 mm clear.
  EXPECT_FALSE(box->sphereCast(Vec3(-3, 1.301f, 0), Vec3(1, 0, 0), 0.3f, 10.0f).hit);
}

TEST(MeshCasts, BulletSpeedSphereDoesNotTunnelThroughACentimetreWall) {
  auto wall =
      std::move(TriMeshCollider::create(floptle::testing::boxMesh(Vec3(0.005f, 2.0f, 2.0f))))
          .value();
  // 1000 m in one cast (a bullet's step at any frame rate).
  const auto hit = wall->sphereCast(Vec3(-500.0f, 0.1f, 0.2f), Vec3(1, 0, 0), 0.02f, 1000.0f);
  ASSERT_TRUE(hit.hit);
  EXPECT_NEAR(hit.distance, 500.0f - 0.005f - 0.02f, 1e-3f);
  EXPECT_NEAR(hit.normal.x, -1.0f, 1e-5f);
}

TEST(MeshCasts, CapsuleCastsAgainstAPlaneMatchTheLowestEnd) {
  asset::TriangleMesh plane;
  plane.positions = {{-50, 0, -50}, {50, 0, -50}, {50, 0, 50}, {-50, 0, 50}};
  plane.triangles = {{0, 2, 1}, {0, 3, 2}};
  plane.triangleSlots = {0, 0};
  auto ground = std::move(TriMeshCollider::create(plane)).value();
  const Vec3 a(0, 2, 0), b(1, 3, 0);
  const float r = 0.25f;
  const auto down = ground->capsuleCast(a, b, r, Vec3(0, -1, 0), 10.0f);
  ASSERT_TRUE(down.hit);
  EXPECT_NEAR(down.distance, 2.0f - r, 2e-4f);
  EXPECT_NEAR(down.normal.y, 1.0f, 1e-3f);
  const Vec3 slant = glm::normalize(Vec3(1, -1, 0));
  const auto diagonal = ground->capsuleCast(a, b, r, slant, 10.0f);
  ASSERT_TRUE(diagonal.hit);
  EXPECT_NEAR(diagonal.distance, (2.0f - r) * std::sqrt(2.0f), 3e-4f);
  EXPECT_FALSE(ground->capsuleCast(a, b, r, Vec3(0, -1, 0), 1.7f).hit);
  // Segment distance: the lower end is 2 m up.
  EXPECT_NEAR(ground->segmentDistance(a, b), 2.0f, 1e-6f);
}

}  // namespace
}  // namespace floptle::physics
