#pragma once
// BakedFieldCollider: a sparse brickmap behind CollisionShape, with near/far LOD (seed 000,
// "Baked sparse SDF / voxel field colliders").
//
// Far from the active bodies every query reads the baked BrickMap (trilinear distance, gradient
// of the interpolated field). Within `nearRadius` of an active body, when an exact source shape
// is kept, queries go to the exact shape instead (exact contact where it matters). The exact
// source also feeds the rolling re-bake: each step, `rebake(t)` re-samples up to
// `rebakeBudget` bricks nearest the active bodies, so an animated field is followed a frame
// or two late far away and exactly near the player.
//
// Per-step protocol (the collision world, between steps, single-threaded):
//   collider.setActiveBodies(positions);   // the characters, vehicles, dynamic bodies (m)
//   collider.rebake(t);                    // spend the budget
// Queries are const and thread-safe between those calls.
#include <atomic>
#include <memory>
#include <span>
#include <vector>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"
#include "floptle/physics/collision_shape.h"

namespace floptle::physics {

struct BakedFieldSettings {
  /// Fine cell edge (m), > 0.
  float cellSize = 0.25f;
  /// Narrow-band half width (m); 0 = 3 cells.
  float bandWidth = 0.0f;
  /// Bake threads (>= 1).
  int threads = 1;
  /// Radius around each active body inside which the exact shape answers (m); 0 = never.
  float nearRadius = 0.0f;
  /// Bricks re-sampled per rebake() call (-); 0 = a static bake.
  int rebakeBudget = 0;
  /// Only top cells within this distance of an active body are re-baked (m).
  float rebakeRadius = 8.0f;
};

class BakedFieldCollider final : public CollisionShape {
 public:
  /// Bakes `exact` over its aabb(t) grown by the band (errors: unbounded or non-finite aabb,
  /// bad settings, cancellation). `exact` is kept for the near field and re-bakes.
  static Expected<std::unique_ptr<BakedFieldCollider>> bake(
      std::unique_ptr<CollisionShape> exact, const BakedFieldSettings& settings, double t,
      const BakeProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);
  /// Wraps an existing map (a mesh bake); `exact` may be null (then no near field, no re-bake).
  BakedFieldCollider(BrickMap map, std::unique_ptr<CollisionShape> exact,
                     const BakedFieldSettings& settings);

  /// Positions of the bodies that matter this step (m). Non-finite entries are ignored.
  void setActiveBodies(std::span<const Vec3> positions);
  /// Re-samples up to rebakeBudget bricks nearest the active bodies from the exact shape at
  /// time t; returns how many. No-op without an exact shape or active bodies.
  int rebake(double t);

  // CollisionShape
  /// The near field answers from the exact shape at t.
  bool changesWithTime() const override {
    return exact_ && settings_.nearRadius > 0.0f && exact_->changesWithTime();
  }
  /// With an exact shape kept: its near field follows the active bodies, and a budget re-bakes.
  bool updatesEachStep() const override {
    return exact_ && (settings_.nearRadius > 0.0f || settings_.rebakeBudget > 0);
  }
  /// setActiveBodies(activeBodies), then rebake(t).
  void updateForStep(std::span<const Vec3> activeBodies, double t) override;
  /// The brick map (bricks shared copy-on-write, see BrickMap::Snapshot) and the active bodies.
  std::shared_ptr<const StepState> saveStepState() const override;
  void restoreStepState(const StepState& state) override;
  /// The map's content hash, mixed with the active bodies' positions.
  std::uint64_t stepStateHash() const override;
  float distance(Vec3 p, double t) const override;
  Vec3 normal(Vec3 p, double t) const override;
  Aabb aabb(double t) const override;
  /// Baked-field fast path (empty-space skipping) when the cast stays clear of the near field
  /// and radius < band; otherwise not handled (the world sphere-marches distance()).
  CastResult castSphere(Vec3 origin, Vec3 unitDir, float radius, float maxDistance,
                        double t) const override;

  /// True when p is within nearRadius of an active body and an exact shape is kept.
  bool inNearField(Vec3 p) const;
  const BrickMap& brickMap() const { return map_; }
  const CollisionShape* exactShape() const { return exact_.get(); }

 private:
  BrickMap map_;
  std::unique_ptr<CollisionShape> exact_;
  BakedFieldSettings settings_;
  std::vector<Vec3> active_;
};

/// A DistanceBatchFn reading a CollisionShape point by point at time t.
DistanceBatchFn distanceBatchOf(const CollisionShape& shape, double t);

}  // namespace floptle::physics
