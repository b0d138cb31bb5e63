// CollisionWorld bookkeeping: BVH refit against brute force, determinism, node names, lazy
// materials, surface velocity from dF/dt, capsule sweeps, and building from a scene.
#include <random>

#include <nlohmann/json.hpp>

#include "broadphase_check.h"
#include "collision_fixtures.h"
#include "floptle/core/scene/scene.h"
#include "floptle/physics/scene_collision.h"

namespace floptle::physics::testing {
namespace {

/// A random world of spheres, boxes and capsules in a 40 m cube, plus a floor plane.
CollisionWorld randomWorld(std::mt19937& rng, int count) {
  CollisionWorld world;
  world.add(placed(planeNode(Vec3(0, 1, 0), -20.0f), pose(Vec3(0))), "floor");
  for (int i = 0; i < count; ++i) world.add(randomCollider(rng, i), "n" + std::to_string(i));
  return world;
}

TEST(CollisionWorldBvh, QueriesMatchBruteForceBeforeAndAfterRefit) {
  std::mt19937 rng(21);
  CollisionWorld world = randomWorld(rng, 150);
  EXPECT_GT(expectBroadphaseMatchesBruteForce(world, 100, 0.0), 300);  // not all misses
  // Move every collider (kinematic bodies), refit, and compare again: the refit tree with its
  // old topology must still find everything.
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  for (ColliderId id : world.ids()) {
    if (id.index == 0) continue;  // the floor
    auto& shape = dynamic_cast<FieldCollider&>(world.shape(id));
    Transform moved = shape.worldTransform();
    moved.position = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 40.0f;
    shape.setWorldTransform(moved);
  }
  world.refit(0.0);
  for (ColliderId id : world.ids()) {
    const Aabb now = world.shape(id).aabb(0.0);
    EXPECT_EQ(world.colliderAabb(id).min, now.min);
    EXPECT_EQ(world.colliderAabb(id).max, now.max);
  }
  EXPECT_GT(expectBroadphaseMatchesBruteForce(world, 101, 0.0), 300);
}

TEST(CollisionWorldBvh, IdenticalWorldsGiveBitIdenticalAnswers) {
  std::mt19937 rngA(31), rngB(31);
  CollisionWorld a = randomWorld(rngA, 80), b = randomWorld(rngB, 80);
  std::mt19937 rng(32);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  for (int i = 0; i < 300; ++i) {
    const Vec3 p = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 44.0f, d = randomUnit(rng);
    EXPECT_TRUE(sameHit(a.raycast(Ray{p, d}, 80.0f, 0.0).value(),
                        b.raycast(Ray{p, d}, 80.0f, 0.0).value()));
    EXPECT_TRUE(sameHit(a.closest(p, 0.0).value(), b.closest(p, 0.0).value()));
  }
}

TEST(CollisionWorld, TiesGoToTheLowerColliderWhateverTheOrderOfTraversal) {
  CollisionWorld world;
  world.add(placed(sphereNode(1.0f), pose(Vec3(0))), "first");
  world.add(placed(sphereNode(1.0f), pose(Vec3(0))), "second");
  for (bool broad : {true, false}) {
    world.setUseBroadphase(broad);
    EXPECT_EQ(world.nodeName(*world.raycast(Ray{Vec3(0, 0, 5), Vec3(0, 0, -1)}, 9, 0).value()),
              "first");
    EXPECT_EQ(world.nodeName(*world.closest(Vec3(0, 3, 0), 0).value()), "first");
    EXPECT_EQ(world.nodeName(*world.sphereOverlap(Vec3(0, 1, 0), 0.5f, 0).value()), "first");
  }
}

TEST(CollisionWorld, EveryHitNamesItsNodeAndNonCollidableNodesAreSkipped) {
  CollisionWorld world;
  const ColliderId ghost = world.add(placed(boxNode(Vec3(1)), pose(Vec3(0, 0, 2))), "ghost");
  world.add(placed(sphereNode(0.5f), pose(Vec3(0, 0, -2))), "ball", BodyKind::Dynamic);
  world.setCollidable(ghost, false);
  const Ray ray{Vec3(0, 0, 10), Vec3(0, 0, -1)};
  auto hit = world.raycast(ray, 20.0f, 0.0);
  ASSERT_TRUE(hit.value());
  EXPECT_EQ(world.nodeName(*hit.value()), "ball");
  EXPECT_NEAR(hit.value()->distance, 11.5f, 1e-5f);
  EXPECT_EQ(world.body(hit.value()->collider), BodyKind::Dynamic);
  EXPECT_EQ(world.nodeName(*world.spherecast(ray.origin, ray.direction, 0.1f, 20, 0).value()),
            "ball");
  EXPECT_EQ(world.nodeName(*world.closest(Vec3(0, 0, 2), 0).value()), "ball");
  world.setCollidable(ghost, true);
  EXPECT_EQ(world.nodeName(*world.raycast(ray, 20.0f, 0.0).value()), "ghost");
  EXPECT_EQ(world.find("ball"), std::optional<ColliderId>(ColliderId{1, 1}));
}

/// A floor (y = 0) whose faces carry two labels: x < 0 is "grass", x >= 0 is "brick".
/// Counts faceLabel calls to prove that queries never pay for them.
class LabelledFloor final : public CollisionShape {
 public:
  float distance(Vec3 p, double) const override { return p.y; }
  Vec3 normal(Vec3, double) const override { return Vec3(0, 1, 0); }
  Aabb aabb(double) const override { return {Vec3(-10, -1, -10), Vec3(10, 0, 10)}; }
  std::optional<std::uint16_t> faceLabel(Vec3 p) const override {
    ++labelCalls;
    return p.x < 0 ? 0 : 1;
  }
  std::string labelName(std::uint16_t label) const override {
    return label == 0 ? "grass" : "brick";
  }
  mutable int labelCalls = 0;
};

TEST(CollisionWorld, MaterialIsTheFaceLabelResolvedOnlyWhenRead) {
  CollisionWorld world;
  auto floor = std::make_unique<LabelledFloor>();
  const LabelledFloor* f = floor.get();
  world.add(std::move(floor), "map");
  world.add(placed(sphereNode(0.5f), pose(Vec3(0, 3, 0))), "ball");
  auto left = world.raycast(Ray{Vec3(-2, 1, 0), Vec3(0, -1, 0)}, 5.0f, 0.0);
  auto right = world.spherecast(Vec3(2, 1, 0), Vec3(0, -1, 0), 0.2f, 5.0f, 0.0);
  auto near = world.closest(Vec3(1, 0.5f, 0), 0.0);
  ASSERT_TRUE(left.value() && right.value() && near.value());
  EXPECT_EQ(f->labelCalls, 0);  // nothing on the query path asked
  EXPECT_EQ(world.material(*left.value()), std::optional<std::string>("grass"));
  EXPECT_EQ(world.material(*right.value()), std::optional<std::string>("brick"));
  EXPECT_EQ(f->labelCalls, 2);
  // One surface: no name, deliberately.
  auto ball = world.raycast(Ray{Vec3(0, 10, 0), Vec3(0, -1, 0)}, 20.0f, 0.0);
  ASSERT_TRUE(ball.value());
  EXPECT_EQ(world.nodeName(*ball.value()), "ball");
  EXPECT_FALSE(world.material(*ball.value()).has_value());
}

TEST(CollisionWorld, SurfaceVelocityOfAMorphingSphereIsDRadiusDt) {
  // radius(t) = 1 + 0.5 sin(2 pi 0.25 t): dR/dt = 0.25 pi cos(0.5 pi t) (m/s).
  FieldNode node = sphereNode(1.0f);
  node.params[0].driver = field::AnimatedScalar::Driver::Sine;
  node.params[0].base = 1.0f;
  node.params[0].amplitude = 0.5f;
  node.params[0].frequency = 0.25f;
  CollisionWorld world;
  world.add(placed(node, pose(Vec3(0))), "blob");
  for (double t : {0.0, 0.5, 1.0, 2.0, 3.0}) {
    world.refit(t);
    const double radius = 1.0 + 0.5 * std::sin(0.5 * M_PI * t);
    const double dRdt = 0.25 * M_PI * std::cos(0.5 * M_PI * t);
    auto hit = world.raycast(Ray{Vec3(5, 0, 0), Vec3(-1, 0, 0)}, 10.0f, t);
    ASSERT_TRUE(hit.value());
    EXPECT_NEAR(hit.value()->distance, 5.0 - radius, 1e-4) << "t = " << t;
    const Vec3 v = world.surfaceVelocity(*hit.value(), t, 1e-4);
    EXPECT_NEAR(v.x, dRdt, 2e-3) << "t = " << t;  // the surface moves along +x with R
    EXPECT_NEAR(v.y, 0.0f, 1e-6f);
  }
}

TEST(Sweep, CapsuleSweepsMatchClosedForms) {
  CollisionWorld world;
  world.add(placed(planeNode(Vec3(0, 1, 0), 0.0f), pose(Vec3(0))), "floor");
  world.add(placed(sphereNode(0.5f), pose(Vec3(0, 2, 0))), "ball");
  // A lying capsule dropped onto the floor: contact when the axis is 0.2 m up.
  auto drop = world.sweep(SweepShape::capsule(Vec3(3, 1, -0.5f), Vec3(3, 1, 0.5f), 0.2f),
                          Vec3(0, -2, 0), 0.0);
  ASSERT_TRUE(drop.ok() && drop.value());
  EXPECT_NEAR(drop.value()->toi, 0.4f, 1e-5f);
  EXPECT_NEAR(drop.value()->distance, 0.8f, 1e-5f);
  EXPECT_EQ(world.nodeName(*drop.value()), "floor");
  EXPECT_GT(glm::dot(drop.value()->normal, Vec3(0, 1, 0)), 0.9999f);
  // A standing capsule swept at the ball: its middle (not an end) touches first, when the
  // axis passes 0.75 m from the ball's centre.
  auto side =
      world.sweep(SweepShape::capsule(Vec3(0, 1, -3), Vec3(0, 3, -3), 0.25f), Vec3(0, 0, 6), 0.0);
  ASSERT_TRUE(side.ok() && side.value());
  EXPECT_NEAR(side.value()->toi, (3.0 - 0.75) / 6.0, 1e-5);
  EXPECT_EQ(world.nodeName(*side.value()), "ball");
  EXPECT_NEAR(side.value()->point.y, 2.0f, 1e-3f);
  // A sweep that clears everything, and one that starts overlapping.
  EXPECT_FALSE(
      world.sweep(SweepShape::capsule(Vec3(5, 1, 0), Vec3(5, 2, 0), 0.2f), Vec3(0, 0, 3), 0.0)
          .value());
  auto stuck =
      world.sweep(SweepShape::capsule(Vec3(5, 0.1f, 0), Vec3(5, 2, 0), 0.2f), Vec3(1, 0, 0), 0.0);
  ASSERT_TRUE(stuck.ok() && stuck.value());
  EXPECT_TRUE(stuck.value()->inside);
  EXPECT_EQ(stuck.value()->toi, 0.0f);
}

TEST(SceneCollision, BuildsOneColliderPerShapedCollidableNode) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(R"({
    "format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
    "nodes": [
      {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0}},
      {"name": "holder", "transform": {"position": [10, 0, 0]}, "children": [
        {"name": "ball", "transform": {"position": [0, 2, 0], "scale": 2},
         "shape": {"type": "sphere", "radius": 0.5},
         "collider": {"body": "dynamic"}}]},
      {"name": "ghost", "shape": {"type": "sphere", "radius": 3},
       "collider": {"collidable": false}}
    ]})");
  auto scene = scene::buildScene(doc);
  ASSERT_TRUE(scene.ok()) << scene.error().message();
  auto world = buildCollisionWorld(scene.value(), ".");
  ASSERT_TRUE(world.ok()) << world.error().message();
  ASSERT_EQ(world->size(), 2u);
  const std::vector<ColliderId> ids(world->ids().begin(), world->ids().end());
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(world->nodeName(ids[0]), "ground");
  EXPECT_EQ(world->nodeName(ids[1]), "ball");
  EXPECT_EQ(world->body(ids[1]), BodyKind::Dynamic);
  // The ball: radius 0.5 scaled by 2, at (10, 2, 0) in the world.
  auto hit = world->raycast(Ray{Vec3(10, 10, 0), Vec3(0, -1, 0)}, 20.0f, 0.0);
  ASSERT_TRUE(hit.value());
  EXPECT_EQ(world->nodeName(*hit.value()), "ball");
  EXPECT_NEAR(hit.value()->distance, 7.0f, 1e-4f);
  // The ghost's sphere at the origin is not there: straight down to the ground.
  hit = world->raycast(Ray{Vec3(0, 10, 0), Vec3(0, -1, 0)}, 20.0f, 0.0);
  ASSERT_TRUE(hit.value());
  EXPECT_EQ(world->nodeName(*hit.value()), "ground");
  EXPECT_NEAR(hit.value()->distance, 10.0f, 1e-4f);
}

}  // namespace
}  // namespace floptle::physics::testing
