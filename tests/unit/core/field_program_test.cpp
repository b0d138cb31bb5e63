// The compiled program: smooth min, gradients, conservative fractal marching, animation,
// batch == per point, materials, bounds and concurrent evaluation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>

#include "../../../core/src/field/sdf_math.h"
#include "field_test_util.h"

using namespace floptle;
using namespace floptle::field;
using namespace floptle::field::test;

namespace {

TEST(FieldSmoothMin, EqualsMinAsKGoesToZeroIsSymmetricAndNeverAboveMin) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f), uk(0.0f, 2.0f);
  for (int i = 0; i < 5000; ++i) {
    const float a = u(rng), b = u(rng), k = uk(rng);
    EXPECT_EQ(sdf::smin(a, b, k), sdf::smin(b, a, k));
    EXPECT_LE(sdf::smin(a, b, k), std::min(a, b));
    EXPECT_GE(sdf::smin(a, b, k), std::min(a, b) - 0.25f * k);  // the blend is at most k/4 deep
    EXPECT_GE(sdf::smax(a, b, k), std::max(a, b));
    EXPECT_EQ(sdf::smin(a, b, 0.0f), std::min(a, b));
  }
  for (float k : {1e-2f, 1e-4f, 1e-6f})
    EXPECT_NEAR(sdf::smin(0.3f, 0.3f, k), 0.3f, 0.25f * k + 1e-7f);
  // Known value: a = b, h = 1, smin = a - k/4.
  EXPECT_FLOAT_EQ(sdf::smin(1.0f, 1.0f, 0.4f), 0.9f);
}

