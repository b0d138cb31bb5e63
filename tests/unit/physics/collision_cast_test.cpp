// Rays and sphere casts through the CollisionWorld against closed forms: spheres, boxes,
// planes and capsules at random orientations, distance within 1e-4 m.
#include <random>

#include "collision_fixtures.h"

namespace floptle::physics::testing {
namespace {

constexpr double kTolerance = 1e-4;  // (m)
constexpr int kCases = 300;

struct Placed {
  CollisionWorld world;
  Transform pose;
};

Placed worldWith(const FieldNode& node, const Transform& where, const std::string& name) {
  Placed p{CollisionWorld{}, where};
  p.world.add(placed(node, where), name);
  return p;
}

/// Ray origin at `distance` from `centre`, aimed at `target`.
Ray aimedRay(std::mt19937& rng, Vec3 centre, Vec3 target, float distance) {
  Ray ray;
  ray.origin = centre + randomUnit(rng) * distance;
  ray.direction = glm::normalize(target - ray.origin);
  return ray;
}

TEST(Raycast, SpheresAtRandomPosesMatchClosedForm) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  for (int i = 0; i < kCases; ++i) {
    const float R = 0.2f + 2.0f * U(rng);
    const Vec3 c = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 20.0f;
    // Even cases: the closed-form sphere cast; odd cases: the sphere-marched field.
    auto w = worldWith(i % 2 ? marchedSphereNode(R) : sphereNode(R), pose(c, randomRotation(rng)),
                       "ball");
    const Ray ray =
        aimedRay(rng, c, c + randomUnit(rng) * (0.95f * R * U(rng)), R + 0.5f + 15.0f * U(rng));
    auto ref = rayEnterSphere(toD(ray.origin), toD(ray.direction), toD(c), R);
    ASSERT_TRUE(ref);
    auto hit = w.world.raycast(ray, 100.0f, 0.0);
    ASSERT_TRUE(hit.ok());
    ASSERT_TRUE(hit.value().has_value()) << "case " << i;
    const Hit& h = *hit.value();
    EXPECT_NEAR(h.distance, *ref, kTolerance) << "case " << i;
    EXPECT_NEAR(glm::length(toD(h.point) - toD(c)), R, kTolerance);
    EXPECT_GT(glm::dot(h.normal, glm::normalize(h.point - c)), 0.9999f);
    EXPECT_FALSE(h.inside);
    EXPECT_EQ(w.world.nodeName(h), "ball");
  }
}

TEST(Raycast, RotatedBoxesMatchClosedForm) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  for (int i = 0; i < kCases; ++i) {
    const Vec3 half(0.1f + 2.0f * U(rng), 0.1f + 2.0f * U(rng), 0.1f + 2.0f * U(rng));
    const Vec3 c = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 20.0f;
    const Quat q = randomRotation(rng);
    auto w = worldWith(boxNode(half), pose(c, q), "crate");
    const Vec3 localTarget = (Vec3(U(rng), U(rng), U(rng)) * 2.0f - 1.0f) * half * 0.95f;
    const Ray ray = aimedRay(rng, c, c + q * localTarget, glm::length(half) + 0.5f + 10 * U(rng));
    const glm::dquat qd(q);
    const DV ol = glm::conjugate(qd) * (toD(ray.origin) - toD(c));
    const DV dl = glm::conjugate(qd) * toD(ray.direction);
    auto ref = rayEnterBox(ol, dl, toD(half));
    ASSERT_TRUE(ref);
    auto hit = w.world.raycast(ray, 100.0f, 0.0);
    ASSERT_TRUE(hit.ok());
    ASSERT_TRUE(hit.value().has_value()) << "case " << i;
    EXPECT_NEAR(hit.value()->distance, *ref, kTolerance) << "case " << i;
    const DV pl = glm::conjugate(qd) * (toD(hit.value()->point) - toD(c));
    EXPECT_NEAR(sdBox(pl, toD(half)), 0.0, kTolerance);
  }
}

