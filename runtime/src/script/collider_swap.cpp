// Replacing world colliders from the scripts' scene copy (collider_swap.h).
#include "script/collider_swap.h"

#include <algorithm>

#include "floptle/physics/composed_field_collider.h"
#include "floptle/physics/field_collider.h"
#include "world_surfaces.h"

namespace floptle::runtime::script {

Expected<physics::ColliderId> replaceColliders(ScriptContext& ctx, physics::Simulation& sim,
                                               const std::vector<int>& nodes) {
  physics::CollisionWorld& world = sim.world();
  const scene::SceneNode& first = ctx.scene.nodes[std::size_t(nodes.front())];
  std::unique_ptr<physics::CollisionShape> shape;
  if (nodes.size() == 1) {
    if (!first.shape) return Error{first.pointer, "the node has no shape"};
    auto made = physics::FieldCollider::make(*first.shape, first.world);
    if (!made) return made.error();
    shape = std::make_unique<physics::FieldCollider>(std::move(made.value()));
  } else {
    auto made = physics::ComposedFieldCollider::make(ctx.scene, nodes);
    if (!made) return made.error();
    shape = std::make_unique<physics::ComposedFieldCollider>(std::move(made.value()));
  }
  physics::BodyKind kind = physics::BodyKind::Static;
  if (first.collider && first.collider->body == scene::BodyType::Kinematic)
    kind = physics::BodyKind::Kinematic;
  for (int n : nodes) {
    const std::string& name = ctx.scene.nodes[std::size_t(n)].name;
    if (auto id = world.find(name)) {
      if (auto removed = world.remove(*id); !removed) return removed.error();
    }
  }
  const physics::ColliderId id = world.add(std::move(shape), first.name, kind, true);
  world.refitColliders({id}, sim.time());
  sim.bodies().setWorldMaterials(worldSurfaces(ctx.scene, world));
  for (int n : nodes) {
    auto at = std::lower_bound(ctx.changedNodes.begin(), ctx.changedNodes.end(), n);
    if (at == ctx.changedNodes.end() || *at != n) ctx.changedNodes.insert(at, n);
  }
  ++ctx.sceneRevision;
  return id;
}

}  // namespace floptle::runtime::script
