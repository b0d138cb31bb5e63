// The soft body's skinned surface (soft_body_surface.h) and its brickmap
// (soft_body_surface_map.h), against closed forms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "floptle/matter/soft_body_surface.h"
#include "floptle/matter/soft_body_surface_map.h"
#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

const Vec3 kCentre(0.0f, 2.0f, 0.0f);
constexpr float kHalf = 0.5f;

float restCube(Vec3 p) {
  const Vec3 q = glm::abs(p - kCentre) - Vec3(kHalf);
  return glm::length(glm::max(q, Vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
}

Vec3 restCentroid(const SoftBody& b) {
  glm::dvec3 s(0.0);
  for (Vec3 p : b.restPositions()) s += glm::dvec3(p);
  return Vec3(s / double(b.restPositions().size()));
}

/// Moves every particle by x = m (x0 - c0) + c0 + t.
void deform(SoftBody& b, const Mat3& m, Vec3 t) {
  const Vec3 c0 = restCentroid(b);
  for (std::size_t i = 0; i < b.particleCount(); ++i)
    b.state().position[i] = m * (b.restPositions()[i] - c0) + c0 + t;
}

/// Rest-space points within `band` of the rest cube's surface.
std::vector<Vec3> nearSurface(float band, int count) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-kHalf - band, kHalf + band);
  std::vector<Vec3> out;
  while (int(out.size()) < count) {
    const Vec3 q = kCentre + Vec3(u(rng), u(rng), u(rng));
    if (std::abs(restCube(q)) < band) out.push_back(q);
  }
  return out;
}

TEST(SoftBodySkin, ARigidlyMovedBodyCarriesTheRestFieldExactly) {
  SoftBody body = test::softCube(kCentre, kHalf, SoftBodyKnobs{});
  const Quat r = glm::angleAxis(0.7f, glm::normalize(Vec3(1.0f, 2.0f, -0.5f)));
  const Vec3 t(0.3f, -1.1f, 2.0f);
  deform(body, glm::mat3_cast(r), t);
  body.state().rotation = r;
  const SoftBodySkin skin = SoftBodySkin::fit(body);
  ASSERT_GT(skin.clusters().size(), 1u);  // seams are crossed
  const Vec3 c0 = restCentroid(body);
  for (const SkinCluster& c : skin.clusters()) EXPECT_NEAR(c.scale, 1.0f, 1e-4f);
  for (Vec3 q : nearSurface(0.5f * body.spacing(), 400)) {
    const Vec3 p = r * (q - c0) + c0 + t;
    EXPECT_NEAR(skin.distance(restCube, p), restCube(q), 1e-4f) << q.x << " " << q.y << " " << q.z;
  }
  // bestRigidTransform is that motion: the rest centroid goes to c0 + t, turned by r.
  const Transform pose = bestRigidTransform(body);
  EXPECT_NEAR(glm::length(pose.applyToPoint(c0) - (c0 + t)), 0.0f, 1e-4f);
  EXPECT_NEAR(std::abs(glm::dot(pose.rotation, r)), 1.0f, 1e-6f);
}

TEST(SoftBodySkin, ABodySquashedByAnAffineMapGivesTheScaledAffineMappedSurface) {
  SoftBody body = test::softCube(kCentre, kHalf, SoftBodyKnobs{});
  const Mat3 m(Vec3(1.25f, 0.0f, 0.0f), Vec3(0.0f, 0.6f, 0.0f), Vec3(0.0f, 0.0f, 1.25f));
  const Vec3 t(0.0f, -0.2f, 0.0f);
  deform(body, m, t);
  const SoftBodySkin skin = SoftBodySkin::fit(body);
  for (const SkinCluster& c : skin.clusters()) EXPECT_NEAR(c.scale, 0.6f, 1e-4f);
  const Vec3 c0 = restCentroid(body);
  int inside = 0;
  for (Vec3 q : nearSurface(0.5f * body.spacing(), 400)) {
    const Vec3 p = m * (q - c0) + c0 + t;
    // The zero set is the mapped surface; the value is the rest value times sigma_min = 0.6.
    const float f = skin.distance(restCube, p);
    EXPECT_NEAR(f, 0.6f * restCube(q), 1e-4f);
    EXPECT_EQ(f < 0.0f, restCube(q) < 0.0f);
    inside += f < 0.0f;
  }
  EXPECT_GT(inside, 50);
  // The squashed top face: y = c0.y + t.y + 0.6 * 0.5.
  const float top = c0.y + t.y + 0.6f * kHalf;
  EXPECT_NEAR(skin.distance(restCube, Vec3(c0.x, top, c0.z)), 0.0f, 1e-4f);
}

TEST(SoftBodySkin, AnUnevenlyDeformedBodyKeepsAOneLipschitzField) {
  SoftBody body = test::softCube(kCentre, kHalf, SoftBodyKnobs{});
  const Vec3 c0 = restCentroid(body);
  for (std::size_t i = 0; i < body.particleCount(); ++i) {
    const Vec3 q = body.restPositions()[i] - c0;
    const Quat twist = glm::angleAxis(1.2f * q.y, Vec3(0, 1, 0));  // 1.2 rad/m about y
    body.state().position[i] = twist * (q * Vec3(1.0f, 0.7f + 0.6f * q.x, 1.0f)) + c0;
  }
  const SoftBodySkin skin = SoftBodySkin::fit(body);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 a = c0 + Vec3(u(rng), u(rng), u(rng));
    const Vec3 b = a + 0.05f * Vec3(u(rng), u(rng), u(rng));
    const float fa = skin.distance(restCube, a), fb = skin.distance(restCube, b);
    EXPECT_LE(std::abs(fa - fb), glm::length(a - b) * (1.0f + 1e-4f) + 1e-6f);
  }
}

