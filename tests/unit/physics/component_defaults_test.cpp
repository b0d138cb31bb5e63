// The component table's defaults (core) are what CharacterDesc, VehicleDesc and WheelDesc
// start from, so an absent key means the same to the table, the schema's readers and physics.
#include <gtest/gtest.h>

#include "floptle/core/scene/component_values.h"
#include "floptle/physics/character_controller.h"
#include "floptle/physics/vehicle.h"

namespace floptle::physics {
namespace {

double defaultOf(std::string_view table, std::string_view key, int component = 0) {
  const scene::ValueSpec* row = scene::componentSpec(table)->find(key);
  EXPECT_NE(row, nullptr) << table << "." << key;
  return row ? row->defaultValue[static_cast<std::size_t>(component)] : 0.0;
}

TEST(ComponentDefaults, CharacterVehicleAndWheelStartFromTheTable) {
  const CharacterDesc c;
  EXPECT_FLOAT_EQ(c.radius, defaultOf("character", "radius"));
  EXPECT_FLOAT_EQ(c.height, defaultOf("character", "height"));
  EXPECT_FLOAT_EQ(c.speed, defaultOf("character", "speed"));
  EXPECT_FLOAT_EQ(c.jumpSpeed, defaultOf("character", "jump_speed"));
  EXPECT_NEAR(c.slopeLimit, defaultOf("character", "slope_limit") * 3.14159265358979 / 180.0, 1e-6);
  EXPECT_FLOAT_EQ(c.stepHeight, defaultOf("character", "step_height"));
  EXPECT_FLOAT_EQ(c.mass, defaultOf("character", "mass"));

  const VehicleDesc v;
  for (int i = 0; i < 3; ++i)
    EXPECT_FLOAT_EQ(v.halfExtents[i], defaultOf("vehicle", "half_extents", i));
  EXPECT_FLOAT_EQ(v.mass, defaultOf("vehicle", "mass"));
  EXPECT_FLOAT_EQ(v.antiRoll, defaultOf("vehicle", "anti_roll"));

  const WheelDesc w;
  for (int i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(w.position[i], defaultOf("wheel", "position", i));
  EXPECT_FLOAT_EQ(w.radius, defaultOf("wheel", "radius"));
  EXPECT_FLOAT_EQ(w.restLength, defaultOf("wheel", "rest_length"));
  EXPECT_FLOAT_EQ(w.travel, defaultOf("wheel", "travel"));
  EXPECT_FLOAT_EQ(w.stiffness, defaultOf("wheel", "stiffness"));
  EXPECT_FLOAT_EQ(w.damping, defaultOf("wheel", "damping"));
  EXPECT_FLOAT_EQ(w.grip, defaultOf("wheel", "grip"));
  EXPECT_FLOAT_EQ(w.drive, defaultOf("wheel", "drive"));
  EXPECT_FLOAT_EQ(w.steer, defaultOf("wheel", "steer"));
}

}  // namespace
}  // namespace floptle::physics
