#include "floptle/physics/scene_collision.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floptle/core/field/morph.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/physics/baked_field_file.h"
#include "floptle/physics/composed_field_collider.h"
#include "floptle/physics/field_collider.h"
#include "floptle/physics/mesh_collider.h"
#include "floptle/physics/morph_collider.h"

namespace floptle::physics {

namespace {

BodyKind bodyKindOf(const scene::SceneNode& node) {
  if (!node.collider) return BodyKind::Static;
  switch (node.collider->body) {
    case scene::BodyType::Static:
      return BodyKind::Static;
    case scene::BodyType::Dynamic:
      return BodyKind::Dynamic;
    case scene::BodyType::Kinematic:
      return BodyKind::Kinematic;
  }
  return BodyKind::Static;
}

Error atNode(const scene::SceneNode& node, const std::string& sub, const Error& e) {
  std::string where = node.pointer + sub;
  if (!e.where.empty()) where += (e.where.front() == '/' ? "" : "/") + e.where;
  return Error{where, e.what};
}

/// The node's shape as a collider; its program comes from `programs` when given.
Expected<std::unique_ptr<CollisionShape>> fieldShape(const scene::SceneNode& node,
                                                     field::ProgramCache* programs) {
  if (!node.shape)
    return Error{node.pointer, "node '" + node.name + "' has no shape to collide with"};
  auto collider = FieldCollider::make(*node.shape, node.world, programs);
  if (!collider) return atNode(node, "/shape", collider.error());
  return std::unique_ptr<CollisionShape>(
      std::make_unique<FieldCollider>(std::move(collider.value())));
}

/// The collider of one node, or nullptr when the node has nothing to collide with.
/// "mesh" and "terrain" components go to mesh_collider.h's factories, "baked_field" (a .vdb
/// level set) to baked_field_file.h's (their errors name the member, "mesh/file"; the node's
/// pointer is prefixed here). Field programs come from `programs` when given.
Expected<std::unique_ptr<CollisionShape>> colliderFor(const scene::SceneNode& node,
                                                      const std::filesystem::path& sceneDir,
                                                      const ColliderBuildOptions& options,
                                                      field::ProgramCache* programs) {
  if (node.hasComponent("mesh")) {
    auto mesh = makeMeshCollider(node.components["mesh"], sceneDir, node.world, options);
    if (!mesh) return atNode(node, "", mesh.error());
    return std::move(mesh.value());
  }
  if (node.hasComponent("terrain")) {
    auto field = fieldShape(node, programs);
    if (!field) return field.error();
    auto terrain = makeTerrainCollider(node.components["terrain"], std::move(field.value()), 0.0);
    if (!terrain) return atNode(node, "", terrain.error());
    return std::move(terrain.value());
  }
  if (node.hasComponent("baked_field")) {
    auto baked = makeBakedFieldFileCollider(node.components["baked_field"], sceneDir, node.world);
    if (!baked) return atNode(node, "", baked.error());
    return std::move(baked.value());
  }
  if (node.shape && node.hasComponent("matter") &&
      node.components["matter"].value("tier", "") == "morph") {
    // Read here with its errors (the composition skips a morph that does not read).
    auto morph = field::readMorph(node.components["matter"], node.pointer + "/matter");
    if (!morph) return morph.error();
    MorphColliderSettings settings;
    settings.cell = morph->bakeCell;
    auto collider = MorphCollider::make(scene::morphedShape(node), node.world, settings);
    if (!collider) return atNode(node, "/matter", collider.error());
    return std::unique_ptr<CollisionShape>(std::move(collider.value()));
  }
  if (node.shape) return fieldShape(node, programs);
  return std::unique_ptr<CollisionShape>{};
}

/// Whether a node's field takes part in the composed static world: a static, collidable
/// shape that no system moves or replaces (meshes, terrains, baked fields, bodies,
/// controllers and simulated matter keep their own collider). A morph's field is a function
/// of (p, t) alone, so it composes: a blended part with a morph member is baked.
bool composesStatically(const scene::SceneNode& node) {
  if (!node.shape || bodyKindOf(node) != BodyKind::Static) return false;
  if (node.collider && !node.collider->collidable) return false;
  for (const char* own : {"mesh", "terrain", "baked_field", "character", "vehicle", "drift"})
    if (node.hasComponent(own)) return false;
  if (node.hasComponent("matter")) {
    const std::string tier = node.components["matter"].value("tier", "rigid");
    if (tier != "rigid" && tier != "morph") return false;
  }
  return true;
}

/// For each node index, the blended part of the static composition it leads (its first
/// node), and for every other member of that part -1: its field is in the leader's collider.
/// Nodes outside any blended part map to nothing (absent).
std::map<int, std::vector<int>> blendedParts(const scene::Scene& scene) {
  std::vector<int> statics;
  for (std::size_t i = 0; i < scene.nodes.size(); ++i)
    if (composesStatically(scene.nodes[i])) statics.push_back(static_cast<int>(i));
  std::map<int, std::vector<int>> parts;
  for (scene::CompositionPart& part : scene::compositionParts(scene, statics)) {
    if (!part.blended) continue;
    for (std::size_t i = 1; i < part.nodes.size(); ++i) parts[part.nodes[i]] = {};
    parts[part.nodes.front()] = std::move(part.nodes);
  }
  return parts;
}

}  // namespace

Expected<CollisionWorld> buildCollisionWorld(const scene::Scene& scene,
                                             const std::filesystem::path& sceneDir,
                                             const ColliderBuildOptions& options) {
  const std::map<int, std::vector<int>> blended = blendedParts(scene);
  std::vector<CollisionWorld::NewCollider> colliders;
  colliders.reserve(scene.nodes.size());
  // A level's copies of one prop share one compiled program.
  field::ProgramCache programs;
  const float share =
      scene.nodes.empty() ? 1.0f : 1.0f / float(scene.nodes.size());  // per node (-)
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    const scene::SceneNode& node = scene.nodes[i];
    if (options.cancel && options.cancel->load()) return Error{"", "cancelled"};
    if (node.collider && !node.collider->collidable) continue;
    ColliderBuildOptions nodeOptions = options;
    if (options.progress) {
      const float start = float(i) * share;
      nodeOptions.progress = [&options, &node, start, share](float fraction,
                                                             std::string_view stage) {
        options.progress(start + fraction * share, "'" + node.name + "': " + std::string(stage));
      };
      options.progress(start, "'" + node.name + "'");
    }
    Expected<std::unique_ptr<CollisionShape>> shape = std::unique_ptr<CollisionShape>{};
    if (const auto part = blended.find(static_cast<int>(i)); part == blended.end()) {
      shape = colliderFor(node, sceneDir, nodeOptions, &programs);
    } else if (!part->second.empty()) {
      auto composed = ComposedFieldCollider::make(scene, part->second);
      if (!composed) return composed.error();
      shape = std::unique_ptr<CollisionShape>(
          std::make_unique<ComposedFieldCollider>(std::move(composed.value())));
    }
    if (!shape) return shape.error();
    if (!shape.value()) continue;
    colliders.push_back({std::move(shape.value()), node.name, bodyKindOf(node)});
  }
  if (options.cancel && options.cancel->load()) return Error{"", "cancelled"};
  CollisionWorld world;
  world.addMany(std::move(colliders));
  world.refit(0.0);
  if (options.progress) options.progress(1.0f, "collision world built");
  return world;
}

