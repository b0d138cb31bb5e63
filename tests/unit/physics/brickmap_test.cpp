// BrickMap vs analytic fields: values, gradients, rays and sphere casts within half a cell;
// sparse storage; the rolling re-bake; BakedFieldCollider's near/far LOD.
#include <gtest/gtest.h>

#include <random>

#include "brick_map_values.h"
#include "floptle/core/brickmap/brick_map.h"
#include "floptle/physics/baked_field_collider.h"

namespace floptle::physics {
namespace {

DistanceBatchFn sphereField(Vec3 centre, float radius) {
  return [=](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i)
      out[i] = glm::length(points[i] - centre) - radius;
  };
}

/// A ball of `radius` about `centre` baked at `cell` over the cube of half edge `half` about it.
Expected<BrickMap> bakeSphere(Vec3 centre, float radius, float cell, float half, int threads = 1) {
  BrickMapSettings s;
  s.bounds = Aabb::fromCenterHalf(centre, Vec3(half));
  s.cellSize = cell;
  s.threads = threads;
  return BrickMap::bake(s, sphereField(centre, radius));
}

/// Sphere whose radius grows with time: r(t) = r0 + t (m).
class GrowingSphere final : public CollisionShape {
 public:
  explicit GrowingSphere(float r0) : r0_(r0) {}
  float distance(Vec3 p, double t) const override { return glm::length(p) - (r0_ + float(t)); }
  Vec3 normal(Vec3 p, double) const override { return glm::normalize(p); }
  Aabb aabb(double t) const override {
    return Aabb::fromCenterHalf(Vec3(0.0f), Vec3(r0_ + float(t)));
  }

 private:
  float r0_;
};

/// Ray parameter where origin + s * dir meets the sphere |p - c| = R, or -1.
float raySphere(Vec3 o, Vec3 d, Vec3 c, float R) {
  const Vec3 oc = o - c;
  const float b = glm::dot(oc, d), cc = glm::dot(oc, oc) - R * R;
  const float h = b * b - cc;
  if (h < 0.0f) return -1.0f;
  const float s = -b - std::sqrt(h);
  return s >= 0.0f ? s : -1.0f;
}

TEST(Brickmap, BakedSphereMatchesTheFieldWithinHalfACell) {
  const Vec3 c(0.3f, -0.2f, 0.1f);
  const float R = 1.3f, h = 0.1f;
  auto map = bakeSphere(c, R, h, R, 2);
  ASSERT_TRUE(map.ok()) << map.error().message();
  const glm::ivec3 dims = map->dims();
  EXPECT_LT(map->brickCount(), dims.x * dims.y * dims.z)
      << "empty space is stored once, not as bricks";
  EXPECT_GT(map->brickCount(), 0);
  // Empty cell at the centre: inside, stored as one negative value.
  const glm::ivec3 mid = glm::ivec3(glm::floor((c - map->origin()) / (8.0f * h)));
  EXPECT_EQ(map->brickAt(mid), -1);
  EXPECT_LT(map->centreValue(mid), 0.0f);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 3000; ++i) {
    Vec3 dir = glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(1e-4f));
    const float exact = 0.3f * u(rng);  // within the band (0.3 m)
    const Vec3 p = c + dir * (R + exact);
    Vec3 gradient;
    const float d = map->distanceGradient(p, gradient);
    EXPECT_NEAR(d, exact, 0.5f * h);
    EXPECT_GT(glm::dot(glm::normalize(gradient), dir), 0.995f);
    Vec3 point, normal;
    map->closestPoint(p, point, normal);
    EXPECT_NEAR(glm::length(point - c), R, 0.5f * h);
  }
  // Far away the magnitude never drops under the band, and the sign holds.
  EXPECT_GE(map->distance(c + Vec3(0.0f, 0.1f, 0.0f)), -1e9f);
  EXPECT_LE(map->distance(c), -map->bandWidth());
  EXPECT_GE(map->distance(c + Vec3(3.0f, 0.0f, 0.0f)), map->bandWidth());
  EXPECT_GT(map->distance(c + Vec3(40.0f, 0.0f, 0.0f)), 30.0f) << "outside the grid";
}

