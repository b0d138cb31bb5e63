// floptle validate SCENE: load and check a scene document.
//   exit 0: "SCENE: ok (N nodes, M materials)" on stdout
//   exit 1: "SCENE: invalid scene" and every problem, one `/json/pointer: what` per line, on stderr
//           (a mesh or baked-field file the scene names that is not there is one)
//   exit 2: usage error
#include <cstdio>
#include <filesystem>
#include <string>

#include "commands.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_files.h"
#include "floptle/core/scene/scene_io.h"

namespace floptle::cli {

int runValidate(Args args) {
  if (args.size() != 1 || args[0].empty() || args[0].front() == '-') {
    const bool help = args.size() == 1 && (args[0] == "--help" || args[0] == "-h");
    std::fputs("usage: floptle validate SCENE\n"
               "  Checks a scene document against its schema and rules, and that the mesh and\n"
               "  baked-field files it names are there; prints\n"
               "  \"SCENE: ok (N nodes, M materials)\" or every problem, one per line.\n",
               help ? stdout : stderr);
    return help ? 0 : 2;
  }
  const std::string path(args[0]);
  auto document = scene::loadSceneFile(path);
  if (!document) {
    std::fprintf(stderr, "%s: invalid scene\n%s\n", path.c_str(),
                 document.error().message().c_str());
    return 1;
  }
  auto built = scene::buildScene(*document);
  if (!built) {  // loadSceneFile already ran these checks; kept for safety
    std::fprintf(stderr, "%s: invalid scene\n%s\n", path.c_str(), built.error().message().c_str());
    return 1;
  }
  // The files its nodes name (meshes, baked fields), relative to the scene's folder.
  const auto missing = scene::missingReferencedFiles(*built, std::filesystem::path(path).parent_path());
  if (!missing.empty()) {
    std::fprintf(stderr, "%s: invalid scene\n", path.c_str());
    for (const Error& problem : missing) std::fprintf(stderr, "%s\n", problem.message().c_str());
    return 1;
  }
  std::printf("%s: ok (%zu nodes, %zu materials)\n", path.c_str(), built->nodes.size(),
              built->materials.size());
  return 0;
}

}  // namespace floptle::cli
