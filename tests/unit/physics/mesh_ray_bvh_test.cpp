// TriMeshCollider::raycast (the eight-wide BVH traversal) against a brute-force scan of every
// triangle: same nearest hit, distance, triangle and facing normal, for random rays through a
// wavy terrain and a cloud of random triangles, including rays along axes (zero direction
// components, where the slab test divides by zero) and rays that end just short of the hit.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "brute_force_ray.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {
namespace {

asset::TriangleMesh wavyTerrainAndCloud() {
  asset::TriangleMesh m;
  constexpr int n = 41;  // vertices per side, 1 m apart
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float x = float(i) - 20.0f, z = float(j) - 20.0f;
      m.positions.emplace_back(x, std::sin(0.5f * x) * std::cos(0.3f * z), z);
    }
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      m.triangles.push_back({a, c, b});
      m.triangles.push_back({b, c, d});
    }
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-20.0f, 20.0f), h(0.5f, 8.0f), e(-1.5f, 1.5f);
  for (int k = 0; k < 400; ++k) {
    const Vec3 c(u(rng), h(rng), u(rng));
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    for (int v = 0; v < 3; ++v) m.positions.push_back(c + Vec3(e(rng), e(rng), e(rng)));
    m.triangles.push_back({base, base + 1, base + 2});
  }
  m.triangleSlots.assign(m.triangles.size(), 0);
  m.materialSlots.push_back({"all", {}});
  return m;
}

TEST(MeshRayBvh, NearestHitEqualsBruteForce) {
  const asset::TriangleMesh mesh = wavyTerrainAndCloud();
  const auto collider = std::move(TriMeshCollider::create(mesh)).value();
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-22.0f, 22.0f), y(-3.0f, 12.0f), len(1.0f, 60.0f);
  int hits = 0;
  for (int k = 0; k < 3000; ++k) {
    const Vec3 o(u(rng), y(rng), u(rng));
    Vec3 d = glm::normalize(Vec3(u(rng), y(rng) - 4.0f, u(rng)));
    if (k % 10 == 0) d = Vec3(0.0f, -1.0f, 0.0f);  // straight down: x, z components 0
    if (k % 10 == 1) d = Vec3(k % 20 == 1 ? 1.0f : -1.0f, 0.0f, 0.0f);  // along an axis
    const float maxDistance = len(rng);
    const testing::BruteRayHit want = testing::bruteForceRay(mesh, o, d, maxDistance);
    const TriMeshCollider::Hit got = collider->raycast(o, d, maxDistance);
    ASSERT_EQ(got.hit, want.hit) << "ray " << k;
    if (!want.hit) continue;
    ++hits;
    EXPECT_EQ(got.distance, want.distance) << "ray " << k;
    EXPECT_EQ(got.triangle, want.triangle) << "ray " << k;
    const Vec3 a = mesh.positions[mesh.triangles[want.triangle][0]];
    Vec3 n = glm::normalize(glm::cross(mesh.positions[mesh.triangles[want.triangle][1]] - a,
                                       mesh.positions[mesh.triangles[want.triangle][2]] - a));
    if (glm::dot(n, d) > 0.0f) n = -n;
    EXPECT_LT(glm::length(got.normal - n), 1e-5f) << "ray " << k;
    // The hit is the nearest: the same ray ending just before it hits nothing.
    const float shorter = want.distance * 0.999f - 1e-4f;
    if (shorter > 0.0f) {
      EXPECT_FALSE(collider->raycast(o, d, shorter).hit) << "ray " << k;
    }
  }
  EXPECT_GT(hits, 600);  // the rays do reach the geometry
}

TEST(MeshRayBvh, SharedEdgeTieGoesToTheLowerTriangle) {
  // Two triangles sharing the edge x = 0 of a flat square; a ray straight down onto that edge
  // hits both at the same distance. The answer is the lower input index, whichever the order.
  asset::TriangleMesh m;
  m.positions = {{-1.0f, 0.0f, -1.0f}, {0.0f, 0.0f, -1.0f}, {0.0f, 0.0f, 1.0f},
                 {1.0f, 0.0f, 1.0f},   {-1.0f, 0.0f, 1.0f}, {1.0f, 0.0f, -1.0f}};
  m.triangles = {{0, 1, 2}, {1, 5, 2}, {0, 2, 4}, {5, 3, 2}};
  m.triangleSlots.assign(m.triangles.size(), 0);
  m.materialSlots.push_back({"all", {}});
  const auto forward = std::move(TriMeshCollider::create(m)).value();
  std::swap(m.triangles[0], m.triangles[1]);
  const auto swapped = std::move(TriMeshCollider::create(m)).value();
  const Vec3 o(0.0f, 2.0f, -0.5f), down(0.0f, -1.0f, 0.0f);
  const auto a = forward->raycast(o, down, 5.0f), b = swapped->raycast(o, down, 5.0f);
  ASSERT_TRUE(a.hit);
  ASSERT_TRUE(b.hit);
  EXPECT_FLOAT_EQ(a.distance, 2.0f);
  EXPECT_EQ(a.triangle, 0u);
  EXPECT_EQ(b.triangle, 0u);
}

}  // namespace
}  // namespace floptle::physics