TEST(FieldCsg, HardAndSmoothOperatorsFollowTheirDefinitions) {
  const FieldNode a = xform({-0.5f, 0, 0}, Quat(1, 0, 0, 0), 1, sphere(1));
  const FieldNode b = xform({0.5f, 0, 0}, Quat(1, 0, 0, 0), 1, sphere(1));
  const FieldNode c = box({0.2f, 2.0f, 0.2f});
  auto da = [](Vec3 p) { return glm::length(p - Vec3(-0.5f, 0, 0)) - 1; };
  auto db = [](Vec3 p) { return glm::length(p - Vec3(0.5f, 0, 0)) - 1; };
  auto dc = [](Vec3 p) {
    const Vec3 q = glm::abs(p) - Vec3(0.2f, 2.0f, 0.2f);
    return glm::length(glm::max(q, Vec3(0))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
  };
  const float k = 0.3f;
  const FieldProgram u = compileOrDie(csg(NodeType::Union, {a, b, c}));
  const FieldProgram in = compileOrDie(csg(NodeType::Intersection, {a, b, c}));
  const FieldProgram sub = compileOrDie(csg(NodeType::Subtraction, {a, b, c}));
  const FieldProgram su = compileOrDie(smooth(NodeType::SmoothUnion, k, {a, b, c}));
  const FieldProgram si = compileOrDie(smooth(NodeType::SmoothIntersection, k, {a, b}));
  const FieldProgram ss = compileOrDie(smooth(NodeType::SmoothSubtraction, k, {a, b, c}));
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> r(-2.5f, 2.5f);
  for (int i = 0; i < 500; ++i) {
    const Vec3 p(r(rng), r(rng), r(rng));
    EXPECT_NEAR(u.distance(p, 0), std::min({da(p), db(p), dc(p)}), 1e-5f);
    EXPECT_NEAR(in.distance(p, 0), std::max({da(p), db(p), dc(p)}), 1e-5f);
    EXPECT_NEAR(sub.distance(p, 0), std::max(da(p), -std::min(db(p), dc(p))), 1e-5f);
    EXPECT_NEAR(su.distance(p, 0), sdf::smin(sdf::smin(da(p), db(p), k), dc(p), k), 1e-5f);
    EXPECT_NEAR(si.distance(p, 0), sdf::smax(da(p), db(p), k), 1e-5f);
    EXPECT_NEAR(ss.distance(p, 0), sdf::smax(da(p), -sdf::smin(db(p), dc(p), k), k), 1e-5f);
  }
}

TEST(FieldCsg, MaterialOfTheNearerChildAndInheritance) {
  const FieldNode left = withMaterial(xform({-2, 0, 0}, Quat(1, 0, 0, 0), 1, sphere(1)), 1);
  const FieldNode right = withMaterial(xform({2, 0, 0}, Quat(1, 0, 0, 0), 1, sphere(1)), 2);
  const FieldNode plain = xform({0, 3, 0}, Quat(1, 0, 0, 0), 1, sphere(0.5f));  // inherits 7
  const FieldProgram prog =
      compileOrDie(withMaterial(smooth(NodeType::SmoothUnion, 0.5f, {left, right, plain}), 7));
  EXPECT_EQ(prog.sample({-2.5f, 0, 0}, 0).material, 1);
  EXPECT_EQ(prog.sample({2.5f, 0.2f, 0}, 0).material, 2);
  EXPECT_EQ(prog.sample({0, 3.6f, 0}, 0).material, 7);
  EXPECT_NEAR(prog.sample({-2.5f, 0, 0}, 0).distance, prog.distance({-2.5f, 0, 0}, 0), 0.0f);
}

// Central finite difference of the distance (m/m).
Vec3 finiteDifference(const FieldProgram& f, Vec3 p, float h) {
  return Vec3(f.distance(p + Vec3(h, 0, 0), 0) - f.distance(p - Vec3(h, 0, 0), 0),
              f.distance(p + Vec3(0, h, 0), 0) - f.distance(p - Vec3(0, h, 0), 0),
              f.distance(p + Vec3(0, 0, h), 0) - f.distance(p - Vec3(0, 0, h), 0)) /
         (2.0f * h);
}

TEST(FieldGradient, UnitLengthAndEqualToAFiniteDifference) {
  const Quat q = glm::angleAxis(0.9f, glm::normalize(Vec3(1, -2, 0.5f)));
  const std::vector<FieldNode> graphs = {
      xform({0.3f, 0.1f, 0}, q, 1.7f, sphere(0.8f)),
      xform({0, 0.5f, 0}, q, 0.6f, box({1, 0.5f, 0.7f})),
      xform({0, 0, 0}, q, 1.2f, roundBox({1, 0.5f, 0.7f}, 0.2f)),
      xform({0, 0, 0}, q, 1.0f, capsule({-1, 0, 0}, {1, 0.5f, 0}, 0.4f)),
      xform({0, 0, 0}, q, 1.0f, cylinder(0.7f, 0.9f)),
      xform({0, 0, 0}, q, 2.0f, torus(0.8f, 0.2f)),
      plane({0.3f, 1, -0.2f}, 0.1f),
      smooth(NodeType::SmoothUnion, 0.4f,
             {sphere(1), xform({1, 0, 0}, q, 1, box({0.5f, 0.5f, 0.5f}))}),
      xform({0, 0, 0}, q, 1.0f, wedge({1, 0.6f, 0.5f})),
  };
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(-2.5f, 2.5f);
  for (std::size_t g = 0; g < graphs.size(); ++g) {
    const FieldProgram prog = compileOrDie(graphs[g]);
    int compared = 0;
    for (int i = 0; i < 400; ++i) {
      const Vec3 p(u(rng), u(rng), u(rng));
      const Vec3 n = prog.normal(p, 0);
      ASSERT_NEAR(glm::length(n), 1.0f, 1e-4f);
      // Compare with the finite difference where the field is smooth around p (away from the
      // box's medial planes and edges): there the difference itself has unit length.
      const Vec3 fd = finiteDifference(prog, p, 1e-3f);
      const Vec3 fd2 = finiteDifference(prog, p, 3e-3f);
      if (std::abs(glm::length(fd) - 1.0f) > 1e-3f || glm::length(fd - fd2) > 1e-3f) continue;
      ++compared;
      EXPECT_NEAR(glm::dot(n, glm::normalize(fd)), 1.0f, 2e-3f)
          << "graph " << g << " at " << p.x << "," << p.y << "," << p.z;
    }
    EXPECT_GT(compared, 200) << "graph " << g;
  }
}

TEST(FieldGradient, AnalyticSphereNormalIsExact) {
  const FieldProgram s =
      compileOrDie(xform({1, 2, 3}, glm::angleAxis(0.5f, Vec3(0, 0, 1)), 2.0f, sphere(1)));
  const Vec3 n = s.normal({4, 6, 3}, 0);
  EXPECT_NEAR(n.x, 0.6f, 1e-6f);
  EXPECT_NEAR(n.y, 0.8f, 1e-6f);
  EXPECT_NEAR(n.z, 0.0f, 1e-6f);
  EXPECT_NEAR(s.gradientEpsilon(), 2e-3f, 1e-6f);  // 1e-3 of the graph's scale (radius 1 x 2)
}

TEST(FieldMandelbulb, SphereTracingNeverPassesTheFirstSignChange) {
  const FieldProgram bulb = compileOrDie(node(NodeType::Mandelbulb, {8, 8, 2}));
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  int hits = 0;
  for (int r = 0; r < 200; ++r) {
    Vec3 origin(u(rng), u(rng), u(rng));
    origin = glm::normalize(origin + Vec3(0, 0, 1e-3f)) * 3.0f;
    const Vec3 target = Vec3(u(rng), u(rng), u(rng)) * 0.6f;
    const Vec3 dir = glm::normalize(target - origin);
    const float maxT = 6.0f;
    // Dense sampling: first t where the field is negative.
    const float step = 5e-4f;
    float firstInside = maxT + 1.0f;
    for (float t = 0.0f; t < maxT; t += step)
      if (bulb.distance(origin + dir * t, 0) < 0.0f) {
        firstInside = t;
        break;
      }
    // Sphere tracing with the distance estimate.
    float t = 0.0f;
    bool hit = false;
    for (int i = 0; i < 2000 && t < maxT; ++i) {
      const float d = bulb.distance(origin + dir * t, 0);
      if (d < 1e-4f) {
        hit = true;
        break;
      }
      t += d;
    }
    if (hit) ++hits;
    ASSERT_LE(t, firstInside + step) << "ray " << r << " marched past the surface";
    if (firstInside <= maxT) {
      EXPECT_TRUE(hit) << "ray " << r;
    }
  }
  EXPECT_GT(hits, 50);
}

TEST(FieldAnimation, AnimatedParametersChangeTheFieldWithTime) {
  FieldNode s = sphere(1.0f);
  s.params[0].driver = AnimatedScalar::Driver::Sine;
  s.params[0].base = 1.0f;
  s.params[0].amplitude = 0.5f;
  s.params[0].frequency = 1.0f;  // (Hz): radius 1.5 at t = 0.25 s, 0.5 at t = 0.75 s
  const FieldProgram prog = compileOrDie(s);
  EXPECT_TRUE(prog.animated());
  EXPECT_NEAR(prog.distance({2, 0, 0}, 0.0), 1.0f, 1e-5f);
  EXPECT_NEAR(prog.distance({2, 0, 0}, 0.25), 0.5f, 1e-5f);
  EXPECT_NEAR(prog.distance({2, 0, 0}, 0.75), 1.5f, 1e-5f);
  EXPECT_NEAR(prog.parameterValues(0.25)[0], 1.5f, 1e-6f);

  // A keyframed transform moves a box; a keyframed fractal parameter morphs it.
  FieldNode moved = xform({0, 0, 0}, Quat(1, 0, 0, 0), 1, box({0.5f, 0.5f, 0.5f}));
  moved.params[0].driver = AnimatedScalar::Driver::Keys;
  moved.params[0].keys = {{0.0, 0.0f}, {2.0, 4.0f}};
  const FieldProgram mp = compileOrDie(moved);
  EXPECT_NEAR(mp.distance({2, 0, 0}, 0.0), 1.5f, 1e-5f);
  EXPECT_NEAR(mp.distance({2, 0, 0}, 1.0), -0.5f, 1e-5f);
  EXPECT_NEAR(mp.distance({2, 0, 0}, 5.0), 1.5f, 1e-5f);  // held after the last key
  std::vector<float> before(1), after(1);
  const Vec3 pts[] = {{2, 0, 0}};
  mp.distanceBatch(pts, 0.0, before);
  mp.distanceBatch(pts, 1.0, after);
  EXPECT_NEAR(before[0], 1.5f, 1e-5f);
  EXPECT_NEAR(after[0], -0.5f, 1e-5f);

  FieldNode bulb = node(NodeType::Mandelbulb, {8, 8, 2});
  bulb.params[0].driver = AnimatedScalar::Driver::Sine;
  bulb.params[0].base = 6.0f;
  bulb.params[0].amplitude = 2.0f;
  bulb.params[0].frequency = 0.5f;
  const FieldProgram bp = compileOrDie(bulb);
  int changed = 0;
  for (float x = 0.3f; x < 1.2f; x += 0.05f)
    changed +=
        std::abs(bp.distance({x, 0.2f, 0.1f}, 0.0) - bp.distance({x, 0.2f, 0.1f}, 0.5)) > 1e-4f;
  EXPECT_GT(changed, 5);
  EXPECT_FALSE(compileOrDie(sphere(1)).animated());
}

TEST(FieldBatch, BatchEqualsPerPointForEveryNodeType) {
  FieldNode scene = everyNodeScene();
  // Animate one parameter so both paths derive constants per call.
  scene.params[0].driver = AnimatedScalar::Driver::Sine;
  scene.params[0].base = 0.05f;
  scene.params[0].amplitude = 0.02f;
  scene.params[0].frequency = 1.0f;
  const FieldProgram prog = compileOrDie(scene);
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> ux(-5, 5), uy(-3, 4), uz(-5, 3);
  std::vector<Vec3> pts(1000);  // not a multiple of the block width on purpose
  for (Vec3& p : pts) p = {ux(rng), uy(rng), uz(rng)};
  std::vector<float> out(pts.size());
  for (double t : {0.0, 0.3}) {
    prog.distanceBatch(pts, t, out);
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const float one = prog.distance(pts[i], t);
      ASSERT_TRUE(std::isfinite(out[i]));
      ASSERT_EQ(out[i], one) << "point " << i;
      ASSERT_EQ(prog.sample(pts[i], t).distance, one);
    }
  }
}