TEST(Raycast, PlanesAtRandomOrientationsMatchClosedForm) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  for (int i = 0; i < kCases; ++i) {
    const Vec3 nLocal = randomUnit(rng);
    const float offset = (U(rng) - 0.5f) * 4.0f;
    const Quat q = randomRotation(rng);
    const Vec3 pos = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 10.0f;
    auto w = worldWith(planeNode(nLocal, offset), pose(pos, q), "ground");
    // World plane: dot(n, x) = offset + dot(n, pos).
    const Vec3 n = q * nLocal;
    const float worldOffset = offset + glm::dot(n, pos);
    // Rays up to ~40 m long: float positions resolve a plane to ~ulp(|p|) / cos(incidence),
    // which at 100 m and grazing incidence is itself above 1e-4 m.
    const float height = 0.1f + 5.0f * U(rng);
    Vec3 tangent = glm::normalize(glm::cross(n, randomUnit(rng)));
    Ray ray;
    ray.origin = n * (worldOffset + height) + tangent * (5.0f * U(rng));
    Vec3 d = randomUnit(rng);
    if (glm::dot(d, n) > 0) d = -d;
    if (glm::dot(d, n) > -0.15f) d = glm::normalize(d - n * (glm::dot(d, n) + 0.3f));
    ray.direction = d;
    const double ref = (glm::dot(toD(n), toD(ray.origin)) - worldOffset) /
                       -glm::dot(toD(n), glm::normalize(toD(d)));
    auto hit = w.world.raycast(ray, 1000.0f, 0.0);
    ASSERT_TRUE(hit.ok());
    ASSERT_TRUE(hit.value().has_value()) << "case " << i;
    EXPECT_NEAR(hit.value()->distance, ref, kTolerance) << "case " << i;
    EXPECT_GT(glm::dot(hit.value()->normal, n), 0.9999f);
  }
}

TEST(Raycast, CapsulesAtRandomPosesMatchClosedForm) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  for (int i = 0; i < kCases; ++i) {
    const Vec3 a = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 2.0f;
    const Vec3 b = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 2.0f;
    const float R = 0.1f + U(rng);
    const Vec3 c = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 20.0f;
    const Quat q = randomRotation(rng);
    auto w = worldWith(capsuleNode(a, b, R), pose(c, q), "pill");
    const Vec3 target = c + q * (a + (b - a) * U(rng) + randomUnit(rng) * (0.9f * R * U(rng)));
    const Ray ray = aimedRay(rng, c, target, 3.0f + R + 10.0f * U(rng));
    auto ref =
        rayEnterCapsule(toD(ray.origin), toD(ray.direction), toD(c + q * a), toD(c + q * b), R);
    ASSERT_TRUE(ref);
    auto hit = w.world.raycast(ray, 100.0f, 0.0);
    ASSERT_TRUE(hit.ok());
    ASSERT_TRUE(hit.value().has_value()) << "case " << i;
    EXPECT_NEAR(hit.value()->distance, *ref, kTolerance) << "case " << i;
  }
}

TEST(Raycast, MissesWhatItDoesNotMeet) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  CollisionWorld world;
  world.add(placed(marchedSphereNode(1.0f), pose(Vec3(0))), "ball");
  CollisionWorld exact;  // the closed-form sphere cast
  exact.add(placed(sphereNode(1.0f), pose(Vec3(0))), "ball");
  for (int i = 0; i < 100; ++i) {
    // Passing at least 1.01 m from the centre, or pointing away.
    const Vec3 d = randomUnit(rng);
    const Vec3 side = glm::normalize(glm::cross(d, randomUnit(rng)));
    Ray ray{side * (1.01f + 3.0f * U(rng)) - d * 5.0f, d};
    auto hit = world.raycast(ray, 100.0f, 0.0);
    ASSERT_TRUE(hit.ok());
    EXPECT_FALSE(hit.value().has_value()) << "case " << i;
    EXPECT_FALSE(exact.raycast(ray, 100.0f, 0.0).value().has_value()) << "case " << i;
    Ray away{d * 2.0f, d};
    EXPECT_FALSE(world.raycast(away, 100.0f, 0.0).value().has_value());
    EXPECT_FALSE(exact.raycast(away, 100.0f, 0.0).value().has_value());
  }
  // Too short to reach.
  EXPECT_FALSE(world.raycast(Ray{Vec3(0, 0, 5), Vec3(0, 0, -1)}, 3.9f, 0.0).value());
  EXPECT_TRUE(world.raycast(Ray{Vec3(0, 0, 5), Vec3(0, 0, -1)}, 4.1f, 0.0).value());
}

