#pragma once
// The raycast vehicle (seed 000, "Raycast vehicle"): a rigid chassis (a box body of the
// RigidBodySystem, so it also collides like one) held up by N spherecast wheels, no wheel
// colliders. Each step, for each wheel:
//   hit = spherecast(mount, -chassis_up, wheel_radius, rest + travel)
//   compression = rest - hit distance;  F = k compression + c d(compression)/dt  (>= 0)
//   suspension force F along the ground normal; tyre forces in the contact plane:
//   drive (throttle x drive) and brake through grip, lateral slip resisted through grip,
//   both inside the friction circle |F_tyre| <= grip x F;
// plus an anti-roll bar between the two wheels of an axle (mirror positions in chassis x),
// force anti_roll x (compression difference). Rising terrain pushes the wheels up through
// the compression rate, and tyre slip is measured against the ground's df/dt velocity.
// Chassis frame: +Y up, +Z forward; positive steer turns left (about +Y).
#include <cstdint>
#include <string>
#include <vector>

#include "floptle/core/math.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/rigid_body_system.h"

namespace floptle::physics {

struct WheelDesc {
  Vec3 position{0.0f};         ///< suspension mount, chassis frame (m)
  float radius = 0.35f;        ///< (m), > 0
  float restLength = 0.4f;     ///< mount to wheel centre at rest (m)
  float travel = 0.2f;         ///< further droop below rest the cast reaches (m)
  float stiffness = 30000.0f;  ///< spring rate (N/m)
  float damping = 3000.0f;     ///< damper rate (N s/m)
  float grip = 1.0f;           ///< tyre friction coefficient (-)
  float drive = 0.0f;          ///< drive force at full throttle (N); 0 = undriven wheel
  float steer = 0.0f;          ///< steering angle at full lock (rad); 0 = fixed wheel
};

/// The "vehicle" component.
struct VehicleDesc {
  std::string name;
  Vec3 halfExtents{1.0f, 0.3f, 2.0f};  ///< chassis box (m)
  float mass = 1200.0f;                ///< chassis mass (kg)
  float antiRoll = 0.0f;               ///< anti-roll bar rate (N/m)
  float friction = 0.5f;               ///< chassis body against the world (-)
  float gravityResponse = 1.0f;        ///< fraction of the sampled gravity obeyed (-)
  std::vector<WheelDesc> wheels;
  Vec3 position{0.0f};  ///< chassis centre at the start (m)
  Quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

struct VehicleInput {
  float throttle = 0.0f;  ///< [-1, 1] (-)
  float brake = 0.0f;     ///< [0, 1] (-)
  float steer = 0.0f;     ///< [-1, 1] (-), positive turns left
};

struct WheelState {
  float compression = 0.0f;  ///< rest - length (m); negative when drooping
  float load = 0.0f;         ///< suspension force (N)
  std::uint8_t contact = 0;
  std::uint8_t hadContact = 0;  ///< contact last step (the damper needs two samples)
};

class Vehicle {
 public:
  /// Adds the chassis to `bodies` and remembers its index.
  Vehicle(const VehicleDesc& desc, RigidBodySystem& bodies);

  const VehicleDesc& desc() const { return desc_; }
  VehicleDesc& desc() { return desc_; }
  std::uint32_t chassis() const { return chassis_; }
  const std::vector<WheelState>& wheels() const { return wheels_; }
  std::vector<WheelState>& wheels() { return wheels_; }

  /// Casts the wheels at time t (s) and adds the step's suspension, tyre and anti-roll
  /// forces to the chassis (before the bodies step by dt (s)).
  void applyForces(const CollisionWorld& world, double t, float dt, const VehicleInput& input,
                   RigidBodySystem& bodies);

 private:
  VehicleDesc desc_;
  std::uint32_t chassis_ = 0;
  std::vector<WheelState> wheels_;
  std::vector<std::int32_t> axlePartner_;  ///< mirror wheel of each wheel, or -1
};

}  // namespace floptle::physics
