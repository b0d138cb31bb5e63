#pragma once
// FieldCollider: an analytic field (a compiled field graph) placed in the world by a node's
// transform. The program is evaluated in the node's local frame: a world point is taken to
// local space by the inverse transform and the local distance is scaled back to meters
// (uniform scale keeps a signed distance a signed distance). Same collision path for a
// primitive and a fractal, no special cases (seed 000, "Collider types").
#include <memory>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_node.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/field/program_cache.h"
#include "floptle/core/math.h"
#include "floptle/physics/collision_shape.h"

namespace floptle::physics {

class FieldCollider final : public CollisionShape {
 public:
  /// Compiles `shape` (errors name the offending node) and places it at `world`; with
  /// `programs`, takes its program from there, shared with every equal shape.
  /// An invalid transform (non-finite, scale <= 0) is refused.
  static Expected<FieldCollider> make(const field::FieldNode& shape, const Transform& world,
                                      field::ProgramCache* programs = nullptr);

  /// True when a parameter of the field is animated by t.
  bool changesWithTime() const override;
  float distance(Vec3 p, double t) const override;
  Vec3 normal(Vec3 p, double t) const override;
  /// World box of the program's bounds at t; unbounded fields (planes, repeats) answer the
  /// whole space (+-FLT_MAX), which the broadphase always visits.
  Aabb aabb(double t) const override;
  /// Closed-form cast for a field that is one constant sphere (exact, and what a sphere
  /// march of it converges to); every other field answers "march me".
  CastResult castSphere(Vec3 origin, Vec3 unitDir, float radius, float maxDistance,
                        double t) const override;

  const Transform& worldTransform() const { return world_; }
  /// Moves the collider (kinematic and dynamic bodies); the world refits on its next step.
  void setWorldTransform(const Transform& world);
  const field::FieldProgram& program() const { return *program_; }

 private:
  FieldCollider(std::shared_ptr<const field::FieldProgram> program, const Transform& world);
  /// A lone sphere's normal at p (its local point normalized, then placed); false at the
  /// centre, which has no direction.
  bool loneSphereNormal(Vec3 p, Vec3& normal) const;

  /// Shared so copies of a collider (world snapshots) do not recompile the graph.
  std::shared_ptr<const field::FieldProgram> program_;
  Transform world_;
  Transform toLocal_;
  /// True when world_ is the identity: points go to the program untouched.
  bool identity_ = true;
  /// True when world_ only translates (no rotation, scale 1): p - position.
  bool translationOnly_ = false;
  /// > 0 when the field is a single sphere of this radius (m, local): casts are closed-form.
  float sphereRadius_ = 0.0f;
};

}  // namespace floptle::physics
