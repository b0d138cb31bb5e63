// The gravity field's tiers 0 and 1 against their closed forms, composition as the sum, and
// the scene's two forms of "gravity".
#include <gtest/gtest.h>

#include <cmath>

#include "../vec_expect.h"
#include "floptle/core/scene/scene.h"
#include "floptle/gravity/gravity_field.h"

namespace floptle::gravity {
namespace {

using Json = nlohmann::ordered_json;
using scene::GravitySource;
constexpr float kPi = 3.14159265358979f;

using floptle::test::expectNear;

scene::GravityFieldDesc parsed(const char* text) {
  auto desc = scene::readGravityField(Json::parse(text), "/settings/gravity");
  EXPECT_TRUE(desc) << (desc ? "" : desc.error().message());
  return desc ? desc.value() : scene::GravityFieldDesc{};
}

TEST(GravityField, ThePointSourceIsNewtonsLaw) {
  const GravityField field(
      parsed(R"({"G": 2, "sources": [{"type": "point", "center": [1, 2, 3], "mass": 50}]})"));
  for (Vec3 p : {Vec3(4, 2, 3), Vec3(1, -8, 3), Vec3(3, 4, 5)}) {
    const Vec3 d = p - Vec3(1, 2, 3);
    const float r = glm::length(d);
    expectNear(field.sample(p, 0.0), -2.0f * 50.0f * d / (r * r * r), 1e-6f);
  }
  expectNear(field.sample(Vec3(1, 2, 3), 0.0), Vec3(0.0f),
             0.0f);  // the singular point pulls nothing
}

TEST(GravityField, TheBallIsLinearInsideAndCutOffPastItsOuterRadius) {
  const GravityField field(parsed(
      R"({"sources": [{"type": "sphere", "center": [0, 0, 0], "mass": 1000, "radius": 10, "r_outer": 50}]})"));
  // Outside: G M / r^2 towards the centre; inside: G M r / R^3 (shell theorem); past r_outer: 0.
  expectNear(field.sample(Vec3(20, 0, 0), 0.0), Vec3(-1000.0f / 400.0f, 0, 0), 1e-6f);
  expectNear(field.sample(Vec3(0, 5, 0), 0.0), Vec3(0, -1000.0f * 5.0f / 1000.0f, 0), 1e-6f);
  expectNear(field.sample(Vec3(0, 0, 10), 0.0), Vec3(0, 0, -10.0f), 1e-5f);  // continuous at R
  expectNear(field.sample(Vec3(0, 0, 50), 0.0), Vec3(0.0f), 0.0f);
}

TEST(GravityField, TheRodPullsTowardsItsNearestPointAsTwoGLambdaOverR) {
  const GravityField field(parsed(
      R"({"G": 0.5, "sources": [{"type": "line", "a": [0, 0, 0], "b": [0, 10, 0], "lambda": 8}]})"));
  // Beside the rod: towards the axis, 2 G lambda / r.
  expectNear(field.sample(Vec3(2, 5, 0), 0.0), Vec3(-2.0f * 0.5f * 8.0f / 2.0f, 0, 0), 1e-6f);
  // Past its end: towards the end point.
  const Vec3 d = Vec3(0, 13, 4) - Vec3(0, 10, 0);
  expectNear(field.sample(Vec3(0, 13, 4), 0.0), -2.0f * 0.5f * 8.0f * d / glm::dot(d, d), 1e-6f);
}

TEST(GravityField, ThePlanetPullsWithConstantStrengthInsideItsOuterRadius) {
  const GravityField field(parsed(
      R"({"sources": [{"type": "planet", "center": [0, -20, 0], "strength": 9.81, "r_outer": 60}]})"));
  expectNear(field.sample(Vec3(0, 0, 0), 0.0), Vec3(0, -9.81f, 0), 1e-5f);
  expectNear(field.sample(Vec3(30, -20, 0), 0.0), Vec3(-9.81f, 0, 0), 1e-5f);
  expectNear(field.sample(Vec3(0, 40, 0), 0.0), Vec3(0.0f), 0.0f);
}

TEST(GravityField, RegionsApplyInsideAndNothingOutside) {
  // A box turned 90 degrees about Z (half extents 1 x 4 x 1 become 4 x 1 x 1 in the world),
  // pulling up; a sphere pushing out.
  const float s = std::sqrt(0.5f);
  Json text = Json::parse(R"({"regions": [
      {"shape": "box", "center": [0, 0, 0], "half_extents": [1, 4, 1], "direction": [0, 2, 0], "strength": 5},
      {"shape": "sphere", "center": [10, 0, 0], "radius": 3, "radial": "out", "strength": 2}]})");
  text["regions"][0]["rotation"] = {0.0f, 0.0f, s, s};
  auto desc = scene::readGravityField(text, "/settings/gravity");
  ASSERT_TRUE(desc) << desc.error().message();
  const GravityField field(desc.value());
  expectNear(field.sample(Vec3(3.5f, 0, 0), 0.0), Vec3(0, 5, 0), 1e-6f);  // inside the turned box
  expectNear(field.sample(Vec3(0, 3.5f, 0), 0.0), Vec3(0.0f), 0.0f);      // outside it
  expectNear(field.sample(Vec3(12, 0, 0), 0.0), Vec3(2, 0, 0), 1e-6f);
  expectNear(field.sample(Vec3(14, 0, 0), 0.0), Vec3(0.0f), 0.0f);
}

