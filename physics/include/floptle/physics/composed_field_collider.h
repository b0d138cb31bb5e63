#pragma once
// ComposedFieldCollider: one collider over the composed field of several static nodes that
// the interaction matrix blends (scene_composition.h: a merge or carve part), so closest,
// overlaps and casts answer the blended surface itself, not each node's own. The field is
// composed in world space by scene::composeNodes with each node's shape labelled by its
// position among the members; a hit names the member whose label the field reports there,
// which is the nearer child wherever two fields meet (the same rule that picks materials).
//
// When a member's matter tier is morph, the composed field carries its warp and is no longer
// 1-Lipschitz, so it is collided through a bake (MorphCollider) of cell h = the smallest
// "bake": {"cell": h} of the morph members, re-baked on the rolling budget near the active
// bodies and answered at any t as the bake at t would hold (morph_collider.h). The member a
// hit names is still read from the exact composed field at the point.
#include <memory>
#include <string>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"
#include "floptle/physics/field_collider.h"

namespace floptle::physics {

class ComposedFieldCollider final : public CollisionShape {
 public:
  /// Composes `nodes` (indices into scene.nodes, each with a shape; a blended part of
  /// scene::compositionParts) and compiles (or, with a morph member, bakes) the result.
  /// Errors name the first member's node, or the morph member's bad key.
  static Expected<ComposedFieldCollider> make(const scene::Scene& scene,
                                              const std::vector<int>& nodes);

  bool changesWithTime() const override { return shape_->changesWithTime(); }
  bool updatesEachStep() const override { return shape_->updatesEachStep(); }
  void updateForStep(std::span<const Vec3> activeBodies, double t) override {
    shape_->updateForStep(activeBodies, t);
  }
  std::shared_ptr<const StepState> saveStepState() const override {
    return shape_->saveStepState();
  }
  void restoreStepState(const StepState& state) override { shape_->restoreStepState(state); }
  std::uint64_t stepStateHash() const override { return shape_->stepStateHash(); }
  float distance(Vec3 p, double t) const override { return shape_->distance(p, t); }
  Vec3 normal(Vec3 p, double t) const override { return shape_->normal(p, t); }
  Aabb aabb(double t) const override { return shape_->aabb(t); }
  std::optional<Member> memberAt(Vec3 p, double t) const override;

  /// Names of the composed nodes, in scene order.
  const std::vector<std::string>& memberNodes() const { return nodes_; }
  /// True when a member is a morph and the composed field is collided through its bake.
  bool baked() const { return baked_; }

 private:
  ComposedFieldCollider(std::unique_ptr<CollisionShape> shape, const FieldCollider* exact,
                        bool baked)
      : shape_(std::move(shape)), exact_(exact), baked_(baked) {}

  /// The exact composed field (a FieldCollider) or its bake (a MorphCollider).
  std::unique_ptr<CollisionShape> shape_;
  /// The exact composed field, owned by shape_: the labels that name a hit's member.
  const FieldCollider* exact_ = nullptr;
  bool baked_ = false;
  /// Per member (by label - 1): its node's name and its material's id ("" for none).
  std::vector<std::string> nodes_;
  std::vector<std::string> materials_;
};

}  // namespace floptle::physics
