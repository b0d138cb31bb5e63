#pragma once
// RigidBodySystem: the small sequential-impulse solver over SDF contacts (seed 000, "Optional
// rigid-body dynamics", "Friction and slopes"). One step is a fixed list of named stages:
//
//   applyGravity -> findWorldContacts -> findBodyContacts -> prepareContacts (warm start,
//   bounce targets) -> solveVelocities (normals, then the patch's Coulomb friction) ->
//   integratePositions -> correctPositions -> updateSleep -> keepImpulses
//
// Position integration is semi-implicit Euler, except that a body no contact pushed this step
// moves by the exact constant-acceleration displacement (v0 dt + g dt^2 / 2), and a bounce
// that happens inside the step is placed where the exact trajectory puts it (a position-only
// fix, no velocity change). Penetration is removed by moving positions only (no velocity
// bias), so position correction adds no energy and gives walls no friction budget.
//
// Determinism: bodies are stepped in index order, contacts in generation order (body index,
// then sample index; pairs from a sort with index tie-break), warm-start impulses live in a
// sorted vector; nothing depends on pointers, hashing or wall time.
#include <cstdint>
#include <span>
#include <vector>

#include "floptle/core/math.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/contact.h"
#include "floptle/physics/rigid_body.h"

namespace floptle::physics {

struct SolverSettings {
  /// Velocity iterations per step (-), >= 1.
  int velocityIterations = 8;
  /// Position-correction iterations per step (-), >= 0.
  int positionIterations = 3;
  /// Penetration left alone, so resting contacts persist (m).
  float penetrationSlop = 0.005f;
  /// Fraction of the remaining penetration removed per position iteration (-).
  float positionCorrection = 0.2f;
  /// Contacts closer than this are kept (speculative), besides what a step can close (m).
  float contactMargin = 0.02f;
  /// Impact speeds below this do not bounce, so resting contacts settle (m/s).
  float restitutionThreshold = 0.5f;
  /// Steepest surface that carries weight (rad); 60 degrees by default.
  float slopeLimit = 1.0471976f;
  /// Below both speeds for sleepTime a body falls asleep (m/s, rad/s, s).
  float sleepLinearSpeed = 0.05f;
  float sleepAngularSpeed = 0.05f;
  float sleepTime = 0.5f;
};

/// Friction and restitution of the surface each world collider belongs to.
struct SurfaceMaterial {
  float friction = 0.5f;     ///< (-)
  float restitution = 0.0f;  ///< (-)
  /// The collider's field changes with t: contacts carry its df/dt surface velocity.
  bool morphs = false;
};

/// Counters of the last step (for the HUD and the CLI).
struct RigidBodyCounters {
  std::uint32_t worldContacts = 0;
  std::uint32_t bodyContacts = 0;
  std::uint32_t patches = 0;
  std::uint32_t awakeBodies = 0;
  std::uint32_t sleepingBodies = 0;
};

class RigidBodySystem {
 public:
  RigidBodySystem() = default;
  explicit RigidBodySystem(SolverSettings settings) : settings_(settings) {}

  /// Adds a body (load time). Returns its index.
  std::uint32_t add(const RigidBodyDesc& desc);
  std::size_t size() const { return descs_.size(); }
  const RigidBodyDesc& desc(std::uint32_t i) const { return descs_[i]; }
  RigidBodyDesc& desc(std::uint32_t i) { return descs_[i]; }
  const BodyState& state(std::uint32_t i) const { return states_[i]; }
  BodyState& state(std::uint32_t i) { return states_[i]; }
  const SolverSettings& settings() const { return settings_; }
  SolverSettings& settings() { return settings_; }
  /// Re-derives masses after desc edits (inspector changes while paused).
  void refreshMass(std::uint32_t i);
  /// Wakes a body (an input or an edit touched it).
  void wake(std::uint32_t i);

  /// Friction/restitution per world collider; colliders past the end use the default.
  void setWorldMaterials(std::vector<SurfaceMaterial> materials) {
    worldMaterials_ = std::move(materials);
  }

  /// External force (N) on a body's centre of mass and torque (N m) for the next step only
  /// (the vehicle's tyres and suspension).
  void addForce(std::uint32_t i, Vec3 force, Vec3 torque);
  /// Impulse (N s) at a world point, applied now (a character walking into the body);
  /// wakes the body. Nothing for kinematic bodies.
  void applyImpulseAt(std::uint32_t i, Vec3 point, Vec3 impulse);
  /// Mass the body shows to an impulse along unit `dir` at a world point (kg): rotation
  /// included; 0 for kinematic bodies.
  float effectiveMassAt(std::uint32_t i, Vec3 point, Vec3 dir) const;
  /// Velocity of the body's material at a world point (m/s).
  Vec3 velocityAtPoint(std::uint32_t i, Vec3 point) const;

