// meshSceneEntries: the scene JSON of an imported mesh (see mesh_scene_entries.h).
#include "floptle/core/asset/mesh_scene_entries.h"

#include <cmath>
#include <map>

#include "floptle/core/file_path.h"

namespace floptle::asset {
namespace {

using Json = nlohmann::ordered_json;

double clean(double v) { return std::isfinite(v) ? std::round(v * 1e6) / 1e6 : 0.0; }

/// `base`, or base + separator + n for the first n >= 2 not taken.
std::string unique(const std::string& base, const std::set<std::string>& taken, const char* separator) {
  if (!taken.count(base)) return base;
  for (int n = 2;; ++n) {
    std::string candidate = base + separator + std::to_string(n);
    if (!taken.count(candidate)) return candidate;
  }
}

}  // namespace

const char* meshCollisionName(MeshCollision collision) {
  return collision == MeshCollision::BakedField ? "field" : "mesh";
}

MeshSceneEntries meshSceneEntries(const TriangleMesh& mesh, const std::filesystem::path& meshFile,
                                  const std::filesystem::path& sceneDir, MeshCollision collision,
                                  const std::set<std::string>& takenMaterialIds,
                                  const std::set<std::string>& takenNodeNames,
                                  const ImportOptions& options) {
  MeshSceneEntries entries;
  // Materials: one per slot, ids from the slot names (made unique), physical defaults.
  Json slotIds = Json::array();
  std::map<std::string, int> used;
  std::set<std::string> taken = takenMaterialIds;
  for (const MaterialSlot& slot : mesh.materialSlots) {
    std::string id = slot.name;
    if (int n = used[slot.name]++; n > 0) id += "#" + std::to_string(n + 1);
    id = unique(id, taken, "#");
    taken.insert(id);
    Json m;
    m["id"] = id;
    m["name"] = slot.name;
    m["color"] = {clean(slot.baseColor.x), clean(slot.baseColor.y), clean(slot.baseColor.z)};
    m["density"] = 1000.0;        // (kg/m^3)
    m["friction"] = 0.6;          // (-)
    m["restitution"] = 0.1;       // (-)
    m["bulk_modulus"] = 1.0e9;    // (Pa)
    m["yield_strength"] = 1.0e7;  // (Pa)
    entries.materials.push_back(m);
    slotIds.push_back(id);
  }

  const std::filesystem::path absolute = absoluteNormal(meshFile);
  std::filesystem::path file = absolute;
  if (!sceneDir.empty()) {
    const std::filesystem::path relative = absolute.lexically_relative(absoluteNormal(sceneDir));
    if (!relative.empty()) file = relative;
  }
  std::string name = meshFile.stem().string();
  if (name.empty()) name = "mesh";
  name = unique(name, takenNodeNames, "_");

  Json& node = entries.node;
  node["name"] = name;
  if (!slotIds.empty()) node["material"] = slotIds[0];
  node["mesh"] = {{"file", file.generic_string()}, {"collision", meshCollisionName(collision)}};
  if (options.upAxis != ImportOptions::UpAxis::Automatic)
    node["mesh"]["up_axis"] = upAxisName(options.upAxis);
  if (options.unitScale > 0.0f && std::isfinite(options.unitScale)) node["mesh"]["unit_scale"] = options.unitScale;
  node["mesh"]["materials"] = slotIds;
  node["collider"] = {{"body", "static"}};
  return entries;
}

}  // namespace floptle::asset
