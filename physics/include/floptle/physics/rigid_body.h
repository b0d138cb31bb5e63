#pragma once
// Rigid bodies of the small sequential-impulse solver (seed 000, "Optional rigid-body
// dynamics" and "Friction and slopes"). Authoring data (RigidBodyDesc) is apart from the
// state the solver touches every step (BodyState, one small packed struct per body).
#include <cstdint>
#include <string>

#include "floptle/core/math.h"
#include "floptle/physics/body_shape.h"
#include "floptle/physics/collider_id.h"

namespace floptle::physics {

enum class BodyMotion : std::uint8_t {
  /// Moves by its own (constant) velocity, is pushed by nothing, pushes dynamic bodies.
  Kinematic,
  /// Integrated by the solver.
  Dynamic,
};

/// How a body is made (from a scene node with "collider": {"body": "dynamic" | "kinematic"}).
struct RigidBodyDesc {
  std::string name;
  BodyShape shape = BodyShape::sphere(0.5f);
  BodyMotion motion = BodyMotion::Dynamic;
  /// Pose of the centre of mass at the start (m, unit quaternion).
  Vec3 position{0.0f};
  Quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  /// Initial velocities (m/s, rad/s).
  Vec3 linearVelocity{0.0f};
  Vec3 angularVelocity{0.0f};
  /// Mass (kg) = material density (kg/m^3) x shape volume (m^3); > 0 for dynamic bodies.
  float mass = 1.0f;
  /// Coulomb friction coefficient (-), >= 0: tan(slope) <= friction holds.
  float friction = 0.5f;
  /// Coefficient of restitution (-), in [0, 1]: rebound speed / impact speed.
  float restitution = 0.0f;
  /// Fraction of the sampled gravity the body obeys (-): 1 falls, 0 flies on (a ship).
  float gravityResponse = 1.0f;
  /// This body's own collider in the collision world (excluded from its queries), null when
  /// the body is not in the world.
  ColliderId worldCollider;
};

/// What the solver integrates (60 bytes, hot).
struct BodyState {
  Vec3 position{0.0f};                    ///< centre of mass (m)
  Quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  ///< body to world
  Vec3 linearVelocity{0.0f};              ///< (m/s)
  Vec3 angularVelocity{0.0f};             ///< world frame (rad/s)
  float stillTime = 0.0f;                 ///< time spent below the sleep speeds (s)
  std::uint8_t asleep = 0;                ///< 1 while asleep: not integrated, no world contacts
};

/// Mass properties the solver reads (derived once from the desc).
struct BodyMass {
  float inverseMass = 0.0f;   ///< (1/kg); 0 for kinematic bodies
  Vec3 inverseInertia{0.0f};  ///< principal, body axes (1/(kg m^2)); 0 for kinematic
};

/// Inverse inertia tensor in world axes for a body at `rotation` (1/(kg m^2)).
inline Mat3 worldInverseInertia(const BodyMass& m, Quat rotation) {
  Mat3 r = glm::mat3_cast(rotation);
  Mat3 d(0.0f);
  d[0][0] = m.inverseInertia.x;
  d[1][1] = m.inverseInertia.y;
  d[2][2] = m.inverseInertia.z;
  return r * d * glm::transpose(r);
}

}  // namespace floptle::physics