Expected<std::vector<ColliderId>> recomposeBlendedColliders(const scene::Scene& scene,
                                                            CollisionWorld& world, double t) {
  // Build every new collider first: an error leaves the world as it was.
  struct Replacement {
    std::unique_ptr<CollisionShape> shape;
    std::string name;
    std::vector<std::string> replaces;  ///< the nodes whose colliders it takes over
  };
  std::vector<Replacement> replacements;
  const std::map<int, std::vector<int>> blended = blendedParts(scene);
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    const scene::SceneNode& node = scene.nodes[i];
    if (!composesStatically(node)) continue;
    const auto part = blended.find(static_cast<int>(i));
    if (part != blended.end()) {
      if (part->second.empty()) continue;  // a member: in its leader's collider
      auto composed = ComposedFieldCollider::make(scene, part->second);
      if (!composed) return composed.error();
      Replacement r{
          std::make_unique<ComposedFieldCollider>(std::move(composed.value())), node.name, {}};
      for (int member : part->second) r.replaces.push_back(scene.nodes[std::size_t(member)].name);
      replacements.push_back(std::move(r));
      continue;
    }
    // Alone now: only a node that had no collider of its own (a member of a part) or led one
    // needs its own back.
    const std::optional<ColliderId> id = world.find(node.name);
    if (id && !dynamic_cast<const ComposedFieldCollider*>(&world.shape(*id))) continue;
    auto own = colliderFor(node, {}, {}, nullptr);
    if (!own) return own.error();
    if (!own.value()) continue;
    replacements.push_back({std::move(own.value()), node.name, {node.name}});
  }
  std::vector<ColliderId> added;
  for (Replacement& r : replacements) {
    for (const std::string& name : r.replaces)
      if (const std::optional<ColliderId> old = world.find(name)) {
        if (auto removed = world.remove(*old); !removed) return removed.error();
      }
    added.push_back(world.add(std::move(r.shape), r.name, BodyKind::Static, true));
  }
  world.refitColliders(added, t);
  return added;
}

}  // namespace floptle::physics
