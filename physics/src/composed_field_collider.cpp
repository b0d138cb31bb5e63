#include "floptle/physics/composed_field_collider.h"

#include "floptle/core/scene/scene_composition.h"

namespace floptle::physics {

Expected<ComposedFieldCollider> ComposedFieldCollider::make(const scene::Scene& scene,
                                                            const std::vector<int>& nodes) {
  const field::FieldNode composed =
      scene::composeNodes(scene, nodes, scene::SurfaceLabel::NodeOrdinal);
  // Composed in world space already: placed at the identity.
  auto field = FieldCollider::make(composed, Transform::identity());
  if (!field) {
    const scene::SceneNode& first = scene.nodes[static_cast<std::size_t>(nodes.front())];
    return Error{first.pointer + "/shape", field.error().message()};
  }
  ComposedFieldCollider collider(std::move(field.value()));
  for (int index : nodes) {
    const scene::SceneNode& node = scene.nodes[static_cast<std::size_t>(index)];
    collider.nodes_.push_back(node.name);
    const scene::Material* material = scene.material(scene::surfaceMaterialOf(node));
    collider.materials_.push_back(material ? material->displayId : std::string());
  }
  return collider;
}

std::optional<CollisionShape::Member> ComposedFieldCollider::memberAt(Vec3 p, double t) const {
  const field::MaterialIndex label = field_.program().sample(p, t).material;
  if (label == 0 || label > nodes_.size()) return std::nullopt;
  return Member{&nodes_[label - 1u], &materials_[label - 1u]};
}

}  // namespace floptle::physics
