#pragma once
// QuerySession: what `floptle query` answers from, assembled in one place for the CLI and the
// benchmarks: a scene's collision world (physics::buildCollisionWorld) and its gravity field
// (the scene's tiers, its surface and density parts reading that world).
#include <filesystem>
#include <memory>
#include <string_view>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"
#include "floptle/gravity/gravity_field.h"
#include "floptle/physics/collision_world.h"

namespace floptle::physics {
class MeshColliderCache;
}

namespace floptle::runtime {

class QuerySession {
 public:
  /// Builds the world and the field of `scene`, whose relative file paths start at
  /// `sceneDir`. `meshCache` (may be null, not owned) is what the mesh colliders go through.
  /// Errors name the JSON pointer of what could not be built.
  static Expected<std::unique_ptr<QuerySession>> open(const scene::Scene& scene,
                                                      const std::filesystem::path& sceneDir,
                                                      physics::MeshColliderCache* meshCache);

  /// One request line of the protocol (physics/query_protocol.h) answered; never throws.
  nlohmann::ordered_json answer(std::string_view line);

  physics::CollisionWorld& world() { return world_; }

  // The field keeps the world's address: neither copied nor moved.
  QuerySession(const QuerySession&) = delete;
  QuerySession& operator=(const QuerySession&) = delete;

 private:
  QuerySession(physics::CollisionWorld world, gravity::GravityField field)
      : world_(std::move(world)), field_(std::move(field)) {}

  physics::CollisionWorld world_;
  gravity::GravityField field_;
};

}  // namespace floptle::runtime
