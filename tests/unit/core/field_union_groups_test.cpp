// Unions of many children: the per-point interpreter measures runs of same-kind children
// (4-lane kernels for spheres and boxes) and folds them in order. The result must equal the
// union's definition, and per point, batched and sample() must agree bit for bit whatever the
// number of children (group tails, runs longer than one step) and whether parameters animate.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "../../../core/src/field/sdf_math.h"
#include "field_test_util.h"

using namespace floptle;
using namespace floptle::field;
using namespace floptle::field::test;

namespace {

struct Child {
  FieldNode node;
  std::function<float(Vec3)> distance;  // closed form, world space
};

/// Sphere / box / round box under no transform, a translation or a rotation + scale.
Child makeChild(int i) {
  const Vec3 at(std::cos(i * 1.3f) * 1.5f, std::sin(i * 0.7f) * 1.0f, std::sin(i * 1.9f) * 1.2f);
  const Quat q = glm::angleAxis(0.3f + 0.2f * i, glm::normalize(Vec3(1, i % 3, 2)));
  const float s = 0.7f + 0.1f * (i % 4);
  const Vec3 half(0.2f + 0.03f * (i % 5), 0.25f, 0.15f + 0.02f * (i % 3));
  const float r = 0.2f + 0.02f * (i % 6);
  const int shape = i % 3, transform = (i / 3) % 3;
  auto local = [=](Vec3 p) {
    if (transform == 0) return p;
    if (transform == 1) return p - at;
    return glm::inverse(q) * (p - at) / s;
  };
  const float scale = transform == 2 ? s : 1.0f;
  auto boxDist = [](Vec3 p, Vec3 b) {
    const Vec3 d = glm::abs(p) - b;
    return glm::length(glm::max(d, Vec3(0))) + std::min(std::max(d.x, std::max(d.y, d.z)), 0.0f);
  };
  Child c;
  if (shape == 0) {
    c.node = sphere(r);
    c.distance = [=](Vec3 p) { return (glm::length(local(p)) - r) * scale; };
  } else if (shape == 1) {
    c.node = box(half);
    c.distance = [=](Vec3 p) { return boxDist(local(p), half) * scale; };
  } else {
    c.node = roundBox(half + Vec3(0.05f), 0.05f);
    c.distance = [=](Vec3 p) { return (boxDist(local(p), half) - 0.05f) * scale; };
  }
  if (transform == 1) c.node = xform(at, Quat(1, 0, 0, 0), 1.0f, c.node);
  if (transform == 2) c.node = xform(at, q, s, c.node);
  return c;
}

/// Children in runs of one kind (1 to 6 long), so same-kind neighbours form groups of every size.
std::vector<Child> children(int count) {
  std::vector<Child> all;
  for (int round = 0; static_cast<int>(all.size()) < count; ++round)
    for (int kind = 0; kind < 9; ++kind)
      for (int m = 0; m < 1 + (kind * 5 + round) % 6 && static_cast<int>(all.size()) < count; ++m)
        all.push_back(makeChild(kind + 9 * static_cast<int>(all.size())));
  return all;
}

std::vector<Vec3> randomPoints(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2.5f, 2.5f);
  std::vector<Vec3> pts(static_cast<std::size_t>(n));
  for (Vec3& p : pts) p = {u(rng), u(rng), u(rng)};
  return pts;
}

void expectPathsAgree(const FieldProgram& prog, const std::vector<Vec3>& pts, double t) {
  std::vector<float> batch(pts.size());
  prog.distanceBatch(pts, t, batch);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const float one = prog.distance(pts[i], t);
    ASSERT_EQ(batch[i], one) << "point " << i << " t " << t;
    ASSERT_EQ(prog.sample(pts[i], t).distance, one) << "point " << i << " t " << t;
  }
}

TEST(FieldUnionGroups, SmoothUnionsOfManyChildrenEqualTheirDefinition) {
  const std::vector<Vec3> pts = randomPoints(400, 31);
  for (int count : {2, 3, 5, 9, 14, 33, 45}) {  // group tails, and runs past the 32-child step
    const std::vector<Child> ch = children(count);
    std::vector<FieldNode> nodes;
    for (const Child& c : ch) nodes.push_back(c.node);
    const float k = 0.2f;
    const FieldProgram prog = compileOrDie(smooth(NodeType::SmoothUnion, k, nodes));
    for (const Vec3& p : pts) {
      float expected = ch[0].distance(p);
      for (std::size_t j = 1; j < ch.size(); ++j)
        expected = sdf::smin(expected, ch[j].distance(p), k);
      ASSERT_NEAR(prog.distance(p, 0), expected, 2e-5f) << count << " children";
    }
    expectPathsAgree(prog, pts, 0.0);
  }
}

TEST(FieldUnionGroups, EveryBinaryOpAgreesPerPointBatchedAndSampledBitForBit) {
  const std::vector<Vec3> pts = randomPoints(1000, 32);  // not a multiple of the block width
  for (NodeType op :
       {NodeType::Union, NodeType::Intersection, NodeType::SmoothUnion,
        NodeType::SmoothIntersection, NodeType::Subtraction, NodeType::SmoothSubtraction}) {
    for (int count : {4, 11, 40}) {
      std::vector<FieldNode> nodes;
      for (const Child& c : children(count)) nodes.push_back(c.node);
      const bool hard =
          op == NodeType::Union || op == NodeType::Intersection || op == NodeType::Subtraction;
      const FieldNode u = hard ? csg(op, nodes) : smooth(op, 0.15f, nodes);
      expectPathsAgree(compileOrDie(u), pts, 0.0);
      // Animated: a translation and a radius follow t, so the packed constants must too.
      FieldNode a = u;
      for (FieldNode& c : a.children) {
        if (c.type != NodeType::Transform) continue;
        c.params[0].driver = AnimatedScalar::Driver::Sine;
        c.params[0].amplitude = 0.3f;
        c.params[0].frequency = 0.7f;
        break;
      }
      for (FieldNode& c : a.children) {
        if (c.type != NodeType::Sphere) continue;
        c.params[0].driver = AnimatedScalar::Driver::Sine;
        c.params[0].amplitude = 0.1f;
        c.params[0].frequency = 1.3f;
        break;
      }
      const FieldProgram animated = compileOrDie(a);
      ASSERT_TRUE(animated.animated());
      for (double t : {0.0, 0.37, 1.1}) expectPathsAgree(animated, pts, t);
    }
  }
}

TEST(FieldUnionGroups, AnimatedGroupMembersMoveWithTime) {
  // Two translated spheres, the second sliding along x: the packed copy must follow t.
  FieldNode moving = xform({2, 0, 0}, Quat(1, 0, 0, 0), 1, sphere(0.5f));
  moving.params[0].driver = AnimatedScalar::Driver::Keys;
  moving.params[0].keys = {{0.0, 2.0f}, {1.0, 4.0f}};
  const FieldProgram prog = compileOrDie(
      csg(NodeType::Union, {xform({-2, 0, 0}, Quat(1, 0, 0, 0), 1, sphere(0.5f)), moving}));
  EXPECT_NEAR(prog.distance({3, 0, 0}, 0.0), 0.5f, 1e-6f);
  EXPECT_NEAR(prog.distance({3, 0, 0}, 0.5), -0.5f, 1e-6f);
  EXPECT_NEAR(prog.distance({3, 0, 0}, 1.0), 0.5f, 1e-6f);
  EXPECT_NEAR(prog.distance({-2, 0, 0}, 1.0), -0.5f, 1e-6f);
}

}  // namespace
