// floptle import MESH --out FILE.json [--collision mesh|field] [--up auto|y|z]
// Imports a mesh (glTF/OBJ/FBX) and writes a scene holding it as one static node whose "mesh"
// component references the file, with one scene material per material slot.
#include <cstdio>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "progress_lines.h"
#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/scene/scene_io.h"

namespace floptle::cli {
namespace {

constexpr const char* kUsage = "usage: floptle import MESH --out FILE.json [--collision mesh|field] [--up auto|y|z]\n";

int fail(const std::string& message) {
  std::fprintf(stderr, "floptle import: %s\n", message.c_str());
  return 1;
}

}  // namespace

int runImport(Args args) {
  std::string meshArg, outArg, collision = "mesh", up = "auto";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) return false;
      into = std::string(args[++i]);
      return true;
    };
    if (a == "--out") {
      if (!value(outArg)) return std::fputs(kUsage, stderr), 2;
    } else if (a == "--collision") {
      if (!value(collision) || (collision != "mesh" && collision != "field")) return std::fputs(kUsage, stderr), 2;
    } else if (a == "--up") {
      if (!value(up) || !asset::parseUpAxis(up)) return std::fputs(kUsage, stderr), 2;
    } else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (meshArg.empty() && !a.starts_with("--")) {
      meshArg = std::string(a);
    } else {
      std::fprintf(stderr, "floptle import: unexpected argument '%.*s'\n%s", static_cast<int>(a.size()), a.data(), kUsage);
      return 2;
    }
  }
  if (meshArg.empty() || outArg.empty()) return std::fputs(kUsage, stderr), 2;

  asset::ImportOptions options;
  options.upAxis = asset::parseUpAxis(up).value_or(asset::ImportOptions::UpAxis::Automatic);
  ProgressLines lines("import");
  auto progress = [&](float fraction, std::string_view stage) { lines(fraction, stage); };
  const std::filesystem::path meshPath(meshArg), outPath(outArg);
  auto mesh = asset::importMesh(meshPath, options, progress);
  if (!mesh) return fail(mesh.error().message());

  std::error_code ec;
  const std::filesystem::path outDir = std::filesystem::absolute(outPath, ec).parent_path();
  const asset::MeshSceneEntries entries = asset::meshSceneEntries(
      *mesh, meshPath, outDir,
      collision == "field" ? asset::MeshCollision::BakedField : asset::MeshCollision::TriangleMesh, {}, {}, options);
  nlohmann::ordered_json scene;
  scene["format"] = "floptle.scene";
  scene["version"] = 1;
  scene["materials"] = entries.materials;
  scene["interactions"] = nlohmann::ordered_json::array();
  scene["nodes"] = nlohmann::ordered_json::array({entries.node});

  // The editor's save: canonical text, written atomically; an error says what failed and why.
  if (auto saved = scene::saveSceneFile(outPath, scene); !saved) return fail(saved.error().message());
  std::fprintf(stderr, "import: %zu triangles, %zu material slots -> %s\n", mesh->triangleCount(), mesh->materialSlots.size(),
               outPath.string().c_str());
  return 0;
}

}  // namespace floptle::cli
