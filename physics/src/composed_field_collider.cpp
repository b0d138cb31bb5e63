#include "floptle/physics/composed_field_collider.h"

#include <algorithm>

#include "floptle/core/field/morph.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/physics/morph_collider.h"

namespace floptle::physics {

Expected<ComposedFieldCollider> ComposedFieldCollider::make(const scene::Scene& scene,
                                                            const std::vector<int>& nodes) {
  const scene::SceneNode& first = scene.nodes[static_cast<std::size_t>(nodes.front())];
  // The morph members' terms read with their errors (the composition skips a morph that does
  // not read), and the finest bake cell among them.
  std::optional<float> cell;
  for (int index : nodes) {
    const scene::SceneNode& node = scene.nodes[static_cast<std::size_t>(index)];
    if (!node.hasComponent("matter") || node.components["matter"].value("tier", "") != "morph")
      continue;
    auto morph = field::readMorph(node.components["matter"], node.pointer + "/matter");
    if (!morph) return morph.error();
    cell = std::min(cell.value_or(morph->bakeCell), morph->bakeCell);
  }
  const field::FieldNode composed =
      scene::composeNodes(scene, nodes, scene::SurfaceLabel::NodeOrdinal);
  // Composed in world space already: placed at the identity.
  std::unique_ptr<CollisionShape> shape;
  const FieldCollider* exact = nullptr;
  if (cell) {
    MorphColliderSettings settings;
    settings.cell = *cell;
    auto baked = MorphCollider::make(composed, Transform::identity(), settings);
    if (!baked) return Error{first.pointer + "/matter", baked.error().message()};
    exact = &baked.value()->exact();
    shape = std::move(baked.value());
  } else {
    auto field = FieldCollider::make(composed, Transform::identity());
    if (!field) return Error{first.pointer + "/shape", field.error().message()};
    auto owned = std::make_unique<FieldCollider>(std::move(field.value()));
    exact = owned.get();
    shape = std::move(owned);
  }
  ComposedFieldCollider collider(std::move(shape), exact, cell.has_value());
  for (int index : nodes) {
    const scene::SceneNode& node = scene.nodes[static_cast<std::size_t>(index)];
    collider.nodes_.push_back(node.name);
    const scene::Material* material = scene.material(scene::surfaceMaterialOf(node));
    collider.materials_.push_back(material ? material->displayId : std::string());
  }
  return collider;
}

std::optional<CollisionShape::Member> ComposedFieldCollider::memberAt(Vec3 p, double t) const {
  const field::MaterialIndex label = exact_->program().sample(p, t).material;
  if (label == 0 || label > nodes_.size()) return std::nullopt;
  return Member{&nodes_[label - 1u], &materials_[label - 1u]};
}

}  // namespace floptle::physics
