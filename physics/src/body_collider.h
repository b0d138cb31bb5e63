#pragma once
// BodyCollider: a dynamic rigid body seen by the collision world, so the capsule character
// walks into it, is blocked by it and stands on it (the bodies themselves never query it:
// the simulation makes these colliders collidable only while the characters step).
// The pose is the body's at time t0, extrapolated by its velocities, so df/dt at a contact
// is the body surface's normal velocity there (a character standing on a moving body is
// carried along the normal, like on morphing ground).
#include <cmath>

#include "floptle/physics/body_shape.h"
#include "floptle/physics/collision_shape.h"
#include "floptle/physics/rigid_body.h"

namespace floptle::physics {

class BodyCollider final : public CollisionShape {
 public:
  explicit BodyCollider(BodyShape shape) : shape_(std::move(shape)) {}

  /// The body's state at time t0 (s).
  void setPose(const BodyState& s, double t0) {
    state_ = s;
    t0_ = t0;
  }

  /// Posed at t0 and moved by its velocities.
  bool changesWithTime() const override { return true; }
  float distance(Vec3 p, double t) const override {
    Vec3 c;
    Quat q;
    poseAt(t, c, q);
    return shape_.distance(glm::conjugate(q) * (p - c));
  }
  Vec3 normal(Vec3 p, double t) const override {
    Vec3 c;
    Quat q;
    poseAt(t, c, q);
    return q * shape_.normal(glm::conjugate(q) * (p - c));
  }
  Aabb aabb(double t) const override {
    Vec3 c;
    Quat q;
    poseAt(t, c, q);
    // Grown by what a step of motion can add, so refits once per tick stay conservative.
    const float grow = glm::length(state_.linearVelocity) * 0.05f + 1e-3f;
    return Aabb::fromCenterHalf(c, Vec3(shape_.boundingRadius() + grow));
  }

 private:
  void poseAt(double t, Vec3& centre, Quat& rotation) const {
    const float dt = static_cast<float>(t - t0_);
    centre = state_.position + state_.linearVelocity * dt;
    const Vec3 w = state_.angularVelocity;
    rotation = glm::normalize(state_.rotation +
                              (Quat(0.0f, w.x, w.y, w.z) * state_.rotation) * (0.5f * dt));
  }

  BodyShape shape_;
  BodyState state_;
  double t0_ = 0.0;
};

}  // namespace floptle::physics