TEST(FieldBounds, ContainTheSurfaceAndAreInfiniteForPlanes) {
  const Quat q = glm::angleAxis(0.8f, glm::normalize(Vec3(1, 1, 1)));
  const FieldProgram prog = compileOrDie(smooth(
      NodeType::SmoothUnion, 0.4f,
      {xform({1, 2, 3}, q, 2, box({1, 0.5f, 0.2f})), xform({-1, 0, 0}, q, 1, torus(1, 0.3f))}));
  const Aabb b = prog.bounds(0);
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> u(-8, 8);
  for (int i = 0; i < 20000; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    if (prog.distance(p, 0) <= 0.0f) {
      ASSERT_TRUE(b.contains(p));
    }
  }
  EXPECT_FALSE(isFinite(compileOrDie(plane({0, 1, 0}, 0)).bounds(0).max));
}

TEST(FieldProgram, ConcurrentEvaluationGivesTheSameResults) {
  const FieldProgram prog = compileOrDie(everyNodeScene());
  std::vector<Vec3> pts;
  for (int i = 0; i < 400; ++i)
    pts.push_back({std::sin(i * 0.7f) * 4, std::cos(i * 0.3f) * 2, std::sin(i * 1.3f) * 4});
  std::vector<float> expected(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) expected[i] = prog.distance(pts[i], 0.1);
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < pts.size(); ++i)
        mismatches[t] += prog.distance(pts[i], 0.1) != expected[i];
    });
  for (auto& th : threads) th.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

TEST(FieldProgram, TwistStaysConservative) {
  // The twisted field never exceeds the true distance: check against dense sampling of the
  // twisted solid's boundary along random rays (a marcher must not pass the first inside point).
  const FieldProgram prog = compileOrDie(node(NodeType::Twist, {2.0f}, {box({0.8f, 1.5f, 0.2f})}));
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int r = 0; r < 100; ++r) {
    const Vec3 origin = glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(0, 0, 1e-3f)) * 3.0f;
    const Vec3 dir = glm::normalize(Vec3(u(rng), u(rng), u(rng)) * 0.5f - origin);
    float firstInside = 1e9f;
    for (float t = 0; t < 6; t += 1e-3f)
      if (prog.distance(origin + dir * t, 0) < 0) {
        firstInside = t;
        break;
      }
    float t = 0;
    for (int i = 0; i < 3000 && t < 6; ++i) {
      const float d = prog.distance(origin + dir * t, 0);
      if (d < 1e-4f) break;
      t += d;
    }
    ASSERT_LE(t, firstInside + 1e-3f);
  }
}

}  // namespace