TEST(GravityField, TheFieldIsTheSumOfItsTerms) {
  const GravityField field(parsed(R"({"G": 3, "global": [0, -1, 0],
      "regions": [{"shape": "sphere", "center": [0, 0, 0], "radius": 100, "strength": 1}],
      "sources": [{"type": "point", "center": [5, 0, 0], "mass": 10},
                  {"type": "planet", "center": [0, 0, 5], "strength": 2, "r_outer": 100}]})"));
  const scene::GravityFieldDesc& d = field.desc();
  for (Vec3 p : {Vec3(1, 2, 3), Vec3(-7, 4, 0.5f), Vec3(20, -3, 9)}) {
    Vec3 sum = *d.global + GravityField::sphereRegion(d.spheres[0], p);
    for (const GravitySource& s : d.sources) sum += GravityField::source(s, d.G, p);
    EXPECT_EQ(field.sample(p, 0.0), sum);
  }
}

TEST(GravityField, TheVectorFormIsTheGlobalTierAndBadInputNamesWhere) {
  const scene::GravityFieldDesc vector = parsed("[0, -3, 0]");
  ASSERT_TRUE(vector.global);
  EXPECT_EQ(*vector.global, Vec3(0, -3, 0));
  auto bad = scene::readGravityField(Json::parse(R"({"sources": [{"type": "point", "mass": -1}]})"),
                                     "/settings/gravity");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().where, "/settings/gravity/sources/0/mass");
}

}  // namespace
}  // namespace floptle::gravity

#include "floptle/core/field/node_spec.h"
#include "floptle/gravity/surface_bake.h"
#include "floptle/physics/field_collider.h"

