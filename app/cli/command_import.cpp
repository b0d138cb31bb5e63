// floptle import MESH --out FILE.json [--collision mesh|field] [--up auto|y|z] [--merge]
//                    [--skip GLOB]... [--collide all|suffixed]
// Imports a mesh (glTF/OBJ/FBX) and writes a scene holding it: a group node named after the
// file with one node per object of the file (meshSubtreeEntries), or with --merge one static
// node for the whole file (meshSceneEntries); one scene material per material slot.
#include <cstdio>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/scene/scene_io.h"
#include "progress_lines.h"

namespace floptle::cli {
namespace {

constexpr const char* kUsage =
    "usage: floptle import MESH --out FILE.json [--collision mesh|field] [--up auto|y|z] "
    "[--merge]\n"
    "                      [--skip GLOB]... [--collide all|suffixed]\n";

int fail(const std::string& message) {
  std::fprintf(stderr, "floptle import: %s\n", message.c_str());
  return 1;
}

}  // namespace

int runImport(Args args) {
  std::string meshArg, outArg, collision = "mesh", up = "auto", collide = "all", glob;
  bool merge = false;
  asset::SubtreeRules rules;
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
      if (!value(collision) || (collision != "mesh" && collision != "field"))
        return std::fputs(kUsage, stderr), 2;
    } else if (a == "--up") {
      if (!value(up) || !asset::parseUpAxis(up)) return std::fputs(kUsage, stderr), 2;
    } else if (a == "--merge") {
      merge = true;
    } else if (a == "--skip") {
      if (!value(glob) || glob.empty()) return std::fputs(kUsage, stderr), 2;
      rules.skip.push_back(glob);
    } else if (a == "--collide") {
      if (!value(collide) || (collide != "all" && collide != "suffixed"))
        return std::fputs(kUsage, stderr), 2;
      rules.collideOnlySuffixed = collide == "suffixed";
    } else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (meshArg.empty() && !a.starts_with("--")) {
      meshArg = std::string(a);
    } else {
      std::fprintf(stderr, "floptle import: unexpected argument '%.*s'\n%s",
                   static_cast<int>(a.size()), a.data(), kUsage);
      return 2;
    }
  }
  if (meshArg.empty() || outArg.empty()) return std::fputs(kUsage, stderr), 2;

  asset::ImportOptions options;
  options.upAxis = asset::parseUpAxis(up).value_or(asset::ImportOptions::UpAxis::Automatic);
  ProgressLines lines("import");
  auto progress = [&](float fraction, std::string_view stage) { lines(fraction, stage); };
  const std::filesystem::path meshPath(meshArg), outPath(outArg);
  std::error_code ec;
  const std::filesystem::path outDir = std::filesystem::absolute(outPath, ec).parent_path();
  const auto meshCollision =
      collision == "field" ? asset::MeshCollision::BakedField : asset::MeshCollision::TriangleMesh;
  asset::MeshSceneEntries entries;
  std::string summary;
  if (merge) {
    auto mesh = asset::importMesh(meshPath, options, progress);
    if (!mesh) return fail(mesh.error().message());
    entries = asset::meshSceneEntries(*mesh, meshPath, outDir, meshCollision, {}, {}, options);
    summary = std::to_string(mesh->triangleCount()) + " triangles, " +
              std::to_string(mesh->materialSlots.size()) + " material slots";
  } else {
    auto tree = asset::importMeshObjects(meshPath, options, progress);
    if (!tree) return fail(tree.error().message());
    entries =
        asset::meshSubtreeEntries(*tree, meshPath, outDir, meshCollision, rules, {}, {}, options);
    summary = std::to_string(tree->objects.size()) + " objects, " +
              std::to_string(entries.materials.size()) + " materials";
  }
  nlohmann::ordered_json scene;
  scene["format"] = "floptle.scene";
  scene["version"] = 1;
  scene["materials"] = entries.materials;
  scene["interactions"] = nlohmann::ordered_json::array();
  scene["nodes"] = nlohmann::ordered_json::array({entries.node});

  // The editor's save: canonical text, written atomically; an error says what failed and why.
  if (auto saved = scene::saveSceneFile(outPath, scene); !saved)
    return fail(saved.error().message());
  std::fprintf(stderr, "import: %s -> %s\n", summary.c_str(), outPath.string().c_str());
  return 0;
}

}  // namespace floptle::cli