  /// Advances by dt (s) from time t (s) against `world` (whose refit(t) was called).
  /// `gravity[i]` is what body i obeys this step (m/s^2), one vector per body: its
  /// acceleration, the up of its friction patches and its bounce prediction.
  void step(const CollisionWorld& world, double t, float dt, std::span<const Vec3> gravity);

  const RigidBodyCounters& counters() const { return counters_; }
  const std::vector<Contact>& contacts() const { return contacts_; }
  const std::vector<FrictionPatch>& patches() const { return patches_; }

  /// The whole dynamic state (states and warm-start impulses), for save / restore.
  struct Snapshot {
    std::vector<BodyState> states;
    std::vector<WarmStartEntry> warmStart;
  };
  Snapshot save() const { return {states_, warmStart_}; }
  void restore(const Snapshot& s) {
    states_ = s.states;
    warmStart_ = s.warmStart;
  }

 private:
  // ---- stages (one job each) -----------------------------------------------------------
  void applyGravity(float dt);
  void findWorldContacts(const CollisionWorld& world, double t, float dt);
  void findBodyContacts(float dt);
  void buildPatches();
  void prepareContacts(float dt);
  void solveVelocities();
  void integratePositions(float dt);
  void correctPositions();
  void updateSleep(float dt);
  void keepImpulses();

  // helpers
  Vec3 velocityAt(std::int32_t body, Vec3 r) const;
  void applyImpulse(std::uint32_t a, std::int32_t b, Vec3 rA, Vec3 rB, Vec3 impulse);
  /// Angular impulse (N m s) on A, its opposite on B.
  void applyAngularImpulse(std::uint32_t a, std::int32_t b, Vec3 angular);
  Vec3 angularVelocityOf(std::int32_t body) const;
  /// 1 / (axis . (IA^-1 + IB^-1) axis) (kg m^2).
  float twistMass(std::uint32_t a, std::int32_t b, Vec3 axis) const;
  float effectiveMass(std::uint32_t a, std::int32_t b, Vec3 rA, Vec3 rB, Vec3 dir) const;
  bool isDynamicAwake(std::int32_t body) const;
  /// isDynamicAwake from the step's scratch copy (the solver's inner loops: one byte per
  /// body instead of the body's whole description).
  bool movesNow(std::int32_t body) const { return body >= 0 && moving_[std::size_t(body)] != 0; }
  void addContact(Contact c);

  SolverSettings settings_;
  std::vector<RigidBodyDesc> descs_;
  std::vector<BodyMass> masses_;
  std::vector<BodyState> states_;
  std::vector<BodyState> startStates_;       ///< states at the start of the step (scratch)
  std::vector<Vec3> forces_, torques_;       ///< accumulated for the next step
  std::vector<Mat3> inverseInertiaWorld_;    ///< per body, this step (scratch)
  std::vector<Vec3> gravity_;                ///< per body, this step (m/s^2) (scratch)
  std::vector<std::uint8_t> pushed_;         ///< body got a normal impulse this step (scratch)
  std::vector<std::uint8_t> moving_;         ///< dynamic and awake at the step's start (scratch)
  std::vector<float> bounceFix_;             ///< per body bounce fix (m) (scratch)
  std::vector<Vec3> bounceNormal_;           ///< per body bounce fix direction (scratch)
  std::vector<std::uint32_t> wakeNextStep_;  ///< sleepers touched by moving bodies (scratch)
  std::vector<SurfaceMaterial> worldMaterials_;
  std::vector<Contact> contacts_;
  std::vector<FrictionPatch> patches_;
  std::vector<WarmStartEntry> warmStart_;  ///< sorted by key
  RigidBodyCounters counters_;
};

/// Coulomb coefficients of two touching materials: sqrt(mu_a mu_b) (gives mu when both are mu).
inline float combineFriction(float a, float b) {
  return std::sqrt(std::max(0.0f, a) * std::max(0.0f, b));
}
/// Restitution of two touching materials: the larger (-).
inline float combineRestitution(float a, float b) {
  return std::max(a, b);
}

}  // namespace floptle::physics
