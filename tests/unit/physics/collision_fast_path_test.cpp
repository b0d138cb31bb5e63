// Fast paths of the collision queries held to the general ones:
//  - a lone analytic sphere's normal (FieldCollider's own branch) has the bits of the field
//    program's analytic normal, under identity, translated and rotated + scaled placements;
//  - the closed-form sphere cast through CollisionWorld agrees with sphere marching the same
//    sphere (wrapped in a union so it is not recognised) on random rays and sphere casts,
//    including rays starting inside, within 1e-4 m;
//  - the wide mesh BVH (SIMD leaf test of four triangles) answers rays aimed exactly at
//    vertices and edge midpoints like a scalar Moller-Trumbore scan of every triangle: same
//    distance bits, and on shared edges and vertices the lower triangle index.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "brute_force_ray.h"
#include "collision_fixtures.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics::testing {
namespace {

TEST(LoneSphereNormal, EqualsTheProgramNormalBitForBit) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f), scale(0.5f, 2.0f);
  const Transform poses[3] = {Transform{}, pose(Vec3(1.5f, -2.0f, 0.25f)), [&] {
                                Transform t = pose(Vec3(-0.5f, 1.0f, 2.0f), randomRotation(rng));
                                t.scale = scale(rng);
                                return t;
                              }()};
  for (const Transform& where : poses) {
    auto made = FieldCollider::make(sphereNode(1.25f), where);
    ASSERT_TRUE(made.ok());
    const FieldCollider& c = made.value();
    const Transform toLocal = c.worldTransform().inverse();
    const bool rigidFree = where.rotation == Quat(1, 0, 0, 0) && where.scale == 1.0f;
    for (int k = 0; k < 2000; ++k) {
      Vec3 p(u(rng), u(rng), u(rng));
      if (k % 100 == 0) p = where.position;  // the centre: no direction, the program's fallback
      Vec3 want;
      if (rigidFree)
        want = c.program().normal(p - where.position, 0.0);
      else
        want = c.worldTransform().applyToNormal(c.program().normal(toLocal.applyToPoint(p), 0.0));
      const Vec3 got = c.normal(p, 0.0);
      EXPECT_EQ(got.x, want.x) << k;
      EXPECT_EQ(got.y, want.y) << k;
      EXPECT_EQ(got.z, want.z) << k;
    }
  }
}

/// Distance from the sphere centre to the ray's line (m): grazing rays (within a hair of the
/// radius) may be answered either way by marching and are not compared.
float closestApproach(Vec3 o, Vec3 d, Vec3 c) {
  const Vec3 oc = c - o;
  const float s = std::max(0.0f, glm::dot(oc, d));
  return glm::length(o + d * s - c);
}

