// core math against closed forms.
#include "floptle/core/math.h"

#include <gtest/gtest.h>

#include <glm/gtc/constants.hpp>

namespace floptle {
namespace {

void expectNear(Vec3 a, Vec3 b, float eps = 1e-5f) {
  EXPECT_NEAR(a.x, b.x, eps);
  EXPECT_NEAR(a.y, b.y, eps);
  EXPECT_NEAR(a.z, b.z, eps);
}

TEST(Transform, AppliesScaleThenRotationThenTranslation) {
  Transform t{{1, 2, 3}, glm::angleAxis(glm::half_pi<float>(), Vec3(0, 1, 0)), 2.0f};
  // (1,0,0) scaled to (2,0,0), rotated 90 deg about +Y to (0,0,-2), translated.
  expectNear(t.applyToPoint({1, 0, 0}), {1, 2, 1});
  expectNear(t.applyToDirection({1, 0, 0}), {0, 0, -2});
  expectNear(t.applyToNormal({1, 0, 0}), {0, 0, -1});
}

TEST(Transform, InverseUndoesApply) {
  Transform t{{-4, 0.5f, 9}, glm::normalize(Quat(0.3f, 0.1f, -0.7f, 0.2f)), 0.25f};
  Vec3 p{3, -2, 7};
  expectNear(t.inverseApplyToPoint(t.applyToPoint(p)), p, 1e-4f);
  expectNear(t.inverse().applyToPoint(t.applyToPoint(p)), p, 1e-4f);
}

TEST(Transform, ComposeEqualsApplyingInSequence) {
  Transform parent{{1, 0, 0}, glm::angleAxis(0.4f, glm::normalize(Vec3(1, 2, 3))), 3.0f};
  Transform child{{0, 2, -1}, glm::angleAxis(-1.1f, Vec3(0, 0, 1)), 0.5f};
  Vec3 p{0.3f, -0.2f, 1.5f};
  expectNear(parent.compose(child).applyToPoint(p), parent.applyToPoint(child.applyToPoint(p)),
             1e-4f);
}

TEST(Transform, AabbOfRotatedUnitBoxIsItsCornersHull) {
  Transform t{{0, 0, 0}, glm::angleAxis(glm::quarter_pi<float>(), Vec3(0, 1, 0)), 1.0f};
  Aabb box = t.applyToAabb(Aabb::fromCenterHalf(Vec3(0), Vec3(1)));
  float r = std::sqrt(2.0f);
  expectNear(box.max, {r, 1, r});
  expectNear(box.min, {-r, -1, -r});
}

TEST(Segment, ClosestPointClampsToTheEnds) {
  Vec3 a{0, 0, 0}, b{2, 0, 0};
  expectNear(closestPointOnSegment({1, 5, 0}, a, b), {1, 0, 0});
  expectNear(closestPointOnSegment({-3, 1, 0}, a, b), a);
  expectNear(closestPointOnSegment({9, -1, 2}, a, b), b);
  expectNear(closestPointOnSegment({1, 1, 1}, a, a), a);  // degenerate segment
}

TEST(Aabb, RaySlabTest) {
  Aabb box{{-1, -1, -1}, {1, 1, 1}};
  float t0, t1;
  ASSERT_TRUE(intersectRayAabb({{-5, 0, 0}, {1, 0, 0}}, box, 100.0f, t0, t1));
  EXPECT_FLOAT_EQ(t0, 4.0f);
  EXPECT_FLOAT_EQ(t1, 6.0f);
  EXPECT_FALSE(intersectRayAabb({{-5, 2, 0}, {1, 0, 0}}, box, 100.0f, t0, t1));
  EXPECT_FALSE(intersectRayAabb({{-5, 0, 0}, {1, 0, 0}}, box, 3.0f, t0, t1));
  EXPECT_NEAR(box.distance({4, 0, 5}), 5.0f, 1e-6f);
  EXPECT_EQ(box.distance({0.5f, 0, 0}), 0.0f);
}

TEST(Euler, RoundTripsThroughQuaternion) {
  Vec3 e{0.3f, -0.8f, 1.2f};
  expectNear(eulerXYZFromQuat(quatFromEulerXYZ(e)), e, 1e-4f);
  // X first: rotating +Y by 90 deg about X gives +Z.
  expectNear(quatFromEulerXYZ({glm::half_pi<float>(), 0, 0}) * Vec3(0, 1, 0), {0, 0, 1});
}

}  // namespace
}  // namespace floptle
