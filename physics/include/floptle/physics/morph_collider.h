#pragma once
// MorphCollider: the collider of a Morph-tier node (seed 002, tier 1). A displaced field is
// not 1-Lipschitz, so physics never sphere-traces the warp: it collides with a bake of the
// displaced shape on a lattice of cell h (the node's "bake": {"cell": h}), kept in a sparse
// brickmap (BakedFieldCollider) whose bricks nearest the active bodies are re-sampled each
// step at the step's time, `rebakeBudget` bricks a step (the rolling budget of seed 000).
//
// Queries answer the bake as if it were current at the asked time t: where the brickmap's
// cell was sampled in the last round at that same t, from the brickmap; elsewhere (stale
// bricks, another t, outside the grid) from the same lattice sampled on demand: the trilinear
// interpolant of the exact displaced field at the 8 lattice points around p at t, which is what
// a bake at t would hold there. So `floptle query` at any t, soft-body particles between
// steps and the rigid bodies the rolling budget follows all read one baked field.
#include <memory>

#include "floptle/core/expected.h"
#include "floptle/physics/baked_field_collider.h"
#include "floptle/physics/field_collider.h"

namespace floptle::physics {

struct MorphColliderSettings {
  /// Lattice cell of the bake (m), > 0.
  float cell = 0.1f;
  /// Bricks re-sampled per step nearest the active bodies (-).
  int rebakeBudget = 64;
  /// Only bricks within this distance of an active body are re-sampled (m).
  float rebakeRadius = 4.0f;
};

class MorphCollider final : public CollisionShape {
 public:
  /// Bakes `displaced` (a node's morphed shape in its own space) placed at `world`, at t = 0.
  /// Refuses an unbounded shape (a bake covers the shape's bounds).
  static Expected<std::unique_ptr<MorphCollider>> make(const field::FieldNode& displaced,
                                                       const Transform& world,
                                                       const MorphColliderSettings& settings);

  bool changesWithTime() const override { return exact_->changesWithTime(); }
  bool updatesEachStep() const override { return exact_->changesWithTime(); }
  /// Re-samples the budget's bricks nearest the active bodies at t.
  void updateForStep(std::span<const Vec3> activeBodies, double t) override;
  std::shared_ptr<const StepState> saveStepState() const override;
  void restoreStepState(const StepState& state) override;
  std::uint64_t stepStateHash() const override;

  float distance(Vec3 p, double t) const override;
  Vec3 normal(Vec3 p, double t) const override;
  /// The displaced shape's box at t grown by one cell.
  Aabb aabb(double t) const override;

  /// The bake as it would be if sampled at t: the lattice interpolant at p (m) and its
  /// gradient (may be null).
  float latticeDistance(Vec3 p, double t, Vec3* gradient) const;
  const BakedFieldCollider& baked() const { return *baked_; }
  /// The exact displaced field the bake samples.
  const FieldCollider& exact() const { return *exact_; }
  /// When the brickmap's last round was sampled (s).
  double bakedAt() const { return bakedAt_; }

 private:
  MorphCollider(std::unique_ptr<BakedFieldCollider> baked, const FieldCollider* exact);
  /// True when the brickmap answers p at t (its cell was sampled in the last round at t).
  bool fromBrickmap(Vec3 p, double t) const;

  std::unique_ptr<BakedFieldCollider> baked_;
  /// The exact displaced field; owned by baked_ (its re-bake source).
  const FieldCollider* exact_;
  double bakedAt_ = 0.0;
};

}  // namespace floptle::physics
