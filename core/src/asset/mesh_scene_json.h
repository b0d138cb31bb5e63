#pragma once
// Internal to core's asset import: the JSON pieces meshSceneEntries and meshSubtreeEntries
// share (mesh_scene_entries.cpp, mesh_subtree_entries.cpp).
#include <cmath>
#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_scene_entries.h"
#include "floptle/core/file_path.h"

namespace floptle::asset::detail {

using Json = nlohmann::ordered_json;

inline double clean(double v) {
  return std::isfinite(v) ? std::round(v * 1e6) / 1e6 : 0.0;
}

/// `base`, or base + separator + n for the first n >= 2 not taken.
inline std::string unique(const std::string& base, const std::set<std::string>& taken,
                          const char* separator) {
  if (!taken.count(base)) return base;
  for (int n = 2;; ++n) {
    std::string candidate = base + separator + std::to_string(n);
    if (!taken.count(candidate)) return candidate;
  }
}

inline Json materialJson(const std::string& id, const MaterialSlot& slot) {
  Json m;
  m["id"] = id;
  m["name"] = slot.name;
  m["color"] = {clean(slot.baseColor.x), clean(slot.baseColor.y), clean(slot.baseColor.z)};
  m["density"] = 1000.0;        // (kg/m^3)
  m["friction"] = 0.6;          // (-)
  m["restitution"] = 0.1;       // (-)
  m["bulk_modulus"] = 1.0e9;    // (Pa)
  m["yield_strength"] = 1.0e7;  // (Pa)
  return m;
}

/// The mesh file as the scene writes it: relative to sceneDir, or absolute when that is empty.
inline std::string scenePath(const std::filesystem::path& meshFile,
                             const std::filesystem::path& sceneDir) {
  const std::filesystem::path absolute = absoluteNormal(meshFile);
  std::filesystem::path file = absolute;
  if (!sceneDir.empty()) {
    const std::filesystem::path relative = absolute.lexically_relative(absoluteNormal(sceneDir));
    if (!relative.empty()) file = relative;
  }
  return file.generic_string();
}

/// The mesh component without its slots: file, object, collision and the read options.
inline Json meshComponent(const std::string& file, const std::string& object,
                          MeshCollision collision, const ImportOptions& options) {
  Json mesh = {{"file", file}};
  if (!object.empty()) mesh["object"] = object;
  mesh["collision"] = meshCollisionName(collision);
  if (options.upAxis != ImportOptions::UpAxis::Automatic)
    mesh["up_axis"] = upAxisName(options.upAxis);
  if (options.unitScale > 0.0f && std::isfinite(options.unitScale))
    mesh["unit_scale"] = options.unitScale;
  return mesh;
}

inline std::string fileStem(const std::filesystem::path& meshFile) {
  std::string name = meshFile.stem().string();
  return name.empty() ? std::string("mesh") : name;
}

}  // namespace floptle::asset::detail
