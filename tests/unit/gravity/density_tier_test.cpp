// Tier 3 as the scene writes it: reading and refusing the density object and the bodies'
// keys (each error names its JSON pointer), and Newtonian emitters whose mass is their
// material's density times the volume integrated from their field.
#include <gtest/gtest.h>

#include <cmath>

#include "floptle/core/scene/scene.h"
#include "floptle/gravity/scene_gravity.h"

namespace floptle::gravity {
namespace {

using Json = nlohmann::ordered_json;
constexpr float kPi = 3.14159265358979f;

Expected<scene::GravityFieldDesc> read(const char* text) {
  return scene::readGravityField(Json::parse(text), "/settings/gravity");
}

std::string refusedAt(const char* text) {
  auto desc = read(text);
  EXPECT_FALSE(desc) << text;
  return desc ? std::string() : desc.error().where;
}

TEST(DensityTierDesc, ReadsTheDensityObjectAndTheBodiesKeys) {
  auto desc = read(R"({"G": 3, "bodies_attract": true, "theta": 0.7,
      "density": {"cell": 0.5, "cadence": 4, "bounds": [[-10, -2, -10], [10, 8, 10]]}})");
  ASSERT_TRUE(desc) << desc.error().message();
  ASSERT_TRUE(desc->density);
  EXPECT_EQ(desc->density->cell, 0.5f);
  EXPECT_EQ(desc->density->cadence, 4);
  ASSERT_TRUE(desc->density->bounds);
  EXPECT_EQ(desc->density->bounds->min, Vec3(-10, -2, -10));
  EXPECT_EQ(desc->density->bounds->max, Vec3(10, 8, 10));
  EXPECT_TRUE(desc->bodiesAttract);
  EXPECT_EQ(desc->theta, 0.7f);
  // Defaults: cadence 10, bounds from the matter, theta 0.5, bodies not attracting.
  auto plain = read(R"({"density": {"cell": 2}})");
  ASSERT_TRUE(plain) << plain.error().message();
  EXPECT_EQ(plain->density->cadence, 10);
  EXPECT_FALSE(plain->density->bounds);
  EXPECT_FALSE(plain->bodiesAttract);
  EXPECT_EQ(plain->theta, 0.5f);
}

TEST(DensityTierDesc, RefusesBadValuesNamingTheirPointer) {
  EXPECT_EQ(refusedAt(R"({"density": {"cell": 0}})"), "/settings/gravity/density/cell");
  EXPECT_EQ(refusedAt(R"({"density": {"cell": -1}})"), "/settings/gravity/density/cell");
  EXPECT_EQ(refusedAt(R"({"density": {"cadence": 2}})"), "/settings/gravity/density/cell");
  EXPECT_EQ(refusedAt(R"({"density": {"cell": 1, "cadence": 0}})"),
            "/settings/gravity/density/cadence");
  EXPECT_EQ(refusedAt(R"({"density": {"cell": 1, "cadence": 1.5}})"),
            "/settings/gravity/density/cadence");
  EXPECT_EQ(refusedAt(R"({"density": {"cell": 1, "bounds": [[1, 0, 0], [0, 1, 1]]}})"),
            "/settings/gravity/density/bounds");
  EXPECT_EQ(refusedAt(R"({"density": {"cell": 1, "bounds": [[0, 0, 0]]}})"),
            "/settings/gravity/density/bounds");
  EXPECT_EQ(refusedAt(R"({"density": {"cell": 1, "bounds": [[0, 0, 0], [1, "a", 1]]}})"),
            "/settings/gravity/density/bounds/1/1");
  EXPECT_EQ(refusedAt(R"({"density": {"cell": 1, "grid": 3}})"), "/settings/gravity/density/grid");
  EXPECT_EQ(refusedAt(R"({"density": {"cell": 1, "theta": 0.5}})"),
            "/settings/gravity/density/theta");
  EXPECT_EQ(refusedAt(R"({"density": 3})"), "/settings/gravity/density");
  EXPECT_EQ(refusedAt(R"({"theta": 0})"), "/settings/gravity/theta");
  EXPECT_EQ(refusedAt(R"({"theta": 1.5})"), "/settings/gravity/theta");
  EXPECT_EQ(refusedAt(R"({"bodies_attract": 1})"), "/settings/gravity/bodies_attract");
}

/// A scene of one node `shape` with material density 500 and a newtonian emitter.
Json emitterScene(const Json& shape, float scale = 1.0f) {
  Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "rock", "color": [1, 1, 1], "density": 500}],
    "nodes": [{"name": "moon", "material": "rock",
               "transform": {"position": [3, -4, 5]},
               "gravity_source": {"type": "newtonian", "r_outer": 100}}]})");
  doc["nodes"][0]["shape"] = shape;
  doc["nodes"][0]["transform"]["scale"] = scale;
  return doc;
}

