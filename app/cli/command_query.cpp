// floptle query SCENE: the collision-query line protocol (physics/query_protocol.h) over
// stdin/stdout. One answer per non-empty line, in order, flushed after each.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "commands.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/runtime/query_session.h"

namespace floptle::cli {

int runQuery(Args args) {
  if (args.size() != 1 || args[0].empty() || args[0].front() == '-') {
    std::fputs("usage: floptle query SCENE   (one JSON query per line on stdin)\n", stderr);
    return 2;
  }
  const std::filesystem::path path{std::string(args[0])};
  auto loaded = scene::loadScene(path);
  if (!loaded) {
    std::fprintf(stderr, "floptle query: %s\n", loaded.error().message().c_str());
    return 1;
  }
  physics::MeshColliderCache meshCache;  // this run's
  auto session = runtime::QuerySession::open(loaded->scene, path.parent_path(), &meshCache);
  if (!session) {
    std::fprintf(stderr, "floptle query: %s\n", session.error().message().c_str());
    return 1;
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r\n") == std::string::npos) continue;  // empty line
    const std::string answer = session.value()->answer(line).dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::fwrite(answer.data(), 1, answer.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace floptle::cli