namespace floptle::gravity {
namespace {

/// Adds a field collider of `type`, its 3-vector parameter `key` set to `value`, at `at`.
void addField(physics::CollisionWorld& world, field::NodeType type, const char* key, Vec3 value,
              Vec3 at, const char* name) {
  field::FieldNode node = field::makeDefaultNode(type);
  const int slot = field::paramSlotOffset(node.type, key);
  for (int i = 0; i < 3; ++i) node.params[std::size_t(slot + i)] = value[i];
  Transform placed;
  placed.position = at;
  auto collider = physics::FieldCollider::make(node, placed);
  ASSERT_TRUE(collider.ok());
  world.add(std::make_unique<physics::FieldCollider>(std::move(collider.value())), name);
  world.refit(0.0);
}

/// A world of one floor: the plane y = 0, normal `n`.
physics::CollisionWorld floorWorld(Vec3 n) {
  physics::CollisionWorld world;
  addField(world, field::NodeType::Plane, "normal", n, Vec3(0.0f), "floor");
  return world;
}

TEST(GravityField, SurfaceGravityAboveAFlatFloorIsTheLinearFalloffAlongItsNormal) {
  // -strength (1 - d / R) along the floor's normal, for d < R; nothing past R.
  const Vec3 n = glm::normalize(Vec3(1, 2, 0.5f));
  physics::CollisionWorld world = floorWorld(n);
  GravityField field(
      parsed(R"({"sdf": {"strength": 8, "range": 4, "smoothing": {"epsilon": 0.1}}})"));
  field.setSurface(&world);
  const Vec3 across = glm::normalize(glm::cross(n, Vec3(0, 0, 1)));
  for (float d : {0.0f, 0.5f, 1.0f, 2.5f, 3.9f})
    expectNear(field.sample(n * d + across * 3.0f, 0.0), -8.0f * (1.0f - d / 4.0f) * n, 1e-4f);
  expectNear(field.sample(n * 4.01f, 0.0), Vec3(0.0f), 0.0f);
  expectNear(field.sample(n * 10.0f, 0.0), Vec3(0.0f), 0.0f);
  // Without a surface the tier is silent; with a global term it adds on.
  GravityField alone(parsed(R"({"sdf": {"strength": 8, "range": 4}})"));
  expectNear(alone.sample(n, 0.0), Vec3(0.0f), 0.0f);
  GravityField both(parsed(R"({"global": [0, -1, 0], "sdf": {"strength": 8, "range": 4}})"));
  both.setSurface(&world);
  expectNear(both.sample(n * 2.0f, 0.0), Vec3(0, -1, 0) - 4.0f * n, 1e-4f);
}

TEST(GravityField, SurfaceGravityRefusesWhatItCannotRunByName) {
  auto baked = scene::readGravityField(
      Json::parse(
          R"({"sdf": {"strength": 9.81, "range": 4, "smoothing": {"baked": {"cell": 0}}}})"),
      "/settings/gravity");
  ASSERT_FALSE(baked);
  EXPECT_EQ(baked.error().where, "/settings/gravity/sdf/smoothing/baked/cell");
  auto both = scene::readGravityField(Json::parse(R"({"sdf": {"strength": 9.81, "range": 4,
                              "smoothing": {"baked": {"cell": 0.5}, "epsilon": 0.1}}})"),
                                      "/settings/gravity");
  ASSERT_FALSE(both);
  EXPECT_EQ(both.error().where, "/settings/gravity/sdf/smoothing");
  auto range = scene::readGravityField(Json::parse(R"({"sdf": {"strength": 9.81, "range": 0}})"),
                                       "/settings/gravity");
  ASSERT_FALSE(range);
  EXPECT_EQ(range.error().where, "/settings/gravity/sdf/range");
}

/// A world of one bounded floor: a box 24 m square, its top face y = 0.
physics::CollisionWorld boxFloorWorld() {
  physics::CollisionWorld world;
  addField(world, field::NodeType::Box, "half_extents", Vec3(12, 1, 12), Vec3(0, -1, 0), "floor");
  return world;
}

