#include "floptle/runtime/query_session.h"

#include "floptle/gravity/scene_gravity.h"
#include "floptle/physics/query_protocol.h"
#include "floptle/physics/scene_collision.h"

namespace floptle::runtime {

Expected<std::unique_ptr<QuerySession>> QuerySession::open(const scene::Scene& scene,
                                                           const std::filesystem::path& sceneDir,
                                                           physics::MeshColliderCache* meshCache) {
  physics::ColliderBuildOptions colliders;
  colliders.meshCache = meshCache;
  auto world = physics::buildCollisionWorld(scene, sceneDir, colliders);
  if (!world) return world.error();
  auto desc = gravity::sceneGravityField(scene);
  if (!desc) return desc.error();
  std::unique_ptr<QuerySession> session(
      new QuerySession(std::move(world.value()), gravity::GravityField(std::move(desc.value()))));
  // The density part samples the world at its final address.
  auto density = gravity::sceneDensityGravity(scene, session->field_.desc(), session->world_);
  if (!density) return density.error();
  session->field_.setSurface(&session->world_);
  session->field_.setDensity(std::move(density.value()));
  return session;
}

nlohmann::ordered_json QuerySession::answer(std::string_view line) {
  return physics::answerQueryLine(world_, line, &field_);
}

}  // namespace floptle::runtime
