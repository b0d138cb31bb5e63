// makeMeshCollider / makeTerrainCollider: scene components -> colliders.
#include "floptle/physics/mesh_collider.h"

#include <cmath>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/physics/baked_field_collider.h"
#include "floptle/physics/drawn_surface.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {
namespace {

Expected<float> positiveNumber(const nlohmann::ordered_json& component, const char* key,
                               float fallback, const std::string& where) {
  if (!component.contains(key)) return fallback;
  const auto& v = component[key];
  if (!v.is_number()) return Error{where + "/" + key, "must be a number"};
  const double x = v.get<double>();
  if (!std::isfinite(x) || !(x > 0.0) || x > 1e5)
    return Error{where + "/" + key, "must be a finite number > 0"};
  return static_cast<float>(x);
}

Expected<std::string> choice(const nlohmann::ordered_json& component, const char* key,
                             const std::string& fallback,
                             std::initializer_list<const char*> allowed, const std::string& where) {
  if (!component.contains(key)) return fallback;
  const auto& v = component[key];
  std::string names;
  for (const char* a : allowed) names += std::string(names.empty() ? "" : ", ") + "\"" + a + "\"";
  if (!v.is_string()) return Error{where + "/" + key, "must be one of " + names};
  const std::string s = v.get<std::string>();
  for (const char* a : allowed)
    if (s == a) return s;
  return Error{where + "/" + key, "'" + s + "' is not one of " + names};
}

Expected<Vec3> vec3At(const nlohmann::ordered_json& v, const std::string& where) {
  if (!v.is_array() || v.size() != 3) return Error{where, "must be an array of 3 numbers"};
  Vec3 out;
  for (int i = 0; i < 3; ++i) {
    if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
      return Error{where, "must be an array of 3 finite numbers"};
    out[i] = v[i].get<float>();
  }
  return out;
}

}  // namespace

Expected<MeshColliderRequest> meshColliderRequest(const nlohmann::ordered_json& component,
                                                  const std::filesystem::path& sceneDir,
                                                  const Transform& world) {
  const std::string where = "mesh";
  if (!component.is_object()) return Error{where, "must be an object"};
  if (!component.contains("file") || !component["file"].is_string() ||
      component["file"].get<std::string>().empty())
    return Error{where + "/file", "must name the mesh file (a path relative to the scene)"};
  auto collision = choice(component, "collision", "mesh", {"mesh", "field"}, where);
  if (!collision) return collision.error();
  auto cellSize = positiveNumber(component, "cell_size", kMeshFieldCellSize, where);
  if (!cellSize) return cellSize.error();
  auto nearRadius = positiveNumber(component, "near_radius", 2.0f, where);
  if (!nearRadius) return nearRadius.error();
  auto upAxis = choice(component, "up_axis", "auto", {"auto", "y", "z"}, where);
  if (!upAxis) return upAxis.error();
  asset::ImportOptions options;
  options.upAxis = *asset::parseUpAxis(*upAxis);  // one of the words choice() accepted
  if (component.contains("unit_scale")) {
    auto scale = positiveNumber(component, "unit_scale", 1.0f, where);
    if (!scale) return scale.error();
    options.unitScale = *scale;
  }
  if (component.contains("object")) {
    if (!component["object"].is_string() || component["object"].get<std::string>().empty())
      return Error{where + "/object", "must name an object of the file (a non-empty string)"};
    options.object = component["object"].get<std::string>();
  }
  if (!isFinite(world.position) || !std::isfinite(world.scale) || !(world.scale > 0.0f))
    return Error{where, "the node's transform is not finite with a scale > 0"};

  MeshColliderRequest request;
  request.file = sceneDir / std::filesystem::path(component["file"].get<std::string>());
  request.options = options;
  request.world = world;
  request.bakeField = *collision == "field";
  request.cellSize = *cellSize;
  return request;
}

Expected<std::unique_ptr<CollisionShape>> makeMeshCollider(const nlohmann::ordered_json& component,
                                                           const std::filesystem::path& sceneDir,
                                                           const Transform& world,
                                                           const ColliderBuildOptions& build) {
  const std::string where = "mesh";
  auto requested = meshColliderRequest(component, sceneDir, world);
  if (!requested) return requested.error();
  MeshColliderRequest request = std::move(requested).value();
  request.keep = build.keepInCache;
  const float nearRadius = *positiveNumber(component, "near_radius", 2.0f, where);  // checked above
  // Through the cache: a second world over the same file, options and transform reuses the
  // BVH (shared, immutable) and the baked map (copied: a world's field re-bakes in place).
  auto built = buildMeshCollider(request, build.meshCache, build.progress, build.cancel);
  if (!built) return Error{where + "/" + built.error().where, built.error().what};
  if (!request.bakeField) return std::unique_ptr<CollisionShape>(built->mesh->share());
  BakedFieldSettings settings;
  settings.cellSize = request.cellSize;
  settings.nearRadius = nearRadius;
  return std::unique_ptr<CollisionShape>(std::make_unique<BakedFieldCollider>(
      BrickMap(*built->field), built->mesh->share(), settings));
}

Expected<std::unique_ptr<CollisionShape>> makeTerrainCollider(
    const nlohmann::ordered_json& component, std::unique_ptr<CollisionShape> field, double t) {
  const std::string where = "terrain";
  if (!component.is_object()) return Error{where, "must be an object"};
  if (!field) return Error{where, "a terrain needs a shape (its field)"};
  auto collision = choice(component, "collision", "drawn", {"drawn", "field"}, where);
  if (!collision) return collision.error();
  auto cellSize = positiveNumber(component, "cell_size", 0.25f, where);
  if (!cellSize) return cellSize.error();
  if (*collision == "field") return field;

  DrawnSurfaceSettings settings;
  settings.cellSize = *cellSize;
  settings.t = t;
  if (component.contains("bounds")) {
    const auto& b = component["bounds"];
    if (!b.is_object() || !b.contains("min") || !b.contains("max"))
      return Error{where + "/bounds", "must be {\"min\": [x,y,z], \"max\": [x,y,z]}"};
    auto lo = vec3At(b["min"], where + "/bounds/min");
    if (!lo) return lo.error();
    auto hi = vec3At(b["max"], where + "/bounds/max");
    if (!hi) return hi.error();
    if (glm::any(glm::greaterThan(*lo, *hi)))
      return Error{where + "/bounds", "min must not exceed max"};
    settings.bounds = Aabb{*lo, *hi};
  }
  auto drawn = drawnSurface(*field, settings);
  if (!drawn)
    return Error{
        where + "/" + (component.contains("bounds") ? std::string("bounds") : drawn.error().where),
        drawn.error().what};
  if (drawn->triangles.empty())
    return Error{where, "the terrain's field has no surface inside its bounds"};
  auto collider = TriMeshCollider::create(*drawn, TriMeshCollider::Settings{false});
  if (!collider) return Error{where, collider.error().message()};
  return std::unique_ptr<CollisionShape>(std::move(collider).value());
}

}  // namespace floptle::physics