TEST(Raycast, GlancingRaysHitOrMissByTheirClearance) {
  CollisionWorld world;
  world.add(placed(marchedSphereNode(1.0f), pose(Vec3(0))), "ball");
  // Impact parameters just inside and just outside the radius, at several offsets.
  for (float b : {0.99f, 0.999f, 0.9999f}) {
    Ray ray{Vec3(-10.0f, b, 0.0f), Vec3(1, 0, 0)};
    auto hit = world.raycast(ray, 100.0f, 0.0);
    ASSERT_TRUE(hit.ok());
    ASSERT_TRUE(hit.value().has_value()) << "b = " << b;
    EXPECT_NEAR(hit.value()->distance, 10.0 - std::sqrt(1.0 - double(b) * b), kTolerance)
        << "b = " << b;
  }
  for (float b : {1.0001f, 1.001f, 1.01f}) {
    Ray ray{Vec3(-10.0f, b, 0.0f), Vec3(1, 0, 0)};
    auto hit = world.raycast(ray, 100.0f, 0.0);
    ASSERT_TRUE(hit.ok());
    EXPECT_FALSE(hit.value().has_value()) << "b = " << b;
  }
  // Skimming a floor at a shallow angle.
  CollisionWorld floor;
  floor.add(placed(planeNode(Vec3(0, 1, 0), 0.0f), pose(Vec3(0))), "floor");
  const Vec3 d = glm::normalize(Vec3(1.0f, -0.03f, 0.0f));
  auto hit = floor.raycast(Ray{Vec3(0, 1, 0), d}, 100.0f, 0.0);
  ASSERT_TRUE(hit.ok() && hit.value());
  EXPECT_NEAR(hit.value()->distance, 1.0 / (0.03 / std::sqrt(1.0 + 0.03 * 0.03)), 1e-4);
}

TEST(Raycast, RayStartingInsideReportsItAtDistanceZero) {
  CollisionWorld world;
  world.add(placed(boxNode(Vec3(1.0f)), pose(Vec3(3, 0, 0))), "crate");
  auto hit = world.raycast(Ray{Vec3(3.5f, 0.2f, 0.0f), Vec3(0, 0, 1)}, 10.0f, 0.0);
  ASSERT_TRUE(hit.ok() && hit.value());
  EXPECT_TRUE(hit.value()->inside);
  EXPECT_EQ(hit.value()->distance, 0.0f);
  EXPECT_EQ(hit.value()->point, Vec3(3.5f, 0.2f, 0.0f));
  EXPECT_GT(glm::dot(hit.value()->normal, Vec3(1, 0, 0)), 0.99f);  // nearest face is +x
  EXPECT_EQ(world.nodeName(*hit.value()), "crate");
  // A spherecast whose sphere already overlaps the crate.
  auto cast = world.spherecast(Vec3(1.5f, 0, 0), Vec3(0, 1, 0), 0.6f, 10.0f, 0.0);
  ASSERT_TRUE(cast.ok() && cast.value());
  EXPECT_TRUE(cast.value()->inside);
  EXPECT_EQ(cast.value()->distance, 0.0f);
}

TEST(Raycast, RayLeavingASurfaceDoesNotHitItsStart) {
  CollisionWorld world;
  world.add(placed(planeNode(Vec3(0, 1, 0), 0.0f), pose(Vec3(0))), "floor");
  auto hit = world.raycast(Ray{Vec3(0, 0, 0), glm::normalize(Vec3(1, 1, 0))}, 10.0f, 0.0);
  ASSERT_TRUE(hit.ok());
  EXPECT_FALSE(hit.value().has_value());
}