scene::GravitySource emitted(const Json& doc) {
  auto sc = scene::buildScene(doc);
  EXPECT_TRUE(sc) << (sc ? "" : sc.error().message());
  auto desc = sceneGravityField(sc.value());
  EXPECT_TRUE(desc) << (desc ? "" : desc.error().message());
  EXPECT_EQ(desc->sources.size(), 1u);
  return desc->sources.at(0);
}

TEST(NewtonianEmitter, ASpheresMassIsItsDensityTimesFourThirdsPiRCubed) {
  const scene::GravitySource s =
      emitted(emitterScene(Json::parse(R"({"type": "sphere", "radius": 2})")));
  const float M = 500.0f * 4.0f / 3.0f * kPi * 8.0f;
  EXPECT_EQ(s.type, scene::GravitySource::Type::Sphere);
  EXPECT_NEAR(s.mass, M, 0.01f * M);
  EXPECT_NEAR(s.radius, 2.0f, 0.01f * 2.0f);
  EXPECT_NEAR(glm::length(s.center - Vec3(3, -4, 5)), 0.0f, 0.02f);
  EXPECT_EQ(s.rOuter, 100.0f);
  // The node's scale scales the volume by its cube.
  const scene::GravitySource big =
      emitted(emitterScene(Json::parse(R"({"type": "sphere", "radius": 2})"), 1.5f));
  EXPECT_NEAR(big.mass, M * 3.375f, 0.01f * M * 3.375f);
}

TEST(NewtonianEmitter, AnyBoundedFieldGivesItsVolume) {
  // A box 2 x 1 x 3 (half extents), off its node's origin inside a translation.
  const scene::GravitySource s = emitted(emitterScene(Json::parse(
      R"({"type": "box", "half_extents": [1, 0.5, 1.5], "transform": {"position": [1, 0, 0]}})")));
  const float M = 500.0f * 2.0f * 1.0f * 3.0f;
  EXPECT_NEAR(s.mass, M, 0.01f * M);
  EXPECT_NEAR(glm::length(s.center - Vec3(4, -4, 5)), 0.0f, 0.02f);
}

TEST(NewtonianEmitter, RefusesAnUnboundedShapeAndAStrength) {
  auto plane = scene::buildScene(
      emitterScene(Json::parse(R"({"type": "plane", "normal": [0, 1, 0], "offset": 0})")));
  ASSERT_TRUE(plane) << plane.error().message();
  auto unbounded = sceneGravityField(plane.value());
  ASSERT_FALSE(unbounded);
  EXPECT_EQ(unbounded.error().where, "/nodes/0/gravity_source");
  Json doc = emitterScene(Json::parse(R"({"type": "sphere", "radius": 2})"));
  doc["nodes"][0]["gravity_source"]["strength"] = 5;
  auto sc = scene::buildScene(doc);
  ASSERT_TRUE(sc) << sc.error().message();
  auto withStrength = sceneGravityField(sc.value());
  ASSERT_FALSE(withStrength);
  EXPECT_EQ(withStrength.error().where, "/nodes/0/gravity_source/strength");
}

}  // namespace
}  // namespace floptle::gravity
