// A morph blended through the interaction matrix: physics collides with the composed field
// (the one the viewport and `floptle query` read), the morph's warp baked. A sine-morphed
// plane (the top of a wide slab) merged or carved with a sphere: the world's signed distance
// at sample points equals the closed form of the rule applied to the two closed forms,
//   sea(p, t)  = (y + A sin(k x + w t)) / L  (the displaced top face f_rest(p + d), divided
//                by the warp's Lipschitz bound L = 1 + |A| |k| as the composition's field is,
//                so that the viewport may sphere-trace it)
//   ball(p)    = |p - c| - r
//   merge k:  smin(sea, ball, k);  carve k:  min(smax(sea, -ball, k), ball)
// within half a bake cell at several t; a hit names the member nearer there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "floptle/core/scene/scene.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/composed_field_collider.h"
#include "floptle/physics/scene_collision.h"

namespace floptle::physics {
namespace {

using Json = nlohmann::ordered_json;

constexpr float kA = 0.25f, kWave = 1.5f, kW = 2.0f, kCell = 0.05f, kBlend = 0.4f;
const Vec3 kCentre(0.4f, 0.3f, 0.0f);
constexpr float kRadius = 0.5f;

/// The slab (top face y = 0 at rest) of material "water", morphed by one sine wave along x,
/// and a ball of material "rock"; (water, rock) by `rule` with k = kBlend.
Json blendScene(const std::string& rule) {
  Json doc = Json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "materials": [{"id": "water"}, {"id": "rock"}],
    "nodes": [{"name": "sea", "material": "water", "transform": {"position": [0, -0.5, 0]},
               "shape": {"type": "box", "half_extents": [3, 0.5, 3]},
               "matter": {"tier": "morph", "bake": {"cell": 0.05}, "displacement": [
                 {"type": "sine", "amplitude": [0, 0.25, 0], "wave": [1.5, 0, 0], "speed": 2,
                  "phase": 0}]}},
              {"name": "ball", "material": "rock", "transform": {"position": [0.4, 0.3, 0]},
               "shape": {"type": "sphere", "radius": 0.5}}]})");
  doc["interactions"] =
      Json::array({{{"a", "water"}, {"b", "rock"}, {"rule", rule}, {"k", kBlend}}});
  return doc;
}

float smin(float a, float b, float k) {
  const float h = std::max(k - std::abs(a - b), 0.0f) / k;
  return std::min(a, b) - h * h * k * 0.25f;
}

float smax(float a, float b, float k) {
  return -smin(-a, -b, k);
}

float sea(Vec3 p, double t) {
  return (p.y + kA * std::sin(kWave * p.x + kW * float(t))) / (1.0f + kA * kWave);
}

float ball(Vec3 p) {
  return glm::length(p - kCentre) - kRadius;
}

CollisionWorld worldOf(const Json& doc) {
  auto built = scene::buildScene(doc);
  EXPECT_TRUE(built.ok()) << built.error().message();
  auto world = buildCollisionWorld(built.value(), ".");
  EXPECT_TRUE(world.ok()) << world.error().message();
  return std::move(world.value());
}

/// Sample points around the blend (inside the slab only where its top face is the nearest
/// face, so `sea` is its field there). The bake holds the field within its narrow band of
/// 3 cells (baked_field_collider.h), where the answer must be the closed form within half a
/// cell; beyond the band only its side of the surface is asked for.
template <class Expect>
void forSamples(const CollisionWorld& world, Expect expected) {
  constexpr float kBand = 3.0f * kCell;
  int inBand = 0;
  for (double t : {0.0, 0.7, 1.9}) {
    for (float x = -1.4f; x <= 1.6f; x += 0.2f)
      for (float y = -0.2f; y <= 1.0f; y += 0.05f)
        for (float z : {0.0f, 0.35f}) {
          const Vec3 p(x, y, z);
          auto hit = world.closest(p, t);
          ASSERT_TRUE(hit.ok() && hit.value()) << x << " " << y << " " << z << " t " << t;
          const float want = expected(p, t);
          if (std::abs(want) <= kBand) {
            ++inBand;
            EXPECT_NEAR(hit.value()->distance, want, 0.5f * kCell)
                << "p (" << x << ", " << y << ", " << z << ") t " << t;
          } else {
            EXPECT_EQ(hit.value()->distance > 0.0f, want > 0.0f)
                << "p (" << x << ", " << y << ", " << z << ") t " << t;
          }
        }
  }
  EXPECT_GT(inBand, 500) << "the samples straddle the surface";
}

