#pragma once
// Contacts of the rigid-body solver, made straight from SDF queries (seed 000: "for each body
// pair (and body-vs-world), sphere_overlap / capsule_overlap give { point, normal,
// penetration }"), and the friction patches that spend the Coulomb budget.
//
// Friction (seed 000, "Friction and slopes"): one patch per touching pair (a body and one
// world collider, or two bodies). The patch's tangential impulse is limited to
//   |lambda_t| <= mu x (sum of its contacts' normal impulses),
// the load it carries this step, so a slope holds iff tan(theta) <= mu whatever dt or the
// iteration count, and a body touching several colliders has exactly the budget its loads
// give. A surface not pushed into has no normal impulse and so absorbs nothing (walls). A
// patch whose normal is past slope_limit from up carries no weight: budget 0.
//
// Combine rules where two materials touch: friction sqrt(mu_a mu_b) (mu when both are mu);
// restitution max(e_a, e_b).
#include <cstdint>
#include <vector>

#include "floptle/core/math.h"

namespace floptle::physics {

/// One contact point (solver scratch included; rebuilt each step).
struct Contact {
  std::uint32_t bodyA = 0;          ///< dynamic body
  std::int32_t bodyB = -1;          ///< other body, or -1 for the collision world
  std::int32_t worldCollider = -1;  ///< index of the collider hit when bodyB == -1
  std::uint32_t feature = 0;        ///< which sample made it (warm-start key)
  Vec3 point{0.0f};                 ///< on B's surface (m)
  Vec3 normal{0.0f, 1.0f, 0.0f};    ///< unit, from B towards A
  float separation = 0.0f;          ///< gap (m); negative when penetrating
  Vec3 surfaceVelocity{0.0f};       ///< velocity of the world surface at point, df/dt (m/s)
  float restitution = 0.0f;         ///< combined (-)
  // solver scratch
  Vec3 rA{0.0f}, rB{0.0f};          ///< point relative to the centres of mass (m)
  Vec3 localA{0.0f}, localB{0.0f};  ///< point in A's / B's body frame (m), for position correction
  float normalMass = 0.0f;          ///< 1 / (n . K n) (kg)
  float targetVelocity = 0.0f;      ///< smallest allowed separating speed after the solve (m/s)
  float normalImpulse = 0.0f;       ///< accumulated this step (N s)
  float bounceFix = 0.0f;           ///< position fix along normal for a bounce inside the step (m)
  bool bounces = false;
};

/// Contacts of one touching pair sharing one Coulomb budget.
struct FrictionPatch {
  std::uint32_t bodyA = 0;
  std::int32_t bodyB = -1;
  std::int32_t worldCollider = -1;
  std::uint32_t firstContact = 0, contactCount = 0;  ///< range in the contact list
  float friction = 0.0f;                             ///< combined Coulomb coefficient (-)
  bool carriesWeight = true;                         ///< normal within slope_limit of up
  Vec3 normal{0.0f, 1.0f, 0.0f};
  Vec3 tangent1{1.0f, 0.0f, 0.0f}, tangent2{0.0f, 0.0f, 1.0f};
  Vec3 rA{0.0f}, rB{0.0f};           ///< anchor (mean contact point) relative to the centres (m)
  Vec3 surfaceVelocity{0.0f};        ///< (m/s)
  float mass1 = 0.0f, mass2 = 0.0f;  ///< effective masses along the tangents (kg)
  Vec3 impulse{0.0f};                ///< accumulated tangential impulse, world vector (N s)
  /// Twist (torsional) friction about the normal: the patch's contacts spread over a mean
  /// distance twistRadius from the anchor resist spinning with at most
  /// mu x load x twistRadius; without it a stacked box spins freely about the vertical.
  float twistRadius = 0.0f;   ///< (m)
  float twistMass = 0.0f;     ///< 1 / (n . (IA^-1 + IB^-1) n) (kg m^2)
  float twistImpulse = 0.0f;  ///< accumulated angular impulse about the normal (N m s)
};

/// Impulses kept from the last step to warm-start this one (sorted by key: deterministic).
struct WarmStartEntry {
  std::uint64_t key = 0;
  float normalImpulse = 0.0f;  ///< (N s), contacts; the twist impulse (N m s) for patches
  Vec3 frictionImpulse{0.0f};  ///< (N s), patches
};

/// Key of a contact (feature < 2^20) or of a patch (feature = kPatchFeature).
inline constexpr std::uint32_t kPatchFeature = 0xFFFFFu;
inline std::uint64_t warmStartKey(std::uint32_t bodyA, std::int32_t bodyB,
                                  std::int32_t worldCollider, std::uint32_t feature) {
  std::uint64_t other = bodyB >= 0
                            ? std::uint64_t(bodyB)
                            : (std::uint64_t(1) << 21) | std::uint64_t(worldCollider & 0xFFFFF);
  return (std::uint64_t(bodyA & 0xFFFFF) << 42) | ((other & 0x3FFFFF) << 20) |
         std::uint64_t(feature & 0xFFFFF);
}

}  // namespace floptle::physics
