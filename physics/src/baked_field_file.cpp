// The "baked_field" scene component and bakeColliderField (see baked_field_file.h).
#include "floptle/physics/baked_field_file.h"

#include <cmath>

#include "floptle/core/brickmap/brick_map_vdb.h"
#include "floptle/physics/baked_field_collider.h"
#include "floptle/physics/mesh_field_bake.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {
namespace {

/// A shape placed under a rigid transform with uniform scale: queries go to the shape's own
/// frame and come back; distances scale by the transform's scale.
class TransformedShape final : public CollisionShape {
 public:
  TransformedShape(std::unique_ptr<CollisionShape> local, const Transform& world)
      : local_(std::move(local)), world_(world) {}

  float distance(Vec3 p, double t) const override {
    return world_.scale * local_->distance(world_.inverseApplyToPoint(p), t);
  }
  Vec3 normal(Vec3 p, double t) const override {
    return world_.applyToNormal(local_->normal(world_.inverseApplyToPoint(p), t));
  }
  Aabb aabb(double t) const override { return world_.applyToAabb(local_->aabb(t)); }
  CastResult castSphere(Vec3 origin, Vec3 unitDir, float radius, float maxDistance,
                        double t) const override {
    const Vec3 localDir = glm::normalize(world_.inverseApplyToDirection(unitDir));
    const float toLocal = 1.0f / world_.scale;
    CastResult r = local_->castSphere(world_.inverseApplyToPoint(origin), localDir,
                                      radius * toLocal, maxDistance * toLocal, t);
    if (!r.handled) return r;
    r.distance *= world_.scale;
    r.point = world_.applyToPoint(r.point);
    r.normal = world_.applyToNormal(r.normal);
    return r;
  }

 private:
  std::unique_ptr<CollisionShape> local_;
  Transform world_;
};

}  // namespace

Expected<BrickMap> readBakedFieldMap(const nlohmann::ordered_json& component,
                                     const std::filesystem::path& sceneDir) {
  const std::string where = "baked_field";
  if (!component.is_object()) return Error{where, "must be an object"};
  if (!component.contains("file") || !component["file"].is_string() ||
      component["file"].get<std::string>().empty())
    return Error{where + "/file", "must name the .vdb file (a path relative to the scene)"};
  VdbReadOptions options;
  options.threads = 2;
  if (component.contains("grid")) {
    if (!component["grid"].is_string() || component["grid"].get<std::string>().empty())
      return Error{where + "/grid", "must be a grid name (a non-empty string)"};
    options.gridName = component["grid"].get<std::string>();
  }
  for (const auto& [key, value] : component.items())
    if (key != "file" && key != "grid")
      return Error{where + "/" + key, "is not a baked_field key (file, grid)"};
  const std::filesystem::path file =
      sceneDir / std::filesystem::path(component["file"].get<std::string>());
  auto map = readBrickMapVdb(file, options);
  if (!map)
    return Error{where + (options.gridName.empty() ? "/file" : "/grid"), map.error().message()};
  return std::move(map).value();
}

Expected<std::unique_ptr<CollisionShape>> makeBakedFieldFileCollider(
    const nlohmann::ordered_json& component, const std::filesystem::path& sceneDir,
    const Transform& world) {
  if (!isFinite(world.position) || !std::isfinite(world.scale) || !(world.scale > 0.0f))
    return Error{"baked_field", "the node's transform is not finite with a scale > 0"};
  auto map = readBakedFieldMap(component, sceneDir);
  if (!map) return map.error();
  BakedFieldSettings settings;
  settings.cellSize = map->cellSize();
  settings.bandWidth = map->bandWidth();
  auto baked = std::make_unique<BakedFieldCollider>(std::move(map).value(), nullptr, settings);
  if (world.isIdentity()) return std::unique_ptr<CollisionShape>(std::move(baked));
  return std::unique_ptr<CollisionShape>(
      std::make_unique<TransformedShape>(std::move(baked), world));
}

Expected<BrickMap> bakeColliderField(const CollisionShape& shape,
                                     const ColliderBakeSettings& settings,
                                     const BakeProgress& progress,
                                     const std::atomic<bool>* cancel) {
  if (const auto* mesh = dynamic_cast<const TriMeshCollider*>(&shape))
    return bakeMeshField(*mesh, settings, progress, cancel);
  if (auto ok = checkBakeSettings(settings); !ok) return ok.error();
  const Aabb box = shape.aabb(settings.t);
  if (box.empty() || !isFinite(box.min) || !isFinite(box.max) ||
      glm::any(glm::greaterThan(box.max - box.min, Vec3(1e5f))))
    return Error{"shape",
                 "cannot bake an unbounded shape (its bounds must be finite, under 100 km)"};
  BrickMapSettings s;
  s.bounds = box;
  s.cellSize = settings.cellSize;
  s.bandWidth = settings.bandCells * settings.cellSize;
  s.threads = std::max(1, settings.threads);
  return BrickMap::bake(s, distanceBatchOf(shape, settings.t), progress, cancel);
}

}  // namespace floptle::physics
