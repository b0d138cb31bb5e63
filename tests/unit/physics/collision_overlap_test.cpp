// closest, sphereOverlap and capsuleOverlap against closed forms.
#include <random>

#include "collision_fixtures.h"

namespace floptle::physics::testing {
namespace {

TEST(Closest, RotatedBoxesMatchClosedForm) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  for (int i = 0; i < 400; ++i) {
    const Vec3 half(0.1f + 2 * U(rng), 0.1f + 2 * U(rng), 0.1f + 2 * U(rng));
    const Vec3 c = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 20.0f;
    const Quat q = randomRotation(rng);
    CollisionWorld world;
    world.add(placed(boxNode(half), pose(c, q)), "crate");
    // Points inside and outside, up to 3 m from the box.
    const Vec3 p = c + q * ((Vec3(U(rng), U(rng), U(rng)) * 2.0f - 1.0f) * (half + 3.0f * U(rng)));
    const glm::dquat qd(q);
    const DV pl = glm::conjugate(qd) * (toD(p) - toD(c));
    const double ref = sdBox(pl, toD(half));
    auto hit = world.closest(p, 0.0);
    ASSERT_TRUE(hit.ok() && hit.value());
    EXPECT_NEAR(hit.value()->distance, ref, 1e-4) << "case " << i;
    EXPECT_EQ(hit.value()->inside, ref < 0.0);
    // The point lies on the surface, |distance| from p.
    const DV ql = glm::conjugate(qd) * (toD(hit.value()->point) - toD(c));
    EXPECT_NEAR(sdBox(ql, toD(half)), 0.0, 1e-4) << "case " << i;
    EXPECT_NEAR(glm::distance(hit.value()->point, p), std::abs(ref), 1e-4);
    if (ref > 1e-3) {
      // Outside: the closed-form nearest point is the clamp of p to the box.
      const DV nearest = glm::clamp(pl, -toD(half), toD(half));
      EXPECT_LT(glm::distance(ql, nearest), 1e-4) << "case " << i;
    }
    EXPECT_EQ(world.nodeName(*hit.value()), "crate");
  }
}

TEST(Closest, PicksTheNearestOfSeveralColliders) {
  CollisionWorld world;
  world.add(placed(sphereNode(1.0f), pose(Vec3(-3, 0, 0))), "left");
  world.add(placed(sphereNode(1.0f), pose(Vec3(3, 0, 0))), "right");
  world.add(placed(planeNode(Vec3(0, 1, 0), -5.0f), pose(Vec3(0))), "floor");
  auto h = world.closest(Vec3(1.5f, 0, 0), 0.0);
  ASSERT_TRUE(h.ok() && h.value());
  EXPECT_EQ(world.nodeName(*h.value()), "right");
  EXPECT_NEAR(h.value()->distance, 0.5f, 1e-5f);
  EXPECT_NEAR(glm::distance(h.value()->point, Vec3(2, 0, 0)), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::dot(h.value()->normal, Vec3(-1, 0, 0)), 1.0f, 1e-5f);
  h = world.closest(Vec3(0, -4.5f, 0), 0.0);
  EXPECT_EQ(world.nodeName(*h.value()), "floor");
  EXPECT_NEAR(h.value()->distance, 0.5f, 1e-5f);
  EXPECT_FALSE(CollisionWorld{}.closest(Vec3(0), 0.0).value().has_value());
}

TEST(SphereOverlap, PenetrationNormalAndPointMatchClosedForm) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  CollisionWorld world;
  world.add(placed(sphereNode(2.0f), pose(Vec3(1, 2, 3))), "ball");
  for (int i = 0; i < 200; ++i) {
    const Vec3 dir = randomUnit(rng);
    const float d = 2.0f + (U(rng) - 0.5f) * 1.5f;  // centre distance from the surface +-0.75
    const float r = 0.1f + U(rng);
    const Vec3 c = Vec3(1, 2, 3) + dir * d;
    auto hit = world.sphereOverlap(c, r, 0.0);
    ASSERT_TRUE(hit.ok());
    const float pen = r - (d - 2.0f);
    if (pen <= 1e-5f) {
      if (pen < -1e-5f) {
        EXPECT_FALSE(hit.value().has_value()) << "case " << i;
      }
      continue;
    }
    ASSERT_TRUE(hit.value().has_value()) << "case " << i;
    EXPECT_NEAR(hit.value()->distance, pen, 1e-4f);
    EXPECT_GT(glm::dot(hit.value()->normal, dir), 0.9999f);
    EXPECT_LT(glm::distance(hit.value()->point, c - dir * r), 1e-4f);  // seed: c - r n
    EXPECT_EQ(world.nodeName(*hit.value()), "ball");
  }
}

