// The Morph displacement ops (displace_sine, displace_noise): f(p, t) = child(p + d(p, t)),
// divided by the terms' Lipschitz bound, against closed forms; a chain of terms is one sum read
// at one point; the divided field never overstates the distance; bounds hold the surface.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "field_test_util.h"
#include "floptle/core/field/field_program.h"

namespace floptle::field {
namespace {

using test::compileOrDie;
using test::node;

constexpr float kA = 0.3f, kK = 2.0f, kW = 1.7f, kPhase = 0.4f;

FieldNode flatFloor() {
  return test::plane({0, 1, 0}, 0.0f);
}

/// d = (0, A, 0) sin(k x + w t + phase) on the plane y = 0.
FieldNode sinePlane() {
  return node(NodeType::DisplaceSine, {0.0f, kA, 0.0f, kK, 0.0f, 0.0f, kW, kPhase}, {flatFloor()});
}

TEST(FieldDisplace, SinePlaneIsTheClosedFormOverItsBound) {
  const FieldProgram prog = compileOrDie(sinePlane());
  EXPECT_TRUE(prog.animated());
  const float bound = 1.0f + kA * kK;  // |A| |k|
  for (double t : {0.0, 0.35, 1.2, 4.0}) {
    for (float x = -2.0f; x <= 2.0f; x += 0.37f) {
      for (float y = -1.0f; y <= 1.0f; y += 0.29f) {
        const float expected = (y + kA * std::sin(kK * x + kW * float(t) + kPhase)) / bound;
        EXPECT_NEAR(prog.distance({x, y, 0.5f}, t), expected, 2e-6f) << x << " " << y << " " << t;
      }
    }
    // The surface sits at y = -A sin(k x + w t + phase).
    const float x = 0.8f, ySurface = -kA * std::sin(kK * x + kW * float(t) + kPhase);
    EXPECT_NEAR(prog.distance({x, ySurface, 0.0f}, t), 0.0f, 1e-6f);
  }
}

TEST(FieldDisplace, ChainSumsTermsReadAtOnePoint) {
  // Two x-waves along y: d_y = a1 sin(k1 x) + a2 sin(k2 y). Read at one point, the second
  // term sees the original y, not y displaced by the first.
  const FieldNode chain =
      node(NodeType::DisplaceSine, {0.0f, 0.2f, 0.0f, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f},
           {node(NodeType::DisplaceSine, {0.0f, 0.1f, 0.0f, 0.0f, 5.0f, 0.0f, 0.0f, 0.0f},
                 {flatFloor()})});
  const FieldProgram prog = compileOrDie(chain);
  EXPECT_FALSE(prog.animated());  // no term moves
  const float bound = 1.0f + 0.2f * 3.0f + 0.1f * 5.0f;
  for (float x = -1.0f; x <= 1.0f; x += 0.23f)
    for (float y = -0.5f; y <= 0.5f; y += 0.17f)
      EXPECT_NEAR(prog.distance({x, y, 0}, 0.0),
                  (y + 0.2f * std::sin(3.0f * x) + 0.1f * std::sin(5.0f * y)) / bound, 2e-6f);
}

FieldNode noisySphere(float speed) {
  return node(NodeType::DisplaceNoise, {0.15f, 1.5f, speed, 3.0f}, {test::sphere(1.0f)});
}

TEST(FieldDisplace, NoiseIsBoundedSmoothAndMoves) {
  const FieldProgram still = compileOrDie(noisySphere(0.0f));
  const FieldProgram moving = compileOrDie(noisySphere(0.8f));
  EXPECT_FALSE(still.animated());
  EXPECT_TRUE(moving.animated());
  const float bound = 1.0f + 25.5f * 0.15f * 1.5f;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  int changed = 0;
  for (int i = 0; i < 500; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    // |d| <= 2 a per axis, so the undivided field is within 2 a sqrt(3) of the sphere's.
    const float undivided = still.distance(p, 0.0) * bound;
    EXPECT_LE(std::abs(undivided - (glm::length(p) - 1.0f)),
              2.0f * 0.15f * std::sqrt(3.0f) + 1e-5f);
    // The moving pattern at t = 0 is the still one; later it differs somewhere.
    EXPECT_EQ(moving.distance(p, 0.0), still.distance(p, 0.0));
    if (moving.distance(p, 1.0) != still.distance(p, 1.0)) ++changed;
  }
  EXPECT_GT(changed, 400);
  // Continuity across lattice cells: tiny steps make tiny changes (no seams).
  for (float x = -2.0f; x < 2.0f; x += 0.01f) {
    const Vec3 p(x, 0.3f, -0.7f), q(x + 1e-3f, 0.3f, -0.7f);
    EXPECT_LE(std::abs(still.distance(p, 0.0) - still.distance(q, 0.0)), 1.01e-3f);
  }
}

TEST(FieldDisplace, DividedFieldIsOneLipschitz) {
  // The Lipschitz bound makes the displaced field a conservative distance: |f(p) - f(q)| is
  // never more than |p - q|, so a sphere tracer cannot step past the surface.
  const FieldNode both = node(
      NodeType::DisplaceSine, {0.1f, 0.05f, 0.0f, 4.0f, 1.0f, 0.0f, 2.0f, 0.0f},
      {node(NodeType::DisplaceNoise, {0.1f, 3.0f, 0.4f, 11.0f}, {test::box({0.6f, 0.4f, 0.5f})})});
  const FieldProgram prog = compileOrDie(both);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-1.5f, 1.5f), step(-0.05f, 0.05f);
  for (double t : {0.0, 0.7}) {
    for (int i = 0; i < 3000; ++i) {
      const Vec3 p(u(rng), u(rng), u(rng));
      const Vec3 q = p + Vec3(step(rng), step(rng), step(rng));
      EXPECT_LE(std::abs(prog.distance(p, t) - prog.distance(q, t)),
                glm::length(p - q) * 1.0001f + 1e-6f);
    }
  }
}

TEST(FieldDisplace, BoundsHoldTheDisplacedSurface) {
  const FieldProgram prog = compileOrDie(noisySphere(0.8f));
  const Aabb b = prog.bounds(0.6);
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> u(-2.5f, 2.5f);
  int inside = 0;
  for (int i = 0; i < 20000; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    if (prog.distance(p, 0.6) >= 0.0f) continue;
    ++inside;
    EXPECT_TRUE(b.contains(p)) << p.x << " " << p.y << " " << p.z;
  }
  EXPECT_GT(inside, 400);  // about 3% of the box is inside
}

TEST(FieldDisplace, BatchAndSampleAgreeWithDistance) {
  const FieldNode shape = test::withMaterial(
      node(NodeType::DisplaceSine, {0.1f, 0.2f, 0.0f, 2.0f, 0.0f, 1.0f, 1.0f, 0.0f},
           {node(NodeType::DisplaceNoise, {0.05f, 2.0f, 0.3f, 1.0f}, {test::sphere(0.7f)})}),
      4);
  const FieldProgram prog = compileOrDie(shape);
  std::vector<Vec3> pts;
  for (int i = 0; i < 150; ++i) pts.push_back({0.02f * i - 1.5f, 0.013f * i - 1.0f, 0.3f});
  std::vector<float> batch(pts.size());
  prog.distanceBatch(pts, 0.9, batch);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    EXPECT_EQ(batch[i], prog.distance(pts[i], 0.9));
    EXPECT_EQ(prog.sample(pts[i], 0.9).distance, prog.distance(pts[i], 0.9));
    EXPECT_EQ(prog.sample(pts[i], 0.9).material, 4);
  }
}

}  // namespace
}  // namespace floptle::field
