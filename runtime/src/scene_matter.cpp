// The soft bodies of a scene (scene_matter.h).
#include "floptle/runtime/scene_matter.h"

#include "floptle/core/scene/component_values.h"
#include "floptle/matter/matter_model.h"

namespace floptle::runtime {

Expected<bool> isSoftBody(const scene::SceneNode& node) {
  if (!node.hasComponent("matter")) return false;
  auto model = matter::readMatterModel(node.components["matter"], node.pointer + "/matter");
  if (!model) return model.error();
  return model->tier == matter::MatterTier::SoftBody || model->tier == matter::MatterTier::Visco;
}

Expected<std::unique_ptr<matter::SoftBodyStage>> buildSoftBodies(
    const scene::Scene& sc, const physics::CollisionWorld& world) {
  std::unique_ptr<matter::SoftBodyStage> stage;
  for (const scene::SceneNode& node : sc.nodes) {
    if (!node.hasComponent("matter")) continue;
    const std::string pointer = node.pointer + "/matter";
    auto model = matter::readMatterModel(node.components["matter"], pointer);
    if (!model) return model.error();
    if (model->tier != matter::MatterTier::SoftBody && model->tier != matter::MatterTier::Visco)
      continue;
    physics::ColliderId collider;
    for (physics::ColliderId id : world.ids())
      if (world.nodeName(id) == node.name) collider = id;
    if (!node.shape || collider.null())
      return Error{pointer, "a soft body needs a node with a shape"};
    const physics::CollisionShape& shape = world.shape(collider);
    matter::SoftBodyDesc desc;
    desc.name = node.name;
    desc.knobs = model->softBody;
    desc.visco = model->tier == matter::MatterTier::Visco;
    desc.viscoKnobs = model->visco;
    if (const scene::Material* m = sc.material(node.material)) {
      desc.density = m->density;
      desc.friction = m->friction;
      desc.bulkModulus = m->bulkModulus;
      desc.yieldStrength = m->yieldStrength;
    }
    if (node.hasComponent("collider")) {
      auto in = scene::ComponentReader::open(node.components["collider"], "collider",
                                             node.pointer + "/collider");
      if (!in) return in.error();
      if (auto r = in->vec3("velocity", desc.velocity); !r) return r.error();
    }
    auto body = matter::SoftBody::build(
        desc, [&shape](Vec3 p) { return shape.distance(p, 0.0); }, shape.aabb(0.0), pointer);
    if (!body) return body.error();
    if (!stage) stage = std::make_unique<matter::SoftBodyStage>();
    stage->add(std::move(body.value()));
  }
  return stage;
}

std::optional<matter::MatterCounts> matterCounts(const physics::Simulation& sim) {
  const auto* stage = dynamic_cast<const matter::SoftBodyStage*>(sim.matterStage());
  if (!stage) return std::nullopt;
  return stage->counts();
}

}  // namespace floptle::runtime