// Samples are stored in 16 bits: each within half a step of the field at its point (so the
// step spans every distance a brick holds: none clamped), the step as documented, the faces two
// bricks share stored alike, and 2 bytes a sample counted in memoryBytes.
TEST(Brickmap, StoredSamplesAreTheFieldToHalfAStepAndAgreeAcrossBricks) {
  const Vec3 c(0.3f, -0.2f, 0.1f);
  const float R = 1.3f, h = 0.1f;
  auto map = bakeSphere(c, R, h, R);
  ASSERT_TRUE(map.ok()) << map.error().message();
  const float step = map->sampleStep();
  EXPECT_FLOAT_EQ(step, (map->bandWidth() + 2.0f * 8.0f * h) / 32767.0f);
  const glm::ivec3 dims = map->dims();
  int bricks = 0, sharedFaces = 0;
  float largest = 0.0f;
  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x) {
        const glm::ivec3 cell(x, y, z);
        const int b = map->brickAt(cell);
        if (b < 0) continue;
        ++bricks;
        for (int k = 0; k < BrickMap::kSamples; ++k)
          for (int j = 0; j < BrickMap::kSamples; ++j)
            for (int i = 0; i < BrickMap::kSamples; ++i) {
              const glm::dvec3 p =
                  glm::dvec3(map->origin()) +
                  glm::dvec3(cell * BrickMap::kCells + glm::ivec3(i, j, k)) * double(h);
              const double exact = glm::length(p - glm::dvec3(c)) - R;
              const float stored = map->brickSample(b, i, j, k);
              largest = std::max(largest, std::abs(stored));
              ASSERT_LE(std::abs(stored - exact), 0.5 * step + 1e-6)
                  << "brick " << x << "," << y << "," << z;
            }
        // The +x neighbour's low face is this brick's high face, sample for sample.
        if (x + 1 < dims.x && map->brickAt({x + 1, y, z}) >= 0) {
          const int n = map->brickAt({x + 1, y, z});
          ++sharedFaces;
          for (int k = 0; k < BrickMap::kSamples; ++k)
            for (int j = 0; j < BrickMap::kSamples; ++j)
              ASSERT_EQ(map->brickSample(b, BrickMap::kCells, j, k), map->brickSample(n, 0, j, k));
        }
      }
  EXPECT_GT(sharedFaces, 10);
  EXPECT_GT(largest, 0.5f) << "samples far from the surface are kept, not clamped to the band";
  const std::size_t sampleBytes =
      std::size_t(bricks) * BrickMap::kBrickSamples * sizeof(std::int16_t);
  EXPECT_GE(map->memoryBytes(), sampleBytes);
  EXPECT_LT(map->memoryBytes(), sampleBytes + std::size_t(bricks) * BrickMap::kBrickSamples);
}

TEST(Brickmap, BeyondTheBandAndTheGridTheDistanceKeepsToTheSurface) {
  // Beyond the band only the top cells' centre values are stored, a brick apart. Two things
  // used to go wrong there: between the outermost centres and the grid's faces the field stayed
  // flat at the last centre's value, and outside the grid that flat value plus the gap to the
  // grid was the answer (a closest query 2 m from a baked ball came out 0.2 m short, 0.7 m in
  // this test, with normals 52 degrees off).
  const Vec3 c(0.3f, -0.2f, 0.1f);
  const float R = 1.3f, h = 0.1f, brick = 8.0f * h;
  auto map = bakeSphere(c, R, h, R);
  ASSERT_TRUE(map.ok()) << map.error().message();
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), gap(0.6f, 3.0f);
  float worstInside = 0.0f, worstOutside = 0.0f, leastCosInside = 1.0f, leastCosOutside = 1.0f;
  int outside = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 dir = glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(1e-4f));
    const float exact =
        gap(rng);  // beyond the band (0.3 m): in the grid's empty cells or outside it
    const Vec3 p = c + dir * (R + exact);
    Vec3 point, normal;
    const float d = map->closestPoint(p, point, normal);
    const bool in = map->gridBounds().contains(p);
    outside += !in;
    float& worst = in ? worstInside : worstOutside;
    float& leastCos = in ? leastCosInside : leastCosOutside;
    worst = std::max(worst, std::abs(d - exact));
    leastCos = std::min(leastCos, glm::dot(normal, dir));
  }
  ASSERT_GT(outside, 500);
  // Both from the centres a brick apart: within a sixth of a brick, normals within 14 degrees
  // (measured: 0.095 m and 10 degrees outside the grid, 0.12 m and 13 degrees inside it).
  EXPECT_LT(worstOutside, brick / 6.0f);
  EXPECT_GT(leastCosOutside, 0.97f);
  EXPECT_LT(worstInside, brick / 6.0f);
  EXPECT_GT(leastCosInside, 0.97f);
}

