#include "floptle/physics/scene_collision.h"

#include <memory>
#include <string>

#include "floptle/physics/field_collider.h"

// Triangle-mesh and drawn-surface colliders come from mesh_collider.h (MESH helper's file).
// INTEGRATION POINT: until that header exists, nodes with a "mesh" component are refused
// with an error that says so, and terrains collide with their field.
#if __has_include("floptle/physics/mesh_collider.h")
#include "floptle/physics/mesh_collider.h"
#define FLOPTLE_HAVE_MESH_COLLIDER 1
#else
#define FLOPTLE_HAVE_MESH_COLLIDER 0
#endif

namespace floptle::physics {

namespace {

BodyKind bodyKindOf(const scene::SceneNode& node) {
  if (!node.collider) return BodyKind::Static;
  switch (node.collider->body) {
    case scene::BodyType::Static: return BodyKind::Static;
    case scene::BodyType::Dynamic: return BodyKind::Dynamic;
    case scene::BodyType::Kinematic: return BodyKind::Kinematic;
  }
  return BodyKind::Static;
}

Error atNode(const scene::SceneNode& node, const std::string& sub, const Error& e) {
  std::string where = node.pointer + sub;
  if (!e.where.empty()) where += (e.where.front() == '/' ? "" : "/") + e.where;
  return Error{where, e.what};
}

Expected<std::unique_ptr<CollisionShape>> fieldShape(const scene::SceneNode& node) {
  if (!node.shape)
    return Error{node.pointer, "node '" + node.name + "' has no shape to collide with"};
  auto collider = FieldCollider::make(*node.shape, node.world);
  if (!collider) return atNode(node, "/shape", collider.error());
  return std::unique_ptr<CollisionShape>(
      std::make_unique<FieldCollider>(std::move(collider.value())));
}

/// The collider of one node, or nullptr when the node has nothing to collide with.
Expected<std::unique_ptr<CollisionShape>> colliderFor(const scene::SceneNode& node,
                                                      const std::filesystem::path& sceneDir) {
  if (node.hasComponent("mesh")) {
#if FLOPTLE_HAVE_MESH_COLLIDER
    auto mesh = makeMeshCollider(node.components["mesh"], sceneDir, node.world);
    if (!mesh) return atNode(node, "/mesh", mesh.error());
    return std::move(mesh.value());
#else
    (void)sceneDir;
    return Error{node.pointer + "/mesh", "triangle-mesh colliders are not built into this "
                                         "version (physics/mesh_collider.h missing)"};
#endif
  }
  if (node.hasComponent("terrain")) {
    const auto& terrain = node.components["terrain"];
    std::string mode = "drawn";
    if (terrain.is_object() && terrain.contains("collision")) {
      if (!terrain["collision"].is_string())
        return Error{node.pointer + "/terrain/collision", "must be \"drawn\" or \"field\""};
      mode = terrain["collision"].get<std::string>();
      if (mode != "drawn" && mode != "field")
        return Error{node.pointer + "/terrain/collision",
                     "must be \"drawn\" or \"field\", got \"" + mode + "\""};
    }
    // INTEGRATION POINT: "drawn" terrains collide with their extracted triangles through
    // MESH's makeDrawnSurfaceCollider; until it is wired here they collide with the field
    // the triangles are drawn from (the same surface within the extraction cell size).
    return fieldShape(node);
  }
  if (node.shape) return fieldShape(node);
  return std::unique_ptr<CollisionShape>{};
}

}  // namespace

Expected<CollisionWorld> buildCollisionWorld(const scene::Scene& scene,
                                             const std::filesystem::path& sceneDir) {
  CollisionWorld world;
  for (const scene::SceneNode& node : scene.nodes) {
    if (node.collider && !node.collider->collidable) continue;
    auto shape = colliderFor(node, sceneDir);
    if (!shape) return shape.error();
    if (!shape.value()) continue;
    world.add(std::move(shape.value()), node.name, bodyKindOf(node));
  }
  world.refit(0.0);
  return world;
}

}  // namespace floptle::physics
