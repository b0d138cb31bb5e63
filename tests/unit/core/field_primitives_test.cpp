// Closed-form distances of every primitive at points inside, on and outside, bare and under
// rotated / scaled transforms.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "field_test_util.h"

using namespace floptle;
using namespace floptle::field;
using namespace floptle::field::test;

namespace {

float dist(const FieldNode& n, Vec3 p, double t = 0.0) {
  return compileOrDie(n).distance(p, t);
}

constexpr float kTol = 1e-5f;

TEST(FieldPrimitives, Sphere) {
  const FieldNode s = sphere(1.0f);
  EXPECT_NEAR(dist(s, {2, 0, 0}), 1.0f, kTol);
  EXPECT_NEAR(dist(s, {0, 0, 0}), -1.0f, kTol);
  EXPECT_NEAR(dist(s, {0, 1, 0}), 0.0f, kTol);
  EXPECT_NEAR(dist(s, {0.6f, 0, 0.8f}), 0.0f, kTol);
  EXPECT_NEAR(dist(s, {0, -0.25f, 0}), -0.75f, kTol);
}

TEST(FieldPrimitives, Box) {
  const FieldNode b = box({1, 2, 3});
  EXPECT_NEAR(dist(b, {3, 0, 0}), 2.0f, kTol);
  EXPECT_NEAR(dist(b, {2, 3, 0}), std::sqrt(2.0f), kTol);
  EXPECT_NEAR(dist(b, {2, 3, 4}), std::sqrt(3.0f), kTol);
  EXPECT_NEAR(dist(b, {1, 0, 0}), 0.0f, kTol);
  EXPECT_NEAR(dist(b, {0, 0, 0}), -1.0f, kTol);
  EXPECT_NEAR(dist(b, {0.5f, 1.9f, 0}), -0.1f, kTol);
  EXPECT_NEAR(dist(b, {0, 0, -2.75f}), -0.25f, kTol);
}

TEST(FieldPrimitives, RoundBoxRoundsInsideTheHalfExtents) {
  const FieldNode b = roundBox({1, 1, 1}, 0.25f);
  EXPECT_NEAR(dist(b, {2, 0, 0}), 1.0f, kTol);  // faces stay at the half extents
  EXPECT_NEAR(dist(b, {0, 0, 0}), -1.0f, kTol);
  EXPECT_NEAR(dist(b, {2, 2, 2}), std::sqrt(3.0f) * 1.25f - 0.25f, kTol);  // rounded corner
  EXPECT_NEAR(dist(b, {0.75f + 0.25f / std::sqrt(2.0f), 0.75f + 0.25f / std::sqrt(2.0f), 0}), 0.0f,
              kTol);
}

TEST(FieldPrimitives, Capsule) {
  const FieldNode c = capsule({0, -1, 0}, {0, 1, 0}, 0.5f);
  EXPECT_NEAR(dist(c, {2, 0, 0}), 1.5f, kTol);
  EXPECT_NEAR(dist(c, {0, 3, 0}), 1.5f, kTol);
  EXPECT_NEAR(dist(c, {0, 0, 0}), -0.5f, kTol);
  EXPECT_NEAR(dist(c, {0.3f, -2, 0.4f}), glm::length(Vec3(0.3f, -1, 0.4f)) - 0.5f, kTol);
  EXPECT_NEAR(dist(c, {0, 1.5f, 0}), 0.0f, kTol);
  // Degenerate segment: a sphere.
  EXPECT_NEAR(dist(capsule({1, 1, 1}, {1, 1, 1}, 0.5f), {1, 3, 1}), 1.5f, kTol);
}

TEST(FieldPrimitives, Cylinder) {
  const FieldNode c = cylinder(1, 2);
  EXPECT_NEAR(dist(c, {3, 0, 0}), 2.0f, kTol);
  EXPECT_NEAR(dist(c, {0, 5, 0}), 3.0f, kTol);
  EXPECT_NEAR(dist(c, {2, 3, 0}), std::sqrt(2.0f), kTol);
  EXPECT_NEAR(dist(c, {0, 0, 0}), -1.0f, kTol);
  EXPECT_NEAR(dist(c, {0, 1.5f, 0}), -0.5f, kTol);
  EXPECT_NEAR(dist(c, {0.6f, -1, 0.8f}), 0.0f, kTol);
}

TEST(FieldPrimitives, Torus) {
  const FieldNode t = torus(2, 0.5f);
  EXPECT_NEAR(dist(t, {2, 0, 0}), -0.5f, kTol);
  EXPECT_NEAR(dist(t, {0, 0, 0}), 1.5f, kTol);
  EXPECT_NEAR(dist(t, {0, 0, 3}), 0.5f, kTol);
  EXPECT_NEAR(dist(t, {0, 1, 2}), 0.5f, kTol);
  EXPECT_NEAR(dist(t, {0, 0, -2.5f}), 0.0f, kTol);
}

TEST(FieldPrimitives, PlaneNormalizesItsNormal) {
  EXPECT_NEAR(dist(plane({0, 2, 0}, 1), {5, 3, 7}), 2.0f, kTol);
  EXPECT_NEAR(dist(plane({0, 2, 0}, 1), {0, 0, 0}), -1.0f, kTol);
  EXPECT_NEAR(dist(plane({1, 1, 0}, 0.5f), {1, 1, 9}), std::sqrt(2.0f) - 0.5f, kTol);
}

TEST(FieldPrimitives, WedgeIsARampRisingTowardPlusX) {
  const FieldNode w = wedge({1, 1, 1});  // triangle (-1,-1), (1,-1), (1,1) extruded |z| <= 1
  EXPECT_NEAR(dist(w, {0, -2, 0}), 1.0f, kTol);
  EXPECT_NEAR(dist(w, {2, 0, 0}), 1.0f, kTol);
  EXPECT_NEAR(dist(w, {-1, 1, 0}), std::sqrt(2.0f), kTol);  // above the slope
  EXPECT_NEAR(dist(w, {0.5f, -0.5f, 0}), -0.5f, kTol);
  EXPECT_NEAR(dist(w, {0.9f, -0.9f, 0.95f}), -0.05f, kTol);
  EXPECT_NEAR(dist(w, {0.5f, -0.5f, 2}), 1.0f, kTol);
  EXPECT_NEAR(dist(w, {0, 0, 0}), 0.0f, kTol);             // on the slope
  EXPECT_NEAR(dist(w, {-3, -1, 0}), 2.0f, kTol);           // beyond the low edge
  EXPECT_NEAR(dist(w, {2, 2, 0}), std::sqrt(2.0f), kTol);  // beyond the top edge
  // The box it is cut from bounds it: never closer than the box.
  EXPECT_GE(dist(w, {-0.9f, 0.9f, 0}), dist(box({1, 1, 1}), {-0.9f, 0.9f, 0}));
}

TEST(FieldPrimitives, StairsClosedForms) {
  const FieldNode s = stairs(3, 1, 1, 1);           // steps of 1 m x 1 m, 3 of them, |z| <= 1
  EXPECT_NEAR(dist(s, {0.5f, 2, 0}), 0.5f, kTol);   // above step 0, beside riser 1
  EXPECT_NEAR(dist(s, {2.5f, 1, 0}), -0.5f, kTol);  // inside the last column
  EXPECT_NEAR(dist(s, {0.5f, 0.5f, 0}), -0.5f, kTol);
  EXPECT_NEAR(dist(s, {1.5f, 2.5f, 0}), 0.5f, kTol);  // above tread 1 at y = 2
  EXPECT_NEAR(dist(s, {-1, 0.5f, 0}), 1.0f, kTol);
  EXPECT_NEAR(dist(s, {4, 1, 0}), 1.0f, kTol);
  EXPECT_NEAR(dist(s, {1.5f, -2, 0}), 2.0f, kTol);
  EXPECT_NEAR(dist(s, {2.5f, 2.5f, 3}), 2.0f, kTol);  // beside, along z
  EXPECT_NEAR(dist(s, {0.5f, 4, 0}), std::sqrt(2.25f + 1.0f),
              kTol);  // nearest: top outer corner (2, 3)
}

// Brute-force 2D staircase distance over every segment of the profile polygon.
float stairsBruteForce(float x, float y, int n, float rise, float run) {
  auto seg = [&](Vec2 a, Vec2 b) {
    const Vec2 p(x, y), ab = b - a;
    const float l2 = glm::dot(ab, ab);
    const float h = l2 > 0 ? std::clamp(glm::dot(p - a, ab) / l2, 0.0f, 1.0f) : 0.0f;
    return glm::length(p - (a + ab * h));
  };
  float d = seg({0, 0}, {n * run, 0});
  d = std::min(d, seg({n * run, 0}, {n * run, n * rise}));
  for (int i = 0; i < n; ++i) {
    d = std::min(d, seg({i * run, i * rise}, {i * run, (i + 1) * rise}));
    d = std::min(d, seg({i * run, (i + 1) * rise}, {(i + 1) * run, (i + 1) * rise}));
  }
  bool inside = false;
  for (int i = 0; i < n; ++i)
    inside = inside || (x > i * run && x < (i + 1) * run && y > 0 && y < (i + 1) * rise);
  return inside ? -d : d;
}

TEST(FieldPrimitives, StairsMatchBruteForcePolygonDistance) {
  std::mt19937 rng(7);
  struct Case {
    int n;
    float rise, run;
  };
  for (Case c :
       {Case{1, 0.3f, 0.5f}, Case{5, 0.2f, 0.4f}, Case{7, 0.8f, 0.1f}, Case{40, 0.15f, 0.3f}}) {
    const FieldProgram prog = compileOrDie(stairs(c.n, c.rise, c.run, 0.5f));
    std::uniform_real_distribution<float> ux(-1.0f, c.n * c.run + 1.0f),
        uy(-1.0f, c.n * c.rise + 1.0f);
    for (int i = 0; i < 3000; ++i) {
      const float x = ux(rng), y = uy(rng);
      const float expected2 = stairsBruteForce(x, y, c.n, c.rise, c.run);
      // z = 0 with a half width larger than the profile distance keeps the extrusion exact.
      const float expected = std::max(expected2, -0.5f);
      const float got = prog.distance({x, y, 0.0f}, 0.0);
      if (expected2 >= -0.5f) {
        ASSERT_NEAR(got, expected, 1e-4f) << c.n << " steps at " << x << "," << y;
      }
    }
  }
}

TEST(FieldPrimitives, RotatedAndScaledTransformMatchesTheTransformedClosedForm) {
  // Box (1, 0.5, 0.25) turned 90 degrees about Y, scaled 2, moved to (1, 0, 0): in the world
  // it is an axis-aligned box of half extents (0.5, 1, 2) around (1, 0, 0).
  const Quat q = glm::angleAxis(glm::radians(90.0f), Vec3(0, 1, 0));
  const FieldProgram prog = compileOrDie(xform({1, 0, 0}, q, 2.0f, box({1, 0.5f, 0.25f})));
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (int i = 0; i < 500; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    const Vec3 q2 = glm::abs(p - Vec3(1, 0, 0)) - Vec3(0.5f, 1, 2);
    const float expected =
        glm::length(glm::max(q2, Vec3(0))) + std::min(std::max(q2.x, std::max(q2.y, q2.z)), 0.0f);
    ASSERT_NEAR(prog.distance(p, 0), expected, 2e-5f) << p.x << "," << p.y << "," << p.z;
  }
  // A sphere scaled by 3: distances scale with it, inside too.
  const FieldProgram s =
      compileOrDie(xform({0, 1, 0}, glm::angleAxis(0.4f, Vec3(1, 0, 0)), 3.0f, sphere(1.0f)));
  EXPECT_NEAR(s.distance({0, 1, 0}, 0), -3.0f, kTol);
  EXPECT_NEAR(s.distance({5, 1, 0}, 0), 2.0f, kTol);
  // Capsule rotated about Z by 90 degrees lies along X.
  const FieldProgram c =
      compileOrDie(xform({0, 0, 0}, glm::angleAxis(glm::radians(90.0f), Vec3(0, 0, 1)), 1.0f,
                         capsule({0, -1, 0}, {0, 1, 0}, 0.5f)));
  EXPECT_NEAR(c.distance({3, 0, 0}, 0), 1.5f, kTol);
  EXPECT_NEAR(c.distance({0, 2, 0}, 0), 1.5f, kTol);
}

TEST(FieldPrimitives, NestedTransformsCompose) {
  const Quat qa = glm::angleAxis(0.3f, glm::normalize(Vec3(1, 1, 0)));
  const Quat qb = glm::angleAxis(1.1f, glm::normalize(Vec3(0, 1, 1)));
  const FieldProgram prog =
      compileOrDie(xform({1, 2, 3}, qa, 1.5f, xform({-1, 0, 0.5f}, qb, 0.5f, torus(1, 0.3f))));
  const Transform ta{{1, 2, 3}, qa, 1.5f}, tb{{-1, 0, 0.5f}, qb, 0.5f};
  const Transform world = ta.compose(tb);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-3.0f, 5.0f);
  for (int i = 0; i < 300; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    const Vec3 l = world.inverseApplyToPoint(p);
    const float expected =
        (glm::length(Vec2(glm::length(Vec2(l.x, l.z)) - 1.0f, l.y)) - 0.3f) * world.scale;
    ASSERT_NEAR(prog.distance(p, 0), expected, 1e-4f);
  }
}

