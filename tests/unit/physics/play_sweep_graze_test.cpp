// The capsule sweep a walking character runs every step, grazing its floor: it must neither
// report the floor it slides along as a hit (a false stop makes walking sticky) nor miss a
// wall further along the motion.
#include <gtest/gtest.h>

#include "play_test_world.h"

namespace floptle::physics {
namespace {

using namespace testing;

constexpr float kR = 0.3f;
constexpr float kGap = 0.01f;  // (m) above the floor

SweepShape standingCapsule() {
  return SweepShape::capsule(Vec3(0.0f, kR + kGap, 0.0f), Vec3(0.0f, 1.5f, 0.0f), kR);
}

TEST(PlaySweepGraze, SlidingAlongTheFloorIsNoHit) {
  CollisionWorld world;
  world.add(plane(Vec3(0, 1, 0)), "floor");
  world.refit(0.0);
  auto hit = world.sweep(standingCapsule(), Vec3(2.0f, 0.0f, 0.0f), 0.0);
  ASSERT_TRUE(hit.ok());
  EXPECT_FALSE(hit.value().has_value()) << "false hit at toi " << hit.value()->toi;
}

TEST(PlaySweepGraze, AWallAlongTheWayIsFound) {
  CollisionWorld world;
  world.add(plane(Vec3(0, 1, 0)), "floor");
  world.add(box(Vec3(2.0f, 1.0f, 0.0f), Vec3(0.5f, 1.0f, 2.0f)), "wall");  // face at x = 1.5
  world.refit(0.0);
  auto hit = world.sweep(standingCapsule(), Vec3(2.0f, 0.0f, 0.0f), 0.0);
  ASSERT_TRUE(hit.ok());
  ASSERT_TRUE(hit.value().has_value());
  EXPECT_EQ(world.nodeName(*hit.value()), "wall");
  // The capsule's side meets the face after 1.5 - r = 1.2 m of the 2 m.
  EXPECT_NEAR(hit.value()->toi * 2.0f, 1.5f - kR, 2e-3f);
  EXPECT_NEAR(hit.value()->normal.x, -1.0f, 1e-3f);
}

}  // namespace
}  // namespace floptle::physics