TEST(Brickmap, RaysAndSphereCastsMatchTheClosedFormWithinHalfACell) {
  const Vec3 c(0.0f, 1.0f, 0.0f);
  const float R = 1.0f, h = 0.05f;
  auto map = bakeSphere(c, R, h, R);
  ASSERT_TRUE(map.ok());
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  int hits = 0;
  for (int i = 0; i < 2000; ++i) {
    const Vec3 origin = c + 6.0f * glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(1e-4f));
    const Vec3 target = c + 1.4f * Vec3(u(rng), u(rng), u(rng));
    const Vec3 dir = glm::normalize(target - origin);
    for (float r : {0.0f, 0.1f}) {
      // Rays grazing the (R + r) sphere within half a cell are ambiguous at this resolution.
      const float miss = glm::length(glm::cross(c - origin, dir));
      if (std::abs(miss - (R + r)) < 0.5f * h) continue;
      const float expected = raySphere(origin, dir, c, R + r);
      const auto hit = map->raycast(origin, dir, 20.0f, r);
      ASSERT_EQ(hit.hit, expected >= 0.0f) << "r " << r << " expected " << expected;
      if (!hit.hit) continue;
      ++hits;
      EXPECT_NEAR(hit.distance, expected, 0.5f * h);
      EXPECT_GT(glm::dot(hit.normal, glm::normalize(hit.point - c)), 0.99f);
    }
  }
  EXPECT_GT(hits, 1000);
  // A ray starting inside reports contact at its start.
  const auto inside = map->raycast(c, Vec3(1, 0, 0), 5.0f);
  ASSERT_TRUE(inside.hit);
  EXPECT_EQ(inside.distance, 0.0f);
}

TEST(Brickmap, RebakeRefreshesTheBricksNearestTheBodiesFirst) {
  auto map = bakeSphere(Vec3(0.0f), 1.0f, 0.1f, 2.0f);
  ASSERT_TRUE(map.ok());
  // The body stands at the probe: the probe's top cell is the nearest one.
  const Vec3 probe(1.1f, 0.3f, 0.3f), body = probe, farProbe(-1.1f, 0.3f, 0.3f);
  EXPECT_NEAR(map->distance(probe), glm::length(probe) - 1.0f, 0.05f);
  // The surface grows to 1.2 m; one brick's budget, nearest the body.
  const int done =
      map->rebakeNearest(sphereField(Vec3(0.0f), 1.2f), std::span<const Vec3>(&body, 1), 1, 4.0f);
  EXPECT_EQ(done, 1);
  EXPECT_NEAR(map->distance(probe), glm::length(probe) - 1.2f, 0.05f) << "near the body: refreshed";
  EXPECT_NEAR(map->distance(farProbe), glm::length(farProbe) - 1.0f, 0.05f) << "far side: not yet";
  // Enough budget, repeated: everything within reach follows, least recently baked first.
  for (int step = 0; step < 200; ++step)
    map->rebakeNearest(sphereField(Vec3(0.0f), 1.2f), std::span<const Vec3>(&body, 1), 8, 10.0f);
  EXPECT_NEAR(map->distance(farProbe), glm::length(farProbe) - 1.2f, 0.05f);
  // The sphere leaves: its bricks are freed.
  const int before = map->brickCount();
  for (int step = 0; step < 200; ++step)
    map->rebakeNearest(sphereField(Vec3(0.0f), 0.2f), std::span<const Vec3>(&body, 1), 8, 10.0f);
  EXPECT_LT(map->brickCount(), before);
  EXPECT_NEAR(map->distance(Vec3(0.3f, 0, 0)), 0.1f, 0.05f);
}

