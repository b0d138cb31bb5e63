// Physics of the Morph tier: a node's displaced shape is collided through a bake of cell h
// (physics/morph_collider.h), never by sphere-tracing the warp. A sine-morphed plane (the top
// of a wide slab) collides at y = -A sin(k x + w t) within half a bake cell at several t, through
// the rolling brickmap re-bake near an active body and through the on-demand lattice alike.
#include <gtest/gtest.h>

#include <cmath>

#include "floptle/core/scene/scene.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/morph_collider.h"
#include "floptle/physics/scene_collision.h"

namespace floptle::physics {
namespace {

using Json = nlohmann::ordered_json;

constexpr float kA = 0.25f, kK = 1.5f, kW = 2.0f, kCell = 0.05f;

/// A 6 x 1 x 6 m slab whose top face is the plane y = 0, morphed by one sine wave along x.
Json morphedSlab() {
  Json doc = Json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "nodes": [{"name": "sea", "transform": {"position": [0, -0.5, 0]},
               "shape": {"type": "box", "half_extents": [3, 0.5, 3]},
               "matter": {"tier": "morph", "bake": {"cell": 0.05}, "displacement": [
                 {"type": "sine", "amplitude": [0, 0.25, 0], "wave": [1.5, 0, 0], "speed": 2,
                  "phase": 0}]}}]})");
  return doc;
}

CollisionWorld worldOf(const Json& doc) {
  auto scene = scene::buildScene(doc);
  EXPECT_TRUE(scene.ok()) << scene.error().message();
  auto world = buildCollisionWorld(scene.value(), ".");
  EXPECT_TRUE(world.ok()) << world.error().message();
  return std::move(world.value());
}

/// The displaced top face: the slab's node space is y + 0.5, so the surface (y' = 0.5 in node
/// space) sits at y = -A sin(k x + w t) in the world.
float surfaceY(float x, double t) {
  return -kA * std::sin(kK * x + kW * float(t));
}

float rayHitY(const CollisionWorld& world, float x, double t) {
  auto hit = world.raycast(Ray{Vec3(x, 1.0f, 0.3f), Vec3(0, -1, 0)}, 5.0f, t);
  EXPECT_TRUE(hit.ok() && hit.value()) << x << " " << t;
  return hit.ok() && hit.value() ? hit.value()->point.y : 1e9f;
}

TEST(MorphCollision, SinePlaneCollidesAtTheWaveWithinHalfACell) {
  CollisionWorld world = worldOf(morphedSlab());
  ASSERT_EQ(world.size(), 1u);
  for (double t : {0.0, 0.4, 1.3, 2.75}) {
    for (float x = -2.0f; x <= 2.0f; x += 0.3f) {
      EXPECT_NEAR(rayHitY(world, x, t), surfaceY(x, t), 0.5f * kCell) << "x " << x << " t " << t;
      auto closest = world.closest(Vec3(x, surfaceY(x, t), -0.4f), t);
      ASSERT_TRUE(closest.ok() && closest.value());
      EXPECT_NEAR(closest.value()->distance, 0.0f, 0.5f * kCell) << "x " << x << " t " << t;
    }
  }
}

TEST(MorphCollision, TheRollingRebakeFollowsTheActiveBodyAndStaleBricksAreNotRead) {
  CollisionWorld world = worldOf(morphedSlab());
  auto& morph = dynamic_cast<MorphCollider&>(world.shape(*world.ids().begin()));
  EXPECT_TRUE(morph.updatesEachStep());
  const Vec3 body(0.7f, 0.2f, 0.0f);
  for (double t : {0.1, 0.2, 0.3}) {
    morph.updateForStep(std::span<const Vec3>(&body, 1), t);
    EXPECT_EQ(morph.bakedAt(), t);
    // Under the body the brickmap itself was re-sampled at t, and holds the wave there.
    const Vec3 onSurface(0.7f, surfaceY(0.7f, t), 0.0f);
    EXPECT_TRUE(morph.baked().brickMap().sampledInLastRound(onSurface));
    EXPECT_NEAR(morph.baked().distance(onSurface, t), 0.0f, 0.5f * kCell);
    EXPECT_NEAR(morph.distance(onSurface, t), morph.latticeDistance(onSurface, t, nullptr),
                2e-3f);  // the bricks' 16-bit quantization
  }
  // Far from the body the bricks still hold t = 0, yet a query at t answers the wave at t.
  const Vec3 far(-2.6f, surfaceY(-2.6f, 0.3), 2.5f);
  EXPECT_FALSE(morph.baked().brickMap().sampledInLastRound(far));
  EXPECT_NEAR(morph.distance(far, 0.3), 0.0f, 0.5f * kCell);
  EXPECT_GT(std::abs(morph.baked().distance(far, 0.3)), 0.5f * kCell);  // the stale bake
}

TEST(MorphCollision, AnUnboundedMorphIsRefusedAtItsNode) {
  Json doc = morphedSlab();
  doc["nodes"][0]["shape"] = Json{{"type", "plane"}};
  auto scene = scene::buildScene(doc);
  ASSERT_TRUE(scene.ok()) << scene.error().message();
  auto world = buildCollisionWorld(scene.value(), ".");
  ASSERT_FALSE(world.ok());
  EXPECT_EQ(world.error().where.rfind("/nodes/0/matter", 0), 0u) << world.error().message();
}

TEST(MorphCollision, ABadTermIsRefusedNamingItsKey) {
  Json doc = morphedSlab();
  doc["nodes"][0]["matter"]["displacement"][0]["wave"] = 3;
  // The scene reader refuses it; a scene built otherwise meets the collider's own check.
  auto refused = scene::buildScene(doc);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "/nodes/0/matter/displacement/0/wave");
  auto scene = scene::buildScene(morphedSlab());
  ASSERT_TRUE(scene.ok()) << scene.error().message();
  scene.value().nodes[0].components["matter"] = doc["nodes"][0]["matter"];
  auto world = buildCollisionWorld(scene.value(), ".");
  ASSERT_FALSE(world.ok());
  EXPECT_EQ(world.error().where, "/nodes/0/matter/displacement/0/wave") << world.error().message();
}

}  // namespace
}  // namespace floptle::physics
