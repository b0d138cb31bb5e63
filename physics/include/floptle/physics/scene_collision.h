#pragma once
// Building a scene's collision world: one collider per node that has a shape (a field
// collider under the node's world transform), a "mesh" component (a triangle-mesh collider)
// or a "terrain" component (its drawn triangles, or its field with "collision": "field"),
// unless its "collider" component says "collidable": false. Colliders are added at once
// (CollisionWorld::addMany) in the scene's node order (depth-first, document order), so
// collider i of the scene has index i.
#include <filesystem>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"
#include "floptle/physics/collision_world.h"

namespace floptle::physics {

/// `sceneDir` resolves relative file paths of mesh components. The world is refit at t = 0.
/// Errors name the node's JSON pointer.
Expected<CollisionWorld> buildCollisionWorld(const scene::Scene& scene,
                                             const std::filesystem::path& sceneDir);

}  // namespace floptle::physics