TEST(Spherecast, SpheresBoxesPlanesCapsulesMatchMinkowskiClosedForms) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  for (int i = 0; i < kCases; ++i) {
    const float r = 0.05f + 0.5f * U(rng);
    const Vec3 c = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 20.0f;
    const Quat q = randomRotation(rng);
    const int kind = i % 4;
    CollisionWorld world;
    std::optional<double> ref;
    Ray ray;
    const DV cd = toD(c);
    const glm::dquat qd(q);
    if (kind == 0) {
      const float R = 0.2f + U(rng);
      world.add(placed(i % 8 == 0 ? sphereNode(R) : marchedSphereNode(R), pose(c, q)), "s");
      ray = aimedRay(rng, c, c + randomUnit(rng) * (R * U(rng)), R + r + 1 + 10 * U(rng));
      ref = rayEnterSphere(toD(ray.origin), toD(ray.direction), cd, double(R) + r);
    } else if (kind == 1) {
      const Vec3 half(0.1f + U(rng), 0.1f + U(rng), 0.1f + U(rng));
      world.add(placed(boxNode(half), pose(c, q)), "s");
      ray = aimedRay(rng, c, c + q * ((Vec3(U(rng), U(rng), U(rng)) * 2.0f - 1.0f) * half),
                     glm::length(half) + r + 1 + 10 * U(rng));
      ref = rayEnterRoundedBox(glm::conjugate(qd) * (toD(ray.origin) - cd),
                               glm::conjugate(qd) * toD(ray.direction), toD(half), r);
    } else if (kind == 2) {
      world.add(placed(planeNode(Vec3(0, 1, 0), 0.0f), pose(c, q)), "s");
      const Vec3 n = q * Vec3(0, 1, 0);
      ray.origin = c + n * (r + 0.1f + 5 * U(rng)) + glm::cross(n, randomUnit(rng)) * 5.0f;
      Vec3 d = randomUnit(rng);
      if (glm::dot(d, n) > -0.1f) d = glm::normalize(d - n * (glm::dot(d, n) + 0.3f));
      ray.direction = d;
      ref =
          (glm::dot(toD(n), toD(ray.origin) - cd) - r) / -glm::dot(toD(n), glm::normalize(toD(d)));
    } else {
      const Vec3 a = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 2.0f;
      const Vec3 b = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 2.0f;
      const float R = 0.1f + 0.5f * U(rng);
      world.add(placed(capsuleNode(a, b, R), pose(c, q)), "s");
      ray = aimedRay(rng, c, c + q * (a + (b - a) * U(rng)), 3 + R + r + 10 * U(rng));
      ref = rayEnterCapsule(toD(ray.origin), toD(ray.direction), cd + qd * toD(a), cd + qd * toD(b),
                            double(R) + r);
    }
    ASSERT_TRUE(ref) << "case " << i;
    auto hit = world.spherecast(ray.origin, ray.direction, r, 100.0f, 0.0);
    ASSERT_TRUE(hit.ok());
    ASSERT_TRUE(hit.value().has_value()) << "case " << i << " kind " << kind;
    EXPECT_NEAR(hit.value()->distance, *ref, kTolerance) << "case " << i << " kind " << kind;
    // The reported point is where the cast sphere touches: r from its centre, on the surface.
    const Vec3 centre = ray.origin + ray.direction * hit.value()->distance;
    EXPECT_NEAR(glm::distance(hit.value()->point, centre), r, 1e-4f);
    auto onSurface = world.closest(hit.value()->point, 0.0);
    EXPECT_NEAR(onSurface.value()->distance, 0.0f, 2e-4f) << "case " << i << " kind " << kind;
  }
}

