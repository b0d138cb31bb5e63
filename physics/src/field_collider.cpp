#include "floptle/physics/field_collider.h"

#include <cmath>
#include <string>

namespace floptle::physics {

namespace {

bool finiteQuat(const Quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

/// Beyond this a bound is treated as unbounded (planes and repeats report huge extents).
constexpr float kUnbounded = 1e18f;

bool isUnbounded(const Aabb& b) {
  for (int axis = 0; axis < 3; ++axis)
    if (!(std::abs(b.min[axis]) < kUnbounded) || !(std::abs(b.max[axis]) < kUnbounded))
      return true;
  return false;
}

}  // namespace

Expected<FieldCollider> FieldCollider::make(const field::FieldNode& shape,
                                            const Transform& world) {
  if (!isFinite(world.position) || !finiteQuat(world.rotation) || !std::isfinite(world.scale))
    return Error{"transform", "the node's world transform is not finite"};
  if (!(world.scale > 0.0f))
    return Error{"transform/scale", "scale must be > 0, got " + std::to_string(world.scale)};
  if (!(glm::length(world.rotation) > 0.5f))
    return Error{"transform/rotation", "rotation is not a unit quaternion"};
  auto program = field::FieldProgram::compile(shape);
  if (!program) return program.error();
  return FieldCollider(std::make_shared<const field::FieldProgram>(std::move(program.value())),
                       world);
}

FieldCollider::FieldCollider(std::shared_ptr<const field::FieldProgram> program,
                             const Transform& world)
    : program_(std::move(program)) {
  setWorldTransform(world);
}

void FieldCollider::setWorldTransform(const Transform& world) {
  world_ = world;
  world_.rotation = glm::normalize(world.rotation);
  toLocal_ = world_.inverse();
  identity_ = world_.isIdentity();
}

float FieldCollider::distance(Vec3 p, double t) const {
  if (identity_) return program_->distance(p, t);
  return program_->distance(toLocal_.applyToPoint(p), t) * world_.scale;
}

Vec3 FieldCollider::normal(Vec3 p, double t) const {
  if (identity_) return program_->normal(p, t);
  return world_.applyToNormal(program_->normal(toLocal_.applyToPoint(p), t));
}

Aabb FieldCollider::aabb(double t) const {
  const Aabb local = program_->bounds(t);
  if (local.empty()) return local;
  if (isUnbounded(local)) {
    const float m = std::numeric_limits<float>::max();
    return {Vec3(-m), Vec3(m)};
  }
  return identity_ ? local : world_.applyToAabb(local);
}

}  // namespace floptle::physics
