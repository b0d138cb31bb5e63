#pragma once
// The kinematic capsule character (seed 000, "Kinematic character controller", "Feet",
// "Friction and slopes"): move-and-slide over CollisionWorld::sweep, no rigid-body solver.
// Per fixed step (named stages in character_controller.cpp):
//   1. applyInput:   walking velocity on the floor plane (or air control + gravity); jump.
//   2. moveAndSlide: sweep the motion (own velocity + the ground's df/dt velocity inherited
//                    last step) for at most kMaxSlideIterations hits, sliding along each;
//                    a blocking low obstacle is climbed by the step offset (up, forward, down).
//   3. depenetrate:  push out along the gradient by the penetration (capsuleOverlap).
//   4. feet:         probe straight down the up axis from the bottom sphere's centre, reaching
//                    2r: push up until the foot clears, pull down onto the floor while it stood
//                    last step and is not leaving; project the velocity onto the new floor.
//                    What the probe does not find (wall, slope past the limit, ledge rim) is
//                    left to the rounded bottom.
//   5. inherit:      the ground's surface velocity from df/dt, added to the next step's motion.
// A grounded character's capsule is lifted just clear of its floor for the sweeps (the feet
// stand on the surface, so on a slope the round bottom dips into it by r(1/cos - 1)); the feet
// put it back.
#include <cstdint>
#include <string>
#include <vector>

#include "floptle/core/math.h"
#include "floptle/physics/collision_world.h"

namespace floptle::physics {

/// The "character" component.
struct CharacterDesc {
  std::string name;
  float radius = 0.3f;            ///< capsule radius (m), > 0
  float height = 1.8f;            ///< capsule height end to end (m), >= 2 radius
  float speed = 5.0f;             ///< walking speed at full input (m/s)
  float jumpSpeed = 5.0f;         ///< upward speed a jump starts with (m/s)
  float slopeLimit = 1.0471976f;  ///< steepest walkable surface (rad); 60 degrees by default
  float stepHeight = 0.3f;        ///< highest ledge climbed by walking into it (m)
  float mass = 80.0f;             ///< what it weighs on and pushes dynamic bodies with (kg), > 0
  float gravityResponse = 1.0f;   ///< fraction of the sampled gravity it obeys (-)
  /// How fast up turns towards -g each step (1/s): a step turns 1 - exp(-rate dt) of the
  /// angle; 0 keeps the up it has. At placement up is -g at once.
  float alignRate = 10.0f;
  Vec3 position{0.0f};  ///< capsule centre at the start (m)

  float halfSegment() const { return std::max(0.0f, 0.5f * height - radius); }
};

/// Controls of one character; move holds until changed, jump is an edge consumed once.
struct CharacterInput {
  /// Desired direction in the character's move frame, length <= 1 (-): x along its side
  /// (up x forward), y along its forward. Under the default downward gravity the frame is the
  /// world's: x along +X, y along +Z.
  Vec2 move{0.0f};
  bool jump = false;  ///< pending jump request
};

/// What the controller integrates (hot).
struct CharacterState {
  Vec3 position{0.0f};  ///< capsule centre (m)
  /// The character's up (unit): -g / |g| of the gravity it obeys; kept where g is zero.
  Vec3 up{0.0f, 1.0f, 0.0f};
  /// The move frame's forward (unit, perpendicular to up), carried along as up turns
  /// (parallel transport), so holding "forward" walks a great circle round a planet.
  Vec3 forward{0.0f, 0.0f, 1.0f};
  Vec3 velocity{0.0f};         ///< own velocity, not counting the carried surface's (m/s)
  Vec3 surfaceVelocity{0.0f};  ///< the ground's velocity carried into the next step (m/s)
  Vec3 groundNormal{0.0f, 1.0f, 0.0f};
  Vec3 wallNormal{0.0f};
  std::uint8_t grounded = 0;
  std::uint8_t touchingWall = 0;
  /// The ground was found by the feet probe (the round bottom may dip into a slope by
  /// r (1/cos - 1)); 0 when the rounded bottom holds the body (a ledge's rim, a crease).
  std::uint8_t onFeet = 0;
  /// The collider it stands on (null: none) and the contact point there (m): a dynamic body
  /// under the feet carries the character's weight.
  ColliderId groundCollider;
  Vec3 groundPoint{0.0f};
};

/// The character walked into a dynamic body's collider this step (scratch, not state).
struct CharacterPush {
  ColliderId collider;
  Vec3 point{0.0f};    ///< contact on the body's surface (m)
  Vec3 normal{0.0f};   ///< out of the body, towards the character
  float speed = 0.0f;  ///< the character's velocity into the body along -normal (m/s), > 0
};

struct CharacterCounters {
  std::uint32_t sweeps = 0;
  std::uint32_t slideHits = 0;
  std::uint32_t steps = 0;  ///< ledges climbed by the step offset
  std::uint32_t depenetrations = 0;
};

class CharacterController {
 public:
  static constexpr int kMaxSlideIterations = 4;
  static constexpr int kMaxDepenetrationIterations = 4;
  /// Gap kept from surfaces after a sweep hit (m).
  static constexpr float kSkin = 4e-3f;
  /// Gap the walking capsule is lifted to above its floor for the sweeps, so sliding along
  /// the floor never registers as a hit (m).
  static constexpr float kLiftClearance = 0.03f;
  /// A foot within this of the surface stands on it (m).
  static constexpr float kGroundTolerance = 0.01f;

