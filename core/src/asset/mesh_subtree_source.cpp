// A subtree's "import" key: written by meshSubtreeEntries, read back to reload the file the same
// way, and the search for the group that holds a file (see mesh_subtree_resync.h).
#include <cmath>

#include "floptle/core/asset/mesh_subtree_resync.h"
#include "floptle/core/file_path.h"
#include "mesh_scene_json.h"

namespace floptle::asset {
using namespace detail;
namespace {

/// The first mesh component with a file under `node` (itself included), depth first; or null.
const Json* firstMesh(const Json& node) {
  if (const auto mesh = node.find("mesh"); mesh != node.end() && mesh->is_object() &&
                                           mesh->contains("file") && (*mesh)["file"].is_string())
    return &*mesh;
  if (const auto children = node.find("children"); children != node.end() && children->is_array())
    for (const Json& child : *children)
      if (const Json* found = firstMesh(child)) return found;
  return nullptr;
}

/// The file, read options and collision of a mesh component or an import key.
Expected<SubtreeSource> readSettings(const Json& settings, const std::string& where) {
  SubtreeSource source;
  const auto file = settings.find("file");
  if (file == settings.end() || !file->is_string() || file->get<std::string>().empty())
    return Error{where + "/file", "the imported file is not named"};
  source.file = file->get<std::string>();
  if (const auto c = settings.find("collision"); c != settings.end()) {
    if (*c == "field")
      source.collision = MeshCollision::BakedField;
    else if (*c != "mesh")
      return Error{where + "/collision", "must be \"mesh\" or \"field\""};
  }
  if (const auto up = settings.find("up_axis"); up != settings.end()) {
    const auto axis = up->is_string() ? parseUpAxis(up->get<std::string>()) : std::nullopt;
    if (!axis) return Error{where + "/up_axis", "must be \"auto\", \"y\" or \"z\""};
    source.options.upAxis = *axis;
  }
  if (const auto scale = settings.find("unit_scale"); scale != settings.end()) {
    if (!scale->is_number() || !(scale->get<double>() > 0.0) ||
        !std::isfinite(scale->get<double>()))
      return Error{where + "/unit_scale", "must be a positive number (m per file unit)"};
    source.options.unitScale = scale->get<float>();
  }
  return source;
}

void findIn(const Json& nodes, const std::string& pointer, const std::filesystem::path& target,
            const std::filesystem::path& sceneDir, std::string& found) {
  if (!nodes.is_array()) return;
  for (std::size_t i = 0; i < nodes.size() && found.empty(); ++i) {
    const Json& node = nodes[i];
    const std::string here = pointer + "/" + std::to_string(i);
    if (!node.is_object()) continue;
    // A group node: an import key, or (written before groups had one) no mesh of its own and
    // children that show objects of a file.
    const bool group = node.contains("import") ? node["import"].contains("file")
                                               : !node.contains("mesh") && firstMesh(node) &&
                                                     firstMesh(node)->contains("object");
    if (group) {
      if (auto source = subtreeSource(node);
          source && absoluteNormal(sceneDir / source->file) == target) {
        found = here;
        return;
      }
    }
    if (node.contains("children"))
      findIn(node["children"], here + "/children", target, sceneDir, found);
  }
}

}  // namespace

Json subtreeImportJson(const SubtreeSource& source) {
  Json out = meshComponent(source.file, "", source.collision, source.options);
  if (!source.rules.skip.empty()) out["skip"] = source.rules.skip;
  if (source.rules.collideOnlySuffixed) out["collide"] = "suffixed";
  return out;
}

Expected<SubtreeSource> subtreeSource(const Json& group) {
  if (const auto key = group.find("import"); key != group.end() && key->contains("file")) {
    auto source = readSettings(*key, "import");
    if (!source) return source;
    if (const auto skip = key->find("skip"); skip != key->end()) {
      if (!skip->is_array()) return Error{"import/skip", "must be an array of name patterns"};
      for (const Json& glob : *skip) {
        if (!glob.is_string() || glob.get<std::string>().empty())
          return Error{"import/skip", "must be an array of name patterns"};
        source->rules.skip.push_back(glob.get<std::string>());
      }
    }
    if (const auto collide = key->find("collide"); collide != key->end()) {
      if (*collide != "all" && *collide != "suffixed")
        return Error{"import/collide", "must be \"all\" or \"suffixed\""};
      source->rules.collideOnlySuffixed = *collide == "suffixed";
    }
    return source;
  }
  if (const Json* mesh = firstMesh(group)) return readSettings(*mesh, "mesh");
  return Error{"import", "the node names no imported file"};
}

std::string findMeshSubtree(const Json& scene, const std::filesystem::path& meshFile,
                            const std::filesystem::path& sceneDir) {
  std::string found;
  if (const auto nodes = scene.find("nodes"); nodes != scene.end())
    findIn(*nodes, "/nodes", absoluteNormal(meshFile), sceneDir, found);
  return found;
}

}  // namespace floptle::asset
