#include "floptle/physics/field_collider.h"

#include "floptle/core/vec_divide.h"

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
    if (!(std::abs(b.min[axis]) < kUnbounded) || !(std::abs(b.max[axis]) < kUnbounded)) return true;
  return false;
}

}  // namespace

Expected<FieldCollider> FieldCollider::make(const field::FieldNode& shape, const Transform& world,
                                            field::ProgramCache* programs) {
  if (!isFinite(world.position) || !finiteQuat(world.rotation) || !std::isfinite(world.scale))
    return Error{"transform", "the node's world transform is not finite"};
  if (!(world.scale > 0.0f))
    return Error{"transform/scale", "scale must be > 0, got " + std::to_string(world.scale)};
  if (!(glm::length(world.rotation) > 0.5f))
    return Error{"transform/rotation", "rotation is not a unit quaternion"};
  std::shared_ptr<const field::FieldProgram> shared;
  if (programs) {
    auto program = programs->compile(shape);
    if (!program) return program.error();
    shared = std::move(program.value());
  } else {
    auto program = field::FieldProgram::compile(shape);
    if (!program) return program.error();
    shared = std::make_shared<const field::FieldProgram>(std::move(program.value()));
  }
  FieldCollider collider(std::move(shared), world);
  if (shape.type == field::NodeType::Sphere && shape.params.size() == 1 &&
      !shape.params[0].animated() && shape.params[0].base > 0.0f)
    collider.sphereRadius_ = shape.params[0].base;
  return collider;
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
  translationOnly_ = world_.rotation == Quat(1, 0, 0, 0) && world_.scale == 1.0f;
}

bool FieldCollider::changesWithTime() const {
  return program_->animated();
}

float FieldCollider::distance(Vec3 p, double t) const {
  if (identity_) return program_->distance(p, t);
  if (translationOnly_) return program_->distance(p - world_.position, t);
  return program_->distance(toLocal_.applyToPoint(p), t) * world_.scale;
}

// Inlined into normal() and castSphere() (one definition, so both give the same bits).
[[gnu::always_inline]] inline bool FieldCollider::loneSphereNormal(Vec3 p, Vec3& normal) const {
  // The program's analytic normal is the local point normalized (FieldProgram::normal:
  // primitiveGradient(Sphere, q) = q, then q / |q|); the same operations here give the same
  // bits without the program's dispatch.
  const Vec3 q = identity_ ? p : translationOnly_ ? p - world_.position : toLocal_.applyToPoint(p);
  const float l = glm::length(q);
  if (!(l > 1e-30f && std::isfinite(l))) return false;
  const Vec3 n = dividedBy(q, l);
  normal = identity_ || translationOnly_ ? n : world_.applyToNormal(n);
  return true;
}

Vec3 FieldCollider::normal(Vec3 p, double t) const {
  // A lone sphere answers itself; its centre falls to the program's own fallback.
  if (Vec3 n; sphereRadius_ > 0.0f && loneSphereNormal(p, n)) return n;
  if (identity_) return program_->normal(p, t);
  if (translationOnly_) return program_->normal(p - world_.position, t);
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

CollisionShape::CastResult FieldCollider::castSphere(Vec3 origin, Vec3 unitDir, float radius,
                                                     float maxDistance, double t) const {
  CastResult out;
  if (sphereRadius_ <= 0.0f) return out;  // not a single sphere: march it
  out.handled = true;
  // The cast sphere's centre meets the field's sphere grown by the cast radius.
  const float R = sphereRadius_ * world_.scale + radius;
  const Vec3 oc = origin - world_.position;
  const float b = glm::dot(oc, unitDir);
  const float c = glm::dot(oc, oc) - R * R;
  if (c < 0.0f) {  // starts inside / overlapping
    out.hit = true;
    out.inside = true;
    return out;
  }
  if (b >= 0.0f) return out;  // on or outside the surface and moving away (or along it)
  // h = R^2 - (squared distance from the centre to the ray's line), from that distance: the
  // textbook b^2 - c subtracts two numbers near |oc|^2 and loses their low bits (ulp 1.5e-5 m^2
  // at 15 m), which moves the root by that error / (2 sqrt h), over 1e-4 m for a 0.2 m sphere
  // seen from 15 m near its rim.
  const Vec3 offLine = oc - unitDir * b;
  const float h = R * R - glm::dot(offLine, offLine);
  if (h < 0.0f) return out;
  // c / (-b + sqrt(h)) is the nearer root without cancellation when the ray starts close.
  const float s = c / (-b + std::sqrt(h));
  if (!(s <= maxDistance)) return out;
  out.hit = true;
  out.distance = s;
  const Vec3 centre = origin + unitDir * s;
  // The collider's own normal there (the lone-sphere branch of normal()), so the world's
  // hit builder can take it as is.
  if (!loneSphereNormal(centre, out.normal)) out.normal = normal(centre, t);
  out.normalIsShapeNormal = true;
  out.point = centre - out.normal * radius;
  return out;
}

}  // namespace floptle::physics