TEST(SoftBodySkin, SmallestSingularValueMatchesAKnownDecomposition) {
  const Mat3 r = glm::mat3_cast(glm::angleAxis(0.4f, glm::normalize(Vec3(1, 1, 0))));
  const Mat3 s(Vec3(2.0f, 0, 0), Vec3(0, 0.3f, 0), Vec3(0, 0, 1.1f));
  EXPECT_NEAR(smallestSingularValue(r * s * glm::transpose(r)), 0.3f, 1e-5f);
  EXPECT_NEAR(smallestSingularValue(Mat3(1.0f)), 1.0f, 1e-6f);
}

SoftBodySurfaceMap mapOf(const std::vector<SoftBody>& bodies, int budget) {
  auto map = SoftBodySurfaceMap::build(bodies, {"cube"}, {restCube},
                                       Aabb{Vec3(-2.0f, -0.5f, -2.0f), Vec3(2.0f, 3.0f, 2.0f)},
                                       "/nodes/0/matter", budget);
  EXPECT_TRUE(map) << (map ? "" : map.error().message());
  return std::move(map.value());
}

TEST(SoftBodySurfaceMap, AfterAStepTheMapEqualsTheSkinnedFieldWithinHalfACell) {
  const physics::CollisionWorld world = test::floorWorld();
  std::vector<SoftBody> bodies{test::softCube(kCentre, kHalf, SoftBodyKnobs{})};
  SoftBodySurfaceMap map = mapOf(bodies, 100000);
  EXPECT_NEAR(map.map().cellSize(), 0.5f * bodies[0].spacing(), 1e-6f);
  double t = 0.0;
  for (int s = 0; s < 20; ++s) {
    t += 1.0 / 60.0;
    bodies[0].step(world, Vec3(0.0f, -9.81f, 0.0f), t, 1.0f / 60.0f);
    map.update(bodies);
  }
  ASSERT_LT(bodies[0].centroid().y, kCentre.y - 0.1f);  // it moved by more than a brick's band
  const DistanceBatchFn field = map.field(bodies);
  const SoftBodySkin skin = SoftBodySkin::fit(bodies[0]);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-0.8f, 0.8f);
  int near = 0;
  for (int i = 0; i < 3000; ++i) {
    const Vec3 p = bodies[0].centroid() + Vec3(u(rng), u(rng), u(rng));
    float f = 0.0f;
    field(std::span<const Vec3>(&p, 1), 1e30f, std::span<float>(&f, 1));
    EXPECT_EQ(f, skin.distance(restCube, p));
    if (std::abs(f) > map.map().bandWidth()) continue;
    ++near;
    EXPECT_NEAR(map.map().distance(p), f, 0.5f * map.map().cellSize());
  }
  EXPECT_GT(near, 500);
  // Where the cube was at the start, nothing is left.
  EXPECT_GT(map.map().distance(kCentre + Vec3(0.0f, kHalf, 0.0f)), 0.05f);
}

TEST(SoftBodySurfaceMap, TheRebakeBudgetIsRespectedAndCounted) {
  const physics::CollisionWorld world = test::floorWorld();
  std::vector<SoftBody> bodies{test::softCube(kCentre, kHalf, SoftBodyKnobs{})};
  SoftBodySurfaceMap map = mapOf(bodies, 3);
  std::uint64_t total = 0;
  double t = 0.0;
  for (int s = 1; s <= 5; ++s) {
    t += 1.0 / 60.0;
    bodies[0].step(world, Vec3(0.0f, -9.81f, 0.0f), t, 1.0f / 60.0f);
    map.update(bodies);
    EXPECT_EQ(map.counters().bricksRebaked, 3u);  // far more than 3 cells are within reach
    total += map.counters().bricksRebaked;
    const std::vector<glm::ivec3> changed = map.takeChangedCells();
    EXPECT_EQ(changed.size(), 3u);
    for (glm::ivec3 c : changed)
      EXPECT_TRUE(map.map().sampledInLastRound(map.map().origin() +
                                               (Vec3(c) + 0.5f) * 8.0f * map.map().cellSize()));
  }
  EXPECT_EQ(map.counters().bricksRebakedTotal, total);
  EXPECT_EQ(map.counters().updates, 5u);
  // Two updates between takes: the cells of both, each once.
  for (int s = 0; s < 2; ++s) {
    t += 1.0 / 60.0;
    bodies[0].step(world, Vec3(0.0f, -9.81f, 0.0f), t, 1.0f / 60.0f);
    map.update(bodies);
  }
  const std::vector<glm::ivec3> both = map.takeChangedCells();
  EXPECT_GE(both.size(), 3u);
  EXPECT_LE(both.size(), 6u);
  EXPECT_TRUE(map.takeChangedCells().empty());
  map.setBudget(0);
  map.update(bodies);
  EXPECT_EQ(map.counters().bricksRebaked, 0u);
}

TEST(SoftBodySurfaceMap, ARestFieldNamingNoBodyIsAnErrorNamingIt) {
  std::vector<SoftBody> bodies{test::softCube(kCentre, kHalf, SoftBodyKnobs{})};
  auto map = SoftBodySurfaceMap::build(bodies, {"other"}, {restCube}, Aabb{Vec3(-1.0f), Vec3(1.0f)},
                                       "/nodes/3/matter");
  ASSERT_FALSE(map);
  EXPECT_EQ(map.error().where, "/nodes/3/matter");
  EXPECT_NE(map.error().message().find("'other'"), std::string::npos) << map.error().message();
}

}  // namespace
}  // namespace floptle::matter
