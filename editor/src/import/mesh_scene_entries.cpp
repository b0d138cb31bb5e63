// runMeshImport (worker thread) and meshSceneEntries (the scene JSON of an imported mesh).
// The JSON mirrors app/cli/command_import.cpp key for key, so an editor import and
// `floptle import` give the same node and materials.
#include <cmath>
#include <map>

#include "floptle/editor/import_triangle_mesh.h"  // first: before any Qt header
#pragma push_macro("slots")
#undef slots
#include "floptle/physics/mesh_field_bake.h"
#include "floptle/physics/tri_mesh_collider.h"
#pragma pop_macro("slots")
#include "floptle/editor/import_mesh.h"

namespace floptle::editor {
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

/// Share of the progress bar the import takes when a bake follows (-): the bake dominates.
constexpr float kImportShareWithBake = 0.3f;

}  // namespace

Expected<MeshImportResult> runMeshImport(const MeshImportRequest& request,
                                         const asset::ImportProgress& progress,
                                         const std::atomic<bool>* cancel) {
  const bool bake = request.collision == MeshCollision::BakedField;
  const float importShare = bake ? kImportShareWithBake : 1.0f;
  auto report = [&](float fraction, std::string_view stage) {
    if (progress) progress(fraction, stage);
  };
  auto mesh = asset::importMesh(
      request.file, request.options,
      [&](float f, std::string_view stage) { report(f * importShare, stage); }, cancel);
  if (!mesh) return mesh.error();
  if (mesh->triangleCount() == 0) return Error{request.file.string(), "the file holds no triangles"};
  if (cancel && cancel->load()) return Error{request.file.string(), "cancelled"};
  MeshImportResult result;
  if (bake) {
    report(importShare, "building the triangle BVH");
    auto collider = physics::TriMeshCollider::create(*mesh);
    if (!collider) return Error{request.file.string(), collider.error().message()};
    physics::MeshFieldBakeSettings settings;
    settings.cellSize = kMeshFieldCellSize;
    settings.threads = 2;
    auto map = physics::bakeMeshField(
        **collider, settings,
        [&](float f, std::string_view stage) { report(importShare + f * (1.0f - importShare), stage); },
        cancel);
    if (!map) return Error{request.file.string(), map.error().message()};
    if (cancel && cancel->load()) return Error{request.file.string(), "cancelled"};
    result.bakedBricks = std::size_t(map->brickCount());
  }
  report(1.0f, "done");
  result.mesh = std::move(mesh).value();
  return result;
}

MeshSceneEntries meshSceneEntries(const asset::TriangleMesh& mesh, const std::filesystem::path& meshFile,
                                  const std::filesystem::path& sceneDir, MeshCollision collision,
                                  const std::set<std::string>& takenMaterialIds,
                                  const std::set<std::string>& takenNodeNames) {
  MeshSceneEntries entries;
  // Materials: one per slot, ids from the slot names (made unique), physical defaults.
  Json slotIds = Json::array();
  std::map<std::string, int> used;
  std::set<std::string> taken = takenMaterialIds;
  for (const asset::MaterialSlot& slot : materialSlots(mesh)) {
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

  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(meshFile, ec).lexically_normal();
  std::filesystem::path file = absolute;
  if (!sceneDir.empty()) {
    const std::filesystem::path relative =
        absolute.lexically_relative(std::filesystem::absolute(sceneDir, ec).lexically_normal());
    if (!relative.empty()) file = relative;
  }
  std::string name = meshFile.stem().string();
  if (name.empty()) name = "mesh";
  name = unique(name, takenNodeNames, "_");

  Json& node = entries.node;
  node["name"] = name;
  if (!slotIds.empty()) node["material"] = slotIds[0];
  node["mesh"] = {{"file", file.generic_string()},
                  {"collision", collision == MeshCollision::BakedField ? "field" : "mesh"},
                  {"materials", slotIds}};
  node["collider"] = {{"body", "static"}};
  return entries;
}

}  // namespace floptle::editor
