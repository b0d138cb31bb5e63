// ComponentReader: values checked against the component table, errors at their JSON pointer.
#include <gtest/gtest.h>

#include "floptle/core/scene/component_values.h"

namespace floptle::scene {
namespace {

using Json = nlohmann::ordered_json;

TEST(ComponentValues, ARefusedValueNamesItsPointerAndRange) {
  const Json character = Json::parse(R"({"radius": 0, "height": 2})");
  auto in = ComponentReader::open(character, "character", "/nodes/3/character");
  ASSERT_TRUE(in.ok());
  float radius = 0.3f, height = 1.8f, speed = 5.0f;
  const auto refused = in->number("radius", radius);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "/nodes/3/character/radius");
  EXPECT_EQ(refused.error().what, "must be in (0, 1000] (m), found 0");
  EXPECT_EQ(radius, 0.3f);  // kept
  EXPECT_TRUE(in->number("height", height).ok());
  EXPECT_EQ(height, 2.0f);
  EXPECT_TRUE(in->number("speed", speed).ok());  // absent: the caller's default stays
  EXPECT_EQ(speed, 5.0f);
}

TEST(ComponentValues, WheelsAreReadWithTheirOwnRows) {
  const Json vehicle =
      Json::parse(R"({"half_extents": [1, 0.3, 2], "wheels": [{"radius": 0.4}, {"grip": -1}]})");
  auto in = ComponentReader::open(vehicle, "vehicle", "/nodes/0/vehicle");
  ASSERT_TRUE(in.ok());
  Vec3 half{0.0f};
  EXPECT_TRUE(in->vec3("half_extents", half).ok());
  EXPECT_EQ(half, Vec3(1.0f, 0.3f, 2.0f));
  auto wheels = in->objects("wheels");
  ASSERT_TRUE(wheels.ok());
  ASSERT_EQ(wheels->size(), 2u);
  float radius = 0.35f, grip = 1.0f;
  EXPECT_TRUE((*wheels)[0].number("radius", radius).ok());
  EXPECT_EQ(radius, 0.4f);
  const auto grip1 = (*wheels)[1].number("grip", grip);
  ASSERT_FALSE(grip1.ok());
  EXPECT_EQ(grip1.error().where, "/nodes/0/vehicle/wheels/1/grip");

  const Json noWheels = Json::parse(R"({"mass": 900})");
  const auto missing = ComponentReader::open(noWheels, "vehicle", "/nodes/0/vehicle");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().where, "/nodes/0/vehicle/wheels");
}

TEST(ComponentValues, KindsEnumsAndUnknownKeys) {
  const Json event = Json::parse(R"({"tick": 3, "node": "car", "move": [0.5, "x"], "fly": true})");
  auto in = ComponentReader::open(event, "input_event", "/2");
  ASSERT_TRUE(in.ok());
  std::int64_t tick = 0;
  EXPECT_TRUE(in->integer("tick", tick).ok());
  EXPECT_EQ(tick, 3);
  double move[2] = {0.0, 0.0};
  EXPECT_EQ(in->vector("move", move).error().where, "/2/move/1");
  EXPECT_EQ(in->onlyKnownKeys().error().where, "/2/fly");

  const Json collider = Json::parse(R"({"body": "floating"})");
  std::string body;
  const auto refused =
      ComponentReader::open(collider, "collider", "/nodes/1/collider")->string("body", body);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().what,
            R"(must be one of "static", "dynamic", "kinematic", found "floating")");

  EXPECT_FALSE(ComponentReader::open(Json::array(), "character", "/nodes/0/character").ok());
}

}  // namespace
}  // namespace floptle::scene