TEST(Spherecast, BulletSpeedDoesNotTunnelThroughACentimetreWall) {
  CollisionWorld world;
  // A 1 cm thick wall (half thickness 5 mm) 500 m down range.
  world.add(placed(boxNode(Vec3(0.005f, 2.0f, 2.0f)), pose(Vec3(500.0f, 0, 0))), "wall");
  for (float r : {0.0f, 0.001f, 0.01f, 0.2f}) {
    // One query covering 10 km: a single step of any fixed-step integrator would jump the wall.
    auto hit = world.spherecast(Vec3(0.0f, 0.3f, -0.2f), Vec3(1, 0, 0), r, 10000.0f, 0.0);
    ASSERT_TRUE(hit.ok());
    ASSERT_TRUE(hit.value().has_value()) << "r = " << r;
    EXPECT_NEAR(hit.value()->distance, 500.0 - 0.005 - r, 1e-3) << "r = " << r;
    EXPECT_GT(glm::dot(hit.value()->normal, Vec3(-1, 0, 0)), 0.999f);
    EXPECT_EQ(world.nodeName(*hit.value()), "wall");
    // Also as a sweep of the motion of one 1/60 s step at 600 km/s.
    auto swept =
        world.sweep(SweepShape::sphere(Vec3(0.0f, 0.3f, 0.0f), r), Vec3(10000.0f, 0, 0), 0.0);
    ASSERT_TRUE(swept.ok() && swept.value());
    EXPECT_NEAR(swept.value()->toi, (500.0 - 0.005 - r) / 10000.0, 1e-6);
  }
}

TEST(Casts, BadArgumentsAreErrorsNeverNaNHits) {
  CollisionWorld world;
  world.add(placed(sphereNode(1.0f), pose(Vec3(0))), "ball");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(world.raycast(Ray{Vec3(nan, 0, 5), Vec3(0, 0, -1)}, 10.0f, 0.0).ok());
  EXPECT_FALSE(world.raycast(Ray{Vec3(0, 0, 5), Vec3(0, inf, -1)}, 10.0f, 0.0).ok());
  EXPECT_FALSE(world.raycast(Ray{Vec3(0, 0, 5), Vec3(0)}, 10.0f, 0.0).ok());
  EXPECT_FALSE(world.raycast(Ray{Vec3(0, 0, 5), Vec3(0, 0, -1)}, nan, 0.0).ok());
  EXPECT_FALSE(world.raycast(Ray{Vec3(0, 0, 5), Vec3(0, 0, -1)}, 10.0f, double(nan)).ok());
  EXPECT_FALSE(world.spherecast(Vec3(0, 0, 5), Vec3(0, 0, -1), -0.1f, 10.0f, 0.0).ok());
  EXPECT_FALSE(world.spherecast(Vec3(0, 0, 5), Vec3(0), 0.1f, 10.0f, 0.0).ok());
  EXPECT_FALSE(world.spherecast(Vec3(0, 0, 5), Vec3(0, 0, -1), nan, 10.0f, 0.0).ok());
  EXPECT_FALSE(world.closest(Vec3(0, inf, 0), 0.0).ok());
  EXPECT_FALSE(world.sphereOverlap(Vec3(0), -1.0f, 0.0).ok());
  EXPECT_FALSE(world.capsuleOverlap(Vec3(0), Vec3(nan), 1.0f, 0.0).ok());
  EXPECT_FALSE(world.capsuleOverlap(Vec3(0), Vec3(1), -1.0f, 0.0).ok());
  EXPECT_FALSE(world.sweep(SweepShape::sphere(Vec3(0, 0, 5), 0.1f), Vec3(0), 0.0).ok());
  EXPECT_FALSE(
      world.sweep(SweepShape::capsule(Vec3(0, 0, 5), Vec3(0, 1, 5), -0.1f), Vec3(0, 0, -1), 0.0)
          .ok());
  // The error names the argument.
  auto e = world.raycast(Ray{Vec3(0, 0, 5), Vec3(0)}, 10.0f, 0.0);
  EXPECT_EQ(e.error().where, "dir");
  auto r = world.spherecast(Vec3(0, 0, 5), Vec3(0, 0, -1), -0.1f, 10.0f, 0.0);
  EXPECT_EQ(r.error().where, "radius");
}

}  // namespace
}  // namespace floptle::physics::testing
