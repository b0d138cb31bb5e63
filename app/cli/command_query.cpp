// floptle query SCENE: the collision-query line protocol (physics/query_protocol.h) over
// stdin/stdout. One answer per non-empty line, in order, flushed after each.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "commands.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/gravity/gravity_field.h"
#include "floptle/gravity/scene_gravity.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/physics/query_protocol.h"
#include "floptle/physics/scene_collision.h"

namespace floptle::cli {

int runQuery(Args args) {
  if (args.size() != 1 || args[0].empty() || args[0].front() == '-') {
    std::fputs("usage: floptle query SCENE   (one JSON query per line on stdin)\n", stderr);
    return 2;
  }
  const std::filesystem::path path{std::string(args[0])};
  auto document = scene::loadSceneFile(path);
  if (!document) {
    std::fprintf(stderr, "floptle query: %s\n", document.error().message().c_str());
    return 1;
  }
  auto model = scene::buildScene(document.value());
  if (!model) {
    std::fprintf(stderr, "floptle query: %s\n", model.error().message().c_str());
    return 1;
  }
  physics::MeshColliderCache meshCache;  // this run's
  physics::ColliderBuildOptions colliders;
  colliders.meshCache = &meshCache;
  auto world = physics::buildCollisionWorld(model.value(), path.parent_path(), colliders);
  if (!world) {
    std::fprintf(stderr, "floptle query: %s\n", world.error().message().c_str());
    return 1;
  }
  auto gravityField = gravity::sceneGravityField(model.value());
  if (!gravityField) {
    std::fprintf(stderr, "floptle query: %s\n", gravityField.error().message().c_str());
    return 1;
  }
  auto density = gravity::sceneDensityGravity(model.value(), gravityField.value(), world.value());
  if (!density) {
    std::fprintf(stderr, "floptle query: %s\n", density.error().message().c_str());
    return 1;
  }
  gravity::GravityField field(std::move(gravityField.value()));
  field.setSurface(&world.value());
  field.setDensity(std::move(density.value()));
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;  // empty line
    const std::string answer = physics::answerQueryLine(world.value(), line, &field)
                                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::fwrite(answer.data(), 1, answer.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace floptle::cli