TEST(MorphBlendCollision, AMergedMorphCollidesWithTheSminOfTheClosedForms) {
  CollisionWorld world = worldOf(blendScene("merge"));
  ASSERT_EQ(world.size(), 1u) << "one collider: the blended field, not one per node";
  const auto& composed =
      dynamic_cast<const ComposedFieldCollider&>(world.shape(*world.ids().begin()));
  EXPECT_TRUE(composed.baked());
  EXPECT_TRUE(composed.changesWithTime());
  forSamples(world, [](Vec3 p, double t) { return smin(sea(p, t), ball(p), kBlend); });
  // On the seam, where the two fields are equal, smin lies k / 4 below both: the blend is
  // not the plain union. At x = 0.4, t = 0: (y + A sin(0.6)) / L = 0.3 - y - r at y = -0.175.
  const Vec3 seam(0.4f, -0.175f, 0.0f);
  ASSERT_NEAR(sea(seam, 0.0), ball(seam), 0.01f);
  EXPECT_LT(world.distance(seam, 0.0), std::min(sea(seam, 0.0), ball(seam)) - 0.08f);
}

TEST(MorphBlendCollision, ACarvingSphereBitesTheMorphAndKeepsItsShape) {
  CollisionWorld world = worldOf(blendScene("carve"));
  ASSERT_EQ(world.size(), 1u);
  forSamples(world,
             [](Vec3 p, double t) { return std::min(smax(sea(p, t), -ball(p), kBlend), ball(p)); });
}

TEST(MorphBlendCollision, AHitNamesTheMemberWhoseFieldIsNearer) {
  CollisionWorld world = worldOf(blendScene("merge"));
  world.refit(0.7);
  for (const auto& [p, name] :
       {std::pair{Vec3(-1.5f, 0.1f, 0.0f), "sea"}, std::pair{Vec3(0.4f, 1.0f, 0.0f), "ball"}}) {
    auto hit = world.closest(p, 0.7);
    ASSERT_TRUE(hit.ok() && hit.value());
    EXPECT_EQ(world.nodeName(*hit.value()), name);
  }
}

TEST(MorphBlendCollision, IgnoreLeavesTheMorphItsOwnBakeAndTheBallItsField) {
  CollisionWorld world = worldOf(blendScene("ignore"));
  EXPECT_EQ(world.size(), 2u);
  const Vec3 p(0.4f, -0.25f, 0.0f);
  EXPECT_NEAR(world.distance(p, 0.0), std::min(sea(p, 0.0), ball(p)), 0.5f * kCell);
}

TEST(MorphBlendCollision, ABadTermOfABlendedMorphIsRefusedNamingItsKey) {
  Json doc = blendScene("merge");
  doc["nodes"][0]["matter"]["displacement"][0]["wave"] = 3;
  // The scene reader refuses it; a scene built otherwise meets the collider's own check.
  auto refused = scene::buildScene(doc);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "/nodes/0/matter/displacement/0/wave");
  auto built = scene::buildScene(blendScene("merge"));
  ASSERT_TRUE(built.ok()) << built.error().message();
  built.value().nodes[0].components["matter"] = doc["nodes"][0]["matter"];
  auto world = buildCollisionWorld(built.value(), ".");
  ASSERT_FALSE(world.ok());
  EXPECT_EQ(world.error().where, "/nodes/0/matter/displacement/0/wave") << world.error().message();
}

}  // namespace
}  // namespace floptle::physics
