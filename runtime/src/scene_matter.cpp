// The soft bodies of a scene (scene_matter.h).
#include "floptle/runtime/scene_matter.h"

#include <algorithm>

#include "floptle/core/scene/component_values.h"
#include "floptle/matter/matter_model.h"
#include "floptle/matter/soft_body_surface_map.h"

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
      desc.material = m->displayId;
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

Expected<std::vector<MatterSurface>> matterSurfaces(physics::Simulation& sim) {
  auto* stage = dynamic_cast<matter::SoftBodyStage*>(sim.matterStage());
  std::vector<MatterSurface> out;
  if (!stage || stage->bodies().empty()) return out;
  const std::vector<matter::SoftBody>& bodies = stage->bodies();
  if (!stage->surfaceMaps().empty()) {
    for (const std::shared_ptr<matter::SoftBodySurfaceMap>& map : stage->surfaceMaps()) {
      MatterSurface s;
      s.map = &map->map();
      s.firstBody = map->names().front();
      if (const matter::SoftBody* b = stage->find(s.firstBody)) s.material = b->desc().material;
      s.changedCells = map->takeChangedCells();
      out.push_back(std::move(s));
    }
    return out;
  }
  const physics::CollisionWorld& world = sim.world();
  Aabb bodyBox;
  for (const matter::SoftBody& b : bodies) {
    const Aabb box = b.bounds();
    bodyBox.min = glm::min(bodyBox.min, box.min), bodyBox.max = glm::max(bodyBox.max, box.max);
  }
  // Where matter can go: the static world's finite bounds and the bodies', but never farther
  // than kMatterReach from the bodies (a ground plane's bounds are unbounded in practice).
  Aabb reach = bodyBox;
  for (physics::ColliderId id : world.ids()) {
    const Aabb box = world.shape(id).aabb(0.0);
    if (isFinite(box.min) && isFinite(box.max))
      reach.min = glm::min(reach.min, box.min), reach.max = glm::max(reach.max, box.max);
  }
  reach.min = glm::max(reach.min, bodyBox.min - Vec3(kMatterReach));
  reach.max = glm::min(reach.max, bodyBox.max + Vec3(kMatterReach));
  // The bodies' nodes grouped by material, in the order of each material's first body.
  struct Group {
    std::string material;
    std::vector<std::string> names;
    std::vector<matter::RestField> rest;
  };
  std::vector<Group> groups;
  for (const matter::SoftBody& b : bodies) {
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const Group& g) { return g.material == b.desc().material; });
    if (group == groups.end())
      group = groups.insert(groups.end(), Group{b.desc().material, {}, {}});
    if (std::find(group->names.begin(), group->names.end(), b.name()) != group->names.end())
      continue;
    const physics::CollisionShape* shape = nullptr;
    if (const std::optional<physics::ColliderId> id = world.find(b.name()))
      shape = &world.shape(*id);
    if (!shape) return Error{b.name(), "a soft body's node has no collider for its surface"};
    group->names.push_back(b.name());
    group->rest.push_back([shape](Vec3 p) { return shape->distance(p, 0.0); });
  }
  std::vector<std::shared_ptr<matter::SoftBodySurfaceMap>> maps;
  for (Group& g : groups) {
    const std::string first = g.names.front();
    auto map = matter::SoftBodySurfaceMap::build(bodies, std::move(g.names), std::move(g.rest),
                                                 reach, first);
    if (!map) return map.error();
    maps.push_back(std::make_shared<matter::SoftBodySurfaceMap>(std::move(*map)));
    MatterSurface s;
    s.map = &maps.back()->map();
    s.material = g.material;
    s.firstBody = first;
    s.whole = true;
    out.push_back(std::move(s));
  }
  stage->setSurfaceMaps(std::move(maps));
  return out;
}

}  // namespace floptle::runtime
