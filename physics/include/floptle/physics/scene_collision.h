#pragma once
// Building a scene's collision world: one collider per node that has a shape (a field
// collider under the node's world transform), a "mesh" component (a triangle-mesh collider)
// or a "terrain" component (its drawn triangles, or its field with "collision": "field"),
// unless its "collider" component says "collidable": false. Static analytic shapes that the
// interaction matrix blends (a merge or carve part of scene::compositionParts) share one
// ComposedFieldCollider over their composed field, named by the part's first node and
// answering each hit with the member nearer there; hard and ignore pairs keep one collider
// per node, whose minimum is their union. Colliders are added at once
// (CollisionWorld::addMany) in the scene's node order (depth-first, document order): without
// blended parts, collider i of the scene has index i.
#include <filesystem>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/mesh_collider.h"

namespace floptle::physics {

/// `sceneDir` resolves relative file paths of mesh components. The world is refit at t = 0.
/// options: the mesh cache, and progress over the whole world (each node an equal share, the
/// stage prefixed with the node's name) and cancel, checked before every node and polled by
/// mesh imports and bakes. Errors name the node's JSON pointer; a cancelled build answers
/// what = "cancelled".
Expected<CollisionWorld> buildCollisionWorld(const scene::Scene& scene,
                                             const std::filesystem::path& sceneDir,
                                             const ColliderBuildOptions& options = {});

/// After the scene's interaction rules changed in a running world (a rule, a k, a driver), its
/// static composition is made again as buildCollisionWorld makes it: every blended part gets a
/// new ComposedFieldCollider in place of its members' colliders, and a node that no longer
/// blends gets its own collider back in place of the part it led or sat in. Other colliders
/// (bodies, meshes, controllers, matter) keep their ids. All new colliders are built before
/// any is swapped, so an error (naming the node) leaves the world as it was. Returns the ids
/// added, refit at t.
Expected<std::vector<ColliderId>> recomposeBlendedColliders(const scene::Scene& scene,
                                                            CollisionWorld& world, double t);

}  // namespace floptle::physics