TEST(FieldPrimitives, FractalsAreNegativeInsideAndPositiveFarOutside) {
  const FieldProgram bulb = compileOrDie(node(NodeType::Mandelbulb, {8, 8, 2}));
  EXPECT_LT(bulb.distance({0, 0, 0}, 0), 0.0f);
  EXPECT_GT(bulb.distance({3, 0, 0}, 0),
            0.5f);  // the bulb reaches ~1.1 m; the estimate is halved for safety
  const FieldProgram menger = compileOrDie(node(NodeType::Menger, {3, 2.0f}));
  EXPECT_NEAR(menger.distance({5, 0, 0}, 0), 3.0f, kTol);  // outside the cube: the cube's distance
  // Centre of the hole: the nearest solid is (1/3, 1/3, 0) of the half size; the iterated
  // cross distance is a lower bound there (Chebyshev in the cross section), never above it.
  EXPECT_GT(menger.distance({0, 0, 0}, 0), 0.0f);
  EXPECT_LE(menger.distance({0, 0, 0}, 0), 2.0f * std::sqrt(2.0f) / 3.0f + 1e-5f);
  EXPECT_LT(menger.distance({1.9f, 1.9f, 1.9f}, 0), 0.0f);  // solid corner
  const FieldProgram box = compileOrDie(node(NodeType::Mandelbox, {-1.5f, 10, 0.5f, 1.0f}));
  EXPECT_GT(box.distance({20, 0, 0}, 0), 1.0f);
  for (float x = -5; x <= 5; x += 0.37f)
    EXPECT_TRUE(std::isfinite(box.distance({x, 0.3f, -0.2f}, 0)));
}

}  // namespace