TEST(CapsuleOverlap, ThinWallThroughTheMiddleOfTheCapsuleIsFound) {
  CollisionWorld world;
  // A 1 cm wall across x = 0.37, 4 m tall and wide.
  world.add(placed(boxNode(Vec3(0.005f, 2.0f, 2.0f)), pose(Vec3(0.37f, 0, 0))), "wall");
  // Capsule axis from x = -1 to x = 1 at radius 0.2: both end spheres are far from the wall
  // (0.8 m and 1.3 m), only the middle of the capsule passes through it.
  const Vec3 a(-1.0f, 0.5f, 0.0f), b(1.0f, 0.5f, 0.0f);
  auto ends = world.sphereOverlap(a, 0.2f, 0.0);
  EXPECT_FALSE(ends.value().has_value());
  EXPECT_FALSE(world.sphereOverlap(b, 0.2f, 0.0).value().has_value());
  auto hit = world.capsuleOverlap(a, b, 0.2f, 0.0);
  ASSERT_TRUE(hit.ok());
  ASSERT_TRUE(hit.value().has_value());
  EXPECT_EQ(world.nodeName(*hit.value()), "wall");
  // Five golden-section refinements leave the axis point within 0.618^5 of the coarse
  // bracket (1/2 of the axis) of the wall: the sphere centre that touches (point + r n) is
  // near x = 0.37, and it penetrates.
  EXPECT_GT(hit.value()->distance, 0.0f);
  EXPECT_LE(hit.value()->distance, 0.2f + 0.005f + 1e-4f);
  const Vec3 centre = hit.value()->point + hit.value()->normal * 0.2f;
  EXPECT_NEAR(centre.x, 0.37f, 0.1f);
  EXPECT_NEAR(centre.y, 0.5f, 1e-5f);
  EXPECT_GT(std::abs(hit.value()->normal.x), 0.999f);
  // A crouching body lying across a low wall (top at y = 1): its ends hang in the air, its
  // waist (axis at y = 1.1, radius 0.15) sinks 0.05 m into the top.
  CollisionWorld low;
  low.add(placed(boxNode(Vec3(2.0f, 0.5f, 0.05f)), pose(Vec3(0, 0.5f, 0))), "low_wall");
  auto across = low.capsuleOverlap(Vec3(0, 1.1f, -1.0f), Vec3(0, 1.1f, 1.3f), 0.15f, 0.0);
  ASSERT_TRUE(across.ok() && across.value());
  // Never deeper than the closed form (0.05); the golden-section estimate lands near it.
  EXPECT_LE(across.value()->distance, 0.05f + 1e-4f);
  EXPECT_GT(across.value()->distance, 0.03f);
  EXPECT_GT(glm::dot(across.value()->normal, Vec3(0, 1, 0)), 0.99f);
}

TEST(CapsuleOverlap, EndSpheresAreAlwaysTested) {
  CollisionWorld world;
  world.add(placed(sphereNode(1.0f), pose(Vec3(0))), "ball");
  // End b inside the ball by 0.3 + radius 0.1.
  auto hit = world.capsuleOverlap(Vec3(0, 5, 0), Vec3(0, 0.7f, 0), 0.1f, 0.0);
  ASSERT_TRUE(hit.ok() && hit.value());
  EXPECT_NEAR(hit.value()->distance, 0.4f, 1e-5f);
  EXPECT_GT(glm::dot(hit.value()->normal, Vec3(0, 1, 0)), 0.9999f);
  EXPECT_FALSE(world.capsuleOverlap(Vec3(0, 5, 0), Vec3(0, 1.2f, 0), 0.1f, 0.0).value());
  // A degenerate capsule (a == b) is a sphere.
  auto s = world.capsuleOverlap(Vec3(0, 1.05f, 0), Vec3(0, 1.05f, 0), 0.1f, 0.0);
  ASSERT_TRUE(s.ok() && s.value());
  EXPECT_NEAR(s.value()->distance, 0.05f, 1e-5f);
}

}  // namespace
}  // namespace floptle::physics::testing
