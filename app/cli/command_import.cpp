// floptle import MESH (--out FILE.json | --into SCENE.json) [--collision mesh|field]
//                    [--up auto|y|z] [--merge] [--skip GLOB]... [--collide all|suffixed]
// Imports a mesh (glTF/OBJ/FBX) and writes a scene holding it: a group node named after the
// file with one node per object of the file (meshSubtreeEntries), or with --merge one static
// node for the whole file (meshSceneEntries); one scene material per material slot.
// --into adds the subtree to an existing scene, or, when the scene already holds the file's
// subtree, reloads it (resyncMeshSubtree: the user's edits kept) and prints what changed.
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_objects.h"
#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/asset/mesh_subtree_resync.h"
#include "floptle/core/scene/scene_io.h"
#include "progress_lines.h"

namespace floptle::cli {
namespace {

constexpr const char* kUsage =
    "usage: floptle import MESH (--out FILE.json | --into SCENE.json) [--collision mesh|field]\n"
    "                      [--up auto|y|z] [--merge] [--skip GLOB]... [--collide all|suffixed]\n"
    "  --out   writes a new scene holding the file\n"
    "  --into  adds the file to a scene (a new one if there is none); if the scene holds the "
    "file's\n"
    "          subtree, reloads it instead: nodes matched by object name keep the user's\n"
    "          edits (collider, materials, names, components), take the file's transforms,\n"
    "          new objects are added, removed ones' nodes removed; prints\n"
    "          `reload MESH: kept N, added A (names), removed R (names)`. A reload reads the\n"
    "          file as the subtree's \"import\" says; the other options apply to a first import.\n";

int fail(const std::string& message) {
  std::fprintf(stderr, "floptle import: %s\n", message.c_str());
  return 1;
}

/// Checks and writes the scene as the editor saves it (canonical text, atomically).
int writeScene(const std::filesystem::path& path, const nlohmann::ordered_json& scene) {
  if (const auto problems = scene::checkSceneDocument(scene); !problems.empty())
    return fail(scene::joinProblems(problems).message());
  if (auto saved = scene::saveSceneFile(path, scene); !saved) return fail(saved.error().message());
  return 0;
}

/// --into a scene that holds the file's subtree (at `group`): the file read again as the
/// subtree's import says, the subtree brought up to date.
int reloadInto(nlohmann::ordered_json scene, const std::string& group,
               const std::filesystem::path& meshPath, const std::filesystem::path& scenePath,
               const std::filesystem::path& sceneDir, const asset::ImportProgress& progress) {
  const auto source = asset::subtreeSource(scene.at(nlohmann::ordered_json::json_pointer(group)));
  if (!source) return fail(group + "/" + source.error().message());
  auto tree = asset::importMeshObjects(meshPath, source->options, progress);
  if (!tree) return fail(tree.error().message());
  auto resync = asset::resyncMeshSubtree(scene, group, *tree, meshPath, sceneDir, *source);
  if (!resync) return fail(resync.error().message());
  scene[nlohmann::ordered_json::json_pointer(group)] = resync->node;
  scene["materials"] = resync->materials;
  if (int failed = writeScene(scenePath, scene)) return failed;
  std::printf("reload %s: %s\n", meshPath.string().c_str(), resync->report.line().c_str());
  return 0;
}

void collectNodeNames(const nlohmann::ordered_json& nodes, std::set<std::string>& names) {
  for (const auto& node : nodes) {
    if (node.contains("name") && node["name"].is_string())
      names.insert(node["name"].get<std::string>());
    if (node.contains("children")) collectNodeNames(node["children"], names);
  }
}

}  // namespace

int runImport(Args args) {
  std::string meshArg, outArg, intoArg, collision = "mesh", up = "auto", collide = "all", glob;
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
    } else if (a == "--into") {
      if (!value(intoArg)) return std::fputs(kUsage, stderr), 2;
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
  if (meshArg.empty() || outArg.empty() == intoArg.empty()) return std::fputs(kUsage, stderr), 2;

  asset::ImportOptions options;
  options.upAxis = asset::parseUpAxis(up).value_or(asset::ImportOptions::UpAxis::Automatic);
  ProgressLines lines("import");
  auto progress = [&](float fraction, std::string_view stage) { lines(fraction, stage); };
  const std::filesystem::path meshPath(meshArg), outPath(intoArg.empty() ? outArg : intoArg);
  std::error_code ec;
  const std::filesystem::path outDir = std::filesystem::absolute(outPath, ec).parent_path();
  const auto meshCollision =
      collision == "field" ? asset::MeshCollision::BakedField : asset::MeshCollision::TriangleMesh;
  nlohmann::ordered_json scene;
  std::set<std::string> takenIds, takenNames;
  if (!intoArg.empty() && std::filesystem::exists(outPath, ec)) {
    auto loaded = scene::loadSceneFile(outPath);
    if (!loaded) return fail(loaded.error().message());
    scene = std::move(loaded).value();
    if (const std::string group = asset::findMeshSubtree(scene, meshPath, outDir); !group.empty())
      return reloadInto(std::move(scene), group, meshPath, outPath, outDir, progress);
    for (const auto& m : scene.value("materials", nlohmann::ordered_json::array()))
      if (m.contains("id") && m["id"].is_string()) takenIds.insert(m["id"].get<std::string>());
    collectNodeNames(scene.value("nodes", nlohmann::ordered_json::array()), takenNames);
  } else {
    scene["format"] = "floptle.scene";
    scene["version"] = 1;
    scene["materials"] = nlohmann::ordered_json::array();
    scene["interactions"] = nlohmann::ordered_json::array();
    scene["nodes"] = nlohmann::ordered_json::array();
  }
  asset::MeshSceneEntries entries;
  std::string summary;
  if (merge) {
    auto mesh = asset::importMesh(meshPath, options, progress);
    if (!mesh) return fail(mesh.error().message());
    entries = asset::meshSceneEntries(*mesh, meshPath, outDir, meshCollision, takenIds, takenNames,
                                      options);
    summary = std::to_string(mesh->triangleCount()) + " triangles, " +
              std::to_string(mesh->materialSlots.size()) + " material slots";
  } else {
    auto tree = asset::importMeshObjects(meshPath, options, progress);
    if (!tree) return fail(tree.error().message());
    entries = asset::meshSubtreeEntries(*tree, meshPath, outDir, meshCollision, rules, takenIds,
                                        takenNames, options);
    summary = std::to_string(tree->objects.size()) + " objects, " +
              std::to_string(entries.materials.size()) + " materials";
  }
  for (auto& material : entries.materials) scene["materials"].push_back(std::move(material));
  scene["nodes"].push_back(std::move(entries.node));

  // The editor's save: canonical text, written atomically; an error says what failed and why.
  if (intoArg.empty()) {
    if (auto saved = scene::saveSceneFile(outPath, scene); !saved)
      return fail(saved.error().message());
  } else if (int failed = writeScene(outPath, scene)) {
    return failed;
  }
  std::fprintf(stderr, "import: %s -> %s\n", summary.c_str(), outPath.string().c_str());
  return 0;
}

}  // namespace floptle::cli
