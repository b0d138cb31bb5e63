// The raycast vehicle: a parked car settles at its suspension's static compression.
#include <gtest/gtest.h>

#include "play_test_world.h"

namespace floptle::physics {
namespace {

using namespace testing;

VehicleDesc car() {
  VehicleDesc v;
  v.name = "car";
  v.halfExtents = Vec3(0.9f, 0.3f, 2.0f);
  v.mass = 1200.0f;
  for (float x : {-0.8f, 0.8f})
    for (float z : {-1.4f, 1.4f}) {
      WheelDesc w;
      w.position = Vec3(x, -0.3f, z);
      w.radius = 0.35f;
      w.restLength = 0.4f;
      w.travel = 0.2f;
      w.stiffness = 30000.0f;
      w.damping = 4000.0f;
      w.grip = 1.0f;
      w.drive = z > 0 ? 2000.0f : 0.0f;
      w.steer = z > 0 ? 0.5f : 0.0f;
      v.wheels.push_back(w);
    }
  v.antiRoll = 5000.0f;
  v.position = Vec3(0.0f, 0.3f + 0.4f + 0.35f, 0.0f);  // wheels just touching at rest length
  return v;
}

TEST(PlayVehicle, ParkedVehicleSettlesAtStaticCompression) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.9f, 0.0f});
  Simulation sim = tw.simulation({});
  const VehicleDesc d = car();
  sim.addVehicle(d);
  for (int i = 0; i < 600; ++i) sim.step();
  const float expected = d.mass * 9.81f / (4.0f * 30000.0f);  // k x = m g / n
  for (const WheelState& w : sim.vehicles()[0].wheels()) {
    EXPECT_TRUE(w.contact);
    EXPECT_NEAR(w.compression, expected, 0.02f * expected);
  }
  const BodyState& s = sim.bodies().state(sim.vehicles()[0].chassis());
  EXPECT_NEAR(s.position.x, 0.0f, 1e-3f);
  EXPECT_NEAR(s.position.z, 0.0f, 1e-3f);
}

TEST(PlayVehicle, ThrottleDrivesForwardAndSteeringTurnsLeft) {
  TestWorld tw;
  tw.add(plane(Vec3(0, 1, 0)), {0.9f, 0.0f});
  Simulation sim = tw.simulation({});
  sim.addVehicle(car());
  for (int i = 0; i < 60; ++i) sim.step();
  sim.vehicleInput(0).throttle = 1.0f;
  for (int i = 0; i < 120; ++i) sim.step();
  const BodyState& s = sim.bodies().state(sim.vehicles()[0].chassis());
  // 4000 N on 1200 kg for 2 s: at most a = 3.3 m/s^2 -> ~6.7 m.
  EXPECT_GT(s.position.z, 4.0f);
  EXPECT_LT(s.position.z, 7.0f);
  // No rolling resistance or drag: the drive alone, z = (F / m) t^2 / 2, within 3%.
  EXPECT_NEAR(s.position.z, 0.5f * 4000.0f / 1200.0f * 4.0f,
              0.03f * 0.5f * 4000.0f / 1200.0f * 4.0f);
  EXPECT_NEAR(s.linearVelocity.z, 4000.0f / 1200.0f * 2.0f, 0.03f * 4000.0f / 1200.0f * 2.0f);
  sim.vehicleInput(0).steer = 1.0f;
  for (int i = 0; i < 60; ++i) sim.step();
  EXPECT_GT(sim.bodies().state(sim.vehicles()[0].chassis()).position.x, 0.2f);  // +x is left of +z
  sim.vehicleInput(0).throttle = 0.0f;
  sim.vehicleInput(0).brake = 1.0f;
  for (int i = 0; i < 240; ++i) sim.step();
  EXPECT_LT(glm::length(sim.bodies().state(sim.vehicles()[0].chassis()).linearVelocity), 0.1f);
}

}  // namespace
}  // namespace floptle::physics