// A field that breaks mid-play (NaN at some of a brick's samples) leaves the bricks it would
// have refreshed as they were: every stored sample and query unchanged, none non-finite.
TEST(Brickmap, RebakeFromABrokenFieldKeepsTheCellsAsTheyWere) {
  auto map = bakeSphere(Vec3(0.0f), 1.0f, 0.1f, 2.0f);
  ASSERT_TRUE(map.ok());
  const std::vector<std::uint32_t> before = testing::samplesOf(*map);
  // The same sphere, except NaN on the brick faces normal to x (sample index a multiple of 8):
  // the top cells' centres (index 4 mod 8) stay finite, while every brick sampled holds NaN.
  const Vec3 origin = map->origin();
  const DistanceBatchFn broken = [origin](std::span<const Vec3> points, float,
                                          std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      const long index = std::lround((points[i].x - origin.x) / 0.1f);
      out[i] =
          index % 8 == 0 ? std::numeric_limits<float>::quiet_NaN() : glm::length(points[i]) - 1.0f;
    }
  };
  const Vec3 body(1.1f, 0.3f, 0.3f);
  for (int step = 0; step < 20; ++step)
    map->rebakeNearest(broken, std::span<const Vec3>(&body, 1), 8, 1.0f);
  EXPECT_EQ(testing::samplesOf(*map), before) << "a cell took part of a broken sampling";
  EXPECT_NEAR(map->distance(body), glm::length(body) - 1.0f, 0.05f);
  EXPECT_EQ(map->rebakeNearest(broken, std::span<const Vec3>(&body, 1), 8, 1.0f), 8)
      << "cells were visited";
}

TEST(Brickmap, BakedFieldColliderIsExactNearBodiesAndBakedBeyond) {
  BakedFieldSettings settings;
  settings.cellSize = 0.1f;
  settings.nearRadius = 0.5f;
  settings.rebakeBudget = 4;
  auto collider = BakedFieldCollider::bake(std::make_unique<GrowingSphere>(1.0f), settings, 0.0);
  ASSERT_TRUE(collider.ok()) << collider.error().message();
  auto& c = **collider;
  const Vec3 body(1.2f, 0.0f, 0.0f);
  c.setActiveBodies(std::span<const Vec3>(&body, 1));
  // At t = 0.15 the sphere has grown: exact near the body, the stale bake far from it.
  const double t = 0.15;
  EXPECT_FLOAT_EQ(c.distance(Vec3(1.1f, 0, 0), t), 1.1f - 1.15f);
  EXPECT_TRUE(c.inNearField(Vec3(1.1f, 0, 0)));
  EXPECT_NEAR(c.distance(Vec3(-1.1f, 0, 0), t), 0.1f, 0.05f);
  EXPECT_FALSE(c.faceLabel(Vec3(1, 0, 0)).has_value());
  // Rolling re-bake: bricks near the body follow; the rest catches up over steps.
  EXPECT_EQ(c.rebake(t), 4);
  for (int i = 0; i < 100; ++i) c.rebake(t);
  const Vec3 far(-3.0f, 0.0f, 0.0f);
  c.setActiveBodies(std::span<const Vec3>(&far, 1));
  for (int i = 0; i < 100; ++i) c.rebake(t);
  EXPECT_NEAR(c.distance(Vec3(-1.1f, 0, 0), t), -0.05f, 0.05f);
  // Casts: the baked fast path far from the bodies.
  const auto cast = c.castSphere(Vec3(0, 5, 0), Vec3(0, -1, 0), 0.1f, 10.0f, t);
  ASSERT_TRUE(cast.handled);
  ASSERT_TRUE(cast.hit);
  EXPECT_NEAR(cast.distance, 5.0f - 1.15f - 0.1f, 0.05f);
  // Bad input.
  EXPECT_FALSE(BakedFieldCollider::bake(nullptr, settings, 0.0).ok());
  settings.cellSize = -1.0f;
  EXPECT_FALSE(BakedFieldCollider::bake(std::make_unique<GrowingSphere>(1.0f), settings, 0.0).ok());
}

}  // namespace
}  // namespace floptle::physics