TEST(SphereFastPath, AgreesWithMarchingOnRandomRaysAndSphereCasts) {
  std::mt19937 rng(22);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), scale(0.5f, 2.0f), radius(0.5f, 1.5f);
  int compared = 0, hits = 0, inside = 0;
  for (int world = 0; world < 20; ++world) {
    Transform where = pose(Vec3(u(rng), u(rng), u(rng)) * 5.0f, randomRotation(rng));
    where.scale = scale(rng);
    const float R = radius(rng);
    CollisionWorld fast, marched;
    fast.add(placed(sphereNode(R), where), "ball");
    marched.add(placed(marchedSphereNode(R), where), "ball");
    fast.refit(0.0), marched.refit(0.0);
    const float worldR = R * where.scale;
    for (int k = 0; k < 200; ++k) {
      // A quarter start inside the sphere, the rest on a shell around it.
      const bool startInside = k % 4 == 0;
      const Vec3 o = where.position +
                     randomUnit(rng) * (startInside ? 0.9f * worldR * std::abs(u(rng))
                                                    : worldR * (1.5f + 3.0f * std::abs(u(rng))));
      const Vec3 target = where.position + Vec3(u(rng), u(rng), u(rng)) * worldR * 1.3f;
      const Vec3 d = glm::normalize(target - o);
      const float r = k % 3 == 0 ? 0.3f : 0.0f;  // every third a sphere cast
      if (std::abs(closestApproach(o, d, where.position) - (worldR + r)) < 1e-3f) continue;
      auto a =
          r > 0.0f ? fast.spherecast(o, d, r, 50.0f, 0.0) : fast.raycast(Ray{o, d}, 50.0f, 0.0);
      auto b = r > 0.0f ? marched.spherecast(o, d, r, 50.0f, 0.0)
                        : marched.raycast(Ray{o, d}, 50.0f, 0.0);
      ASSERT_TRUE(a.ok());
      ASSERT_TRUE(b.ok());
      ++compared;
      ASSERT_EQ(a.value().has_value(), b.value().has_value()) << world << " " << k;
      if (!a.value()) continue;
      const Hit& ha = *a.value();
      const Hit& hb = *b.value();
      ++hits;
      inside += ha.inside;
      EXPECT_EQ(ha.inside, hb.inside) << world << " " << k;
      EXPECT_NEAR(ha.distance, hb.distance, 1e-4) << world << " " << k;
      EXPECT_LT(glm::length(ha.point - hb.point), 1e-4f) << world << " " << k;
      EXPECT_LT(glm::length(ha.normal - hb.normal), 1e-3f) << world << " " << k;
      EXPECT_EQ(fast.nodeName(ha), "ball");
      // And the closed form itself: the contact lies on the (grown) sphere.
      if (!ha.inside) {
        const Vec3 centre = o + d * ha.distance;
        EXPECT_NEAR(glm::length(centre - where.position), worldR + r, 1e-4) << world << " " << k;
      }
    }
  }
  EXPECT_GT(compared, 3500);
  EXPECT_GT(hits, 1500);
  EXPECT_GT(inside, 500);
}

TEST(WideMeshBvh, VertexAndEdgeHitsEqualTheScalarScan) {
  // A bumpy 24 x 24 grid (1152 triangles: several levels of eight-wide nodes and leaf blocks).
  asset::TriangleMesh m;
  constexpr int n = 25;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float x = float(i) - 12.0f, z = float(j) - 12.0f;
      m.positions.emplace_back(x, 0.7f * std::sin(0.9f * x) * std::cos(0.6f * z), z);
    }
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      m.triangles.push_back({a, c, b});
      m.triangles.push_back({b, c, d});
    }
  m.triangleSlots.assign(m.triangles.size(), 0);
  m.materialSlots.push_back({"all", {}});
  const auto collider = std::move(TriMeshCollider::create(m)).value();
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> u(-14.0f, 14.0f), y(2.0f, 10.0f);
  std::uniform_int_distribution<int> vertex(0, n * n - 1),
      tri(0, static_cast<int>(m.triangles.size()) - 1);
  int hits = 0;
  for (int k = 0; k < 4000; ++k) {
    // Targets: a vertex, the midpoint of a triangle edge, or a random point of a triangle.
    Vec3 target;
    const auto& t = m.triangles[static_cast<std::size_t>(tri(rng))];
    const Vec3 a = m.positions[t[0]], b = m.positions[t[1]], c = m.positions[t[2]];
    switch (k % 3) {
      case 0:
        target = m.positions[static_cast<std::size_t>(vertex(rng))];
        break;
      case 1:
        target = 0.5f * ((k % 2 ? a : c) + b);
        break;
      default:
        target = (a + b + c) / 3.0f;
        break;
    }
    const Vec3 o(u(rng), y(rng), u(rng));
    Vec3 d = glm::normalize(target - o);
    if (k % 50 == 0) d = Vec3(0.0f, -1.0f, 0.0f);  // axis-parallel
    const float maxDistance = glm::length(target - o) + 1.0f;
    const BruteRayHit want = bruteForceRay(m, o, d, maxDistance);
    const TriMeshCollider::Hit got = collider->raycast(o, d, maxDistance);
    ASSERT_EQ(got.hit, want.hit) << k;
    if (!want.hit) continue;
    ++hits;
    EXPECT_EQ(got.distance, want.distance) << k;
    EXPECT_EQ(got.triangle, want.triangle) << k;
  }
  EXPECT_GT(hits, 3500);
}

}  // namespace
}  // namespace floptle::physics::testing