  CharacterController() = default;
  explicit CharacterController(const CharacterDesc& desc);

  const CharacterDesc& desc() const { return desc_; }
  CharacterDesc& desc() { return desc_; }
  const CharacterState& state() const { return state_; }
  CharacterState& state() { return state_; }
  const CharacterCounters& counters() const { return counters_; }
  /// Dynamic bodies walked into during the last step, in hit order.
  const std::vector<CharacterPush>& pushes() const { return pushes_; }

  /// Turns up towards -g / |g| by `fraction` of the angle between them (1: all the way; no
  /// turn where g is zero) and carries the move frame along.
  void orient(Vec3 gravity, float fraction = 1.0f);
  /// The world direction of a move input (see CharacterInput::move), before projection.
  Vec3 moveDirection(Vec2 move) const;
  /// The character's orientation: the rotation taking +X, +Y, +Z to its side, up, forward.
  Quat orientation() const;

  /// Advances one fixed step of dt (s) ending at time tEnd (s): the world must be refit at
  /// tEnd. `gravity` (m/s^2): what the character obeys this step; it orients the character
  /// first (orient). Consumes input.jump.
  void step(const CollisionWorld& world, double tEnd, float dt, Vec3 gravity,
            CharacterInput& input);

  /// Runs the feet once at the start pose (time t), as if the body stood last step: a
  /// character placed on the ground is grounded from its first tick.
  void placeOnGround(const CollisionWorld& world, double t, Vec3 gravity);

  /// Capsule axis ends (m) for a centre.
  Vec3 bottomCentre(Vec3 centre, Vec3 up) const { return centre - up * desc_.halfSegment(); }
  Vec3 topCentre(Vec3 centre, Vec3 up) const { return centre + up * desc_.halfSegment(); }

 private:
  bool walkable(Vec3 normal, Vec3 up) const;
  void feet(const CollisionWorld& world, double t, Vec3 up, bool wasStanding, bool leaving);
  Vec3 applyInput(float dt, Vec3 gravity, Vec3 up, CharacterInput& input, bool& leaving);
  Vec3 moveAndSlide(const CollisionWorld& world, double t, Vec3 position, Vec3 motion, Vec3 up,
                    bool grounded);
  bool stepUp(const CollisionWorld& world, double t, Vec3& position, Vec3 horizontal, Vec3 up);
  std::optional<Hit> landStep(const CollisionWorld& world, double t, Vec3& p, Vec3 dir,
                              float forward, float rise, Vec3 up);
  Vec3 depenetrate(const CollisionWorld& world, double t, Vec3 position, Vec3 up);
  std::optional<Hit> sweepCapsule(const CollisionWorld& world, double t, Vec3 centre, Vec3 motion,
                                  Vec3 up);

  CharacterDesc desc_;
  CharacterState state_;
  CharacterCounters counters_;
  std::vector<CharacterPush> pushes_;
};

/// Up axis for a gravity vector: -g / |g|, +Y when there is no gravity.
inline Vec3 upFromGravity(Vec3 gravity) {
  const float g = glm::length(gravity);
  return g > 1e-6f ? -gravity / g : kUp;
}

}  // namespace floptle::physics