TEST(GravityField, TheBakedAndBlurredFloorPullsAsTheLiveOne) {
  // A blur of a plane is the same plane: over the floor's middle the baked pull is the closed
  // form -strength (1 - d / R) along +Y, and nothing past R.
  physics::CollisionWorld world = boxFloorWorld();
  for (float blur : {0.0f, 2.0f}) {
    scene::GravityFieldDesc desc = parsed(R"({"sdf": {"strength": 8, "range": 4,
        "smoothing": {"baked": {"cell": 0.5, "blur": 0}}}})");
    desc.sdf->blur = blur;
    GravityField field(desc);
    field.setSurface(&world);
    auto baked = bakeSurfaceGravity(world, *desc.sdf, 0.0);
    ASSERT_TRUE(baked) << baked.error().message();
    ASSERT_NE(baked.value(), nullptr);
    field.setBakedSurface(baked.value());
    for (float d : {0.1f, 0.5f, 1.0f, 2.5f, 3.9f})
      for (Vec3 at : {Vec3(0.0f), Vec3(3.3f, 0, -7.1f), Vec3(-5.6f, 0, 5.05f)})
        expectNear(field.sample(at + Vec3(0, d, 0), 0.0), Vec3(0, -8.0f * (1.0f - d / 4.0f), 0),
                   2e-3f);
    expectNear(field.sample(Vec3(1, 4.1f, 2), 0.0), Vec3(0.0f), 0.0f);
    expectNear(field.sample(Vec3(1, 9.0f, 2), 0.0), Vec3(0.0f), 0.0f);
  }
}

TEST(GravityField, TheBlurRoundsTheInnerCornersPull) {
  // Where a floor meets a wall, the raw distance's gradient flips from one face's normal to
  // the other's on the corner's bisector; the blurred field turns through the diagonal.
  physics::CollisionWorld world = boxFloorWorld();
  addField(world, field::NodeType::Box, "half_extents", Vec3(1, 5, 12), Vec3(9, 5, 0),
           "wall");  // its face x = 8
  scene::GravityFieldDesc desc = parsed(R"({"sdf": {"strength": 8, "range": 4,
      "smoothing": {"baked": {"cell": 0.25, "blur": 1}}}})");
  GravityField field(desc);
  auto baked = bakeSurfaceGravity(world, *desc.sdf, 0.0);
  ASSERT_TRUE(baked) << baked.error().message();
  field.setBakedSurface(baked.value());
  // Across the bisector, from 0.1 m off the floor (0.9 m from the wall) to the mirror point,
  // the pull turns from down (-Y) to into the wall (+X) one way, by small steps, through the
  // diagonal on the bisector (the grid's cells, 0.25 m, bound how exactly).
  float last = -1.0f;
  for (int i = 0; i <= 32; ++i) {
    const float s = -0.4f + 0.8f * float(i) / 32.0f;  // > 0: nearer the wall
    const Vec3 g = field.sample(Vec3(8.0f - 0.5f + s, 0.5f + s, 0), 0.0);
    ASSERT_GT(glm::length(g), 0.0f);
    const float angle = std::atan2(g.x, -g.y);  // 0 = down, pi/2 = into the wall
    EXPECT_NEAR(g.z, 0.0f, 1e-4f);
    if (i > 0) {
      EXPECT_GE(angle, last - 1e-3f) << "s = " << s;
      EXPECT_LT(angle - last, 0.12f) << "s = " << s;
    }
    if (i == 16) {
      EXPECT_NEAR(angle, 0.25f * kPi, 0.15f);
    }
    // A blur of 0.25 m rounds the corner about that far: a quarter metre off the bisector the pull
    // is still turned from either face's normal (the unblurred grid's is not).
    if (i == 6) {
      EXPECT_GT(angle, 0.1f);
    }
    if (i == 26) {
      EXPECT_LT(angle, 0.5f * kPi - 0.1f);
    }
    last = angle;
  }
  const Vec3 nearFloor = glm::normalize(field.sample(Vec3(7.1f, 0.1f, 0), 0.0));
  const Vec3 nearWall = glm::normalize(field.sample(Vec3(7.9f, 0.9f, 0), 0.0));
  expectNear(nearFloor, Vec3(0, -1, 0), 0.1f);
  expectNear(nearWall, Vec3(1, 0, 0), 0.1f);
}

}  // namespace
}  // namespace floptle::gravity
