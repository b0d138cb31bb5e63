// floptle validate SCENE [--warnings]: load and check a scene document.
//   exit 0: "SCENE: ok (N nodes, M materials)" on stdout
//   exit 1: "SCENE: invalid scene" and every problem, one `/json/pointer: what` per line, on stderr
//           (a mesh or baked-field file the scene names that is not there is one)
//   exit 2: usage error
// --warnings: then, for a scene that loads, what is wrong or suspicious in it
// (runtime::findSceneProblems), one per line on stdout, "warning: POINTER: what (kind); fix:
// ..."; warnings leave the exit status as it was.
#include <cstdio>
#include <filesystem>
#include <string>

#include "commands.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_files.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/runtime/scene_problems.h"

namespace floptle::cli {

namespace {

constexpr const char* kUsage =
    "usage: floptle validate SCENE [--warnings]\n"
    "  Checks a scene document against its schema and rules, and that the mesh and\n"
    "  baked-field files it names are there; prints\n"
    "  \"SCENE: ok (N nodes, M materials)\" or every problem, one per line.\n"
    "  --warnings  then lists, one per line, what is suspicious though the scene loads, with\n"
    "              its node and fix: a missing file, an unused material or rule, a character\n"
    "              spawned inside geometry, a collider of zero volume, a dynamic body with no\n"
    "              shape, a collider warped by a twist and not baked (warnings do not change\n"
    "              the exit status)\n";

void printWarnings(const scene::Scene& built, const std::filesystem::path& folder) {
  for (const runtime::SceneProblem& p : runtime::findSceneProblems(built, folder)) {
    const std::string kind(runtime::problemKindName(p.kind));
    std::printf("warning: %s: %s (%s)%s%s\n", p.pointer.c_str(), p.what.c_str(), kind.c_str(),
                p.fix.empty() ? "" : "; fix: ", p.fix.c_str());
  }
}

}  // namespace

int runValidate(Args args) {
  std::string path;
  bool warnings = false, help = false, usage = false;
  for (const std::string_view arg : args) {
    if (arg == "--warnings") {
      warnings = true;
    } else if (arg == "--help" || arg == "-h") {
      help = true;
    } else if (arg.empty() || arg.front() == '-' || !path.empty()) {
      usage = true;
    } else {
      path = std::string(arg);
    }
  }
  if (help || usage || path.empty()) {
    std::fputs(kUsage, help && !usage ? stdout : stderr);
    return help && !usage ? 0 : 2;
  }
  auto loaded = scene::loadScene(path);
  if (!loaded) {
    std::fprintf(stderr, "%s: invalid scene\n%s\n", path.c_str(), loaded.error().message().c_str());
    return 1;
  }
  const scene::Scene& built = loaded->scene;
  // The files its nodes name (meshes, baked fields), relative to the scene's folder.
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  const auto missing = scene::missingReferencedFiles(built, folder);
  if (!missing.empty()) {
    std::fprintf(stderr, "%s: invalid scene\n", path.c_str());
    for (const Error& problem : missing) std::fprintf(stderr, "%s\n", problem.message().c_str());
  } else {
    std::printf("%s: ok (%zu nodes, %zu materials)\n", path.c_str(), built.nodes.size(),
                built.materials.size());
  }
  if (warnings) printWarnings(built, folder);
  return missing.empty() ? 0 : 1;
}

}  // namespace floptle::cli
