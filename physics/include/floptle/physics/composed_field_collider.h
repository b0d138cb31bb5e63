#pragma once
// ComposedFieldCollider: one collider over the composed field of several static nodes that
// the interaction matrix blends (scene_composition.h: a merge or carve part), so closest,
// overlaps and casts answer the blended surface itself, not each node's own. The field is
// composed in world space by scene::composeNodes with each node's shape labelled by its
// position among the members; a hit names the member whose label the field reports there,
// which is the nearer child wherever two fields meet (the same rule that picks materials).
#include <string>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"
#include "floptle/physics/field_collider.h"

namespace floptle::physics {

class ComposedFieldCollider final : public CollisionShape {
 public:
  /// Composes `nodes` (indices into scene.nodes, each with a shape; a blended part of
  /// scene::compositionParts) and compiles the result. Errors name the first member's node.
  static Expected<ComposedFieldCollider> make(const scene::Scene& scene,
                                              const std::vector<int>& nodes);

  bool changesWithTime() const override { return field_.changesWithTime(); }
  float distance(Vec3 p, double t) const override { return field_.distance(p, t); }
  Vec3 normal(Vec3 p, double t) const override { return field_.normal(p, t); }
  Aabb aabb(double t) const override { return field_.aabb(t); }
  std::optional<Member> memberAt(Vec3 p, double t) const override;

  /// Names of the composed nodes, in scene order.
  const std::vector<std::string>& memberNodes() const { return nodes_; }

 private:
  explicit ComposedFieldCollider(FieldCollider field) : field_(std::move(field)) {}

  FieldCollider field_;
  /// Per member (by label - 1): its node's name and its material's id ("" for none).
  std::vector<std::string> nodes_;
  std::vector<std::string> materials_;
};

}  // namespace floptle::physics
