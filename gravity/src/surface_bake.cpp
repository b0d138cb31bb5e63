// bakeSurfaceGravity: the world's distance on a brick map, then the same map blurred.
#include "floptle/gravity/surface_bake.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace floptle::gravity {
namespace {

/// Colliders larger than this (m) are treated as unbounded (planes, half-spaces).
constexpr float kUnbounded = 1e5f;

Aabb boundedColliders(const physics::CollisionWorld& world) {
  Aabb box;  // empty
  for (physics::ColliderId id : world.ids()) {
    if (!world.collidable(id)) continue;
    const Aabb& b = world.colliderAabb(id);
    if (b.empty() || !isFinite(b.min) || !isFinite(b.max) ||
        glm::any(glm::greaterThan(b.max - b.min, Vec3(kUnbounded))))
      continue;
    box.expand(b);
  }
  return box;
}

}  // namespace

Expected<std::shared_ptr<const BrickMap>> bakeSurfaceGravity(const physics::CollisionWorld& world,
                                                             const scene::GravitySdfDesc& sdf,
                                                             double t, const BakeProgress& progress,
                                                             const std::atomic<bool>* cancel) {
  const Aabb colliders = boundedColliders(world);
  if (colliders.empty()) return std::shared_ptr<const BrickMap>();
  const float h = sdf.bakedCell;
  const float blur = sdf.blur * h;  // (m)
  BrickMapSettings settings;
  settings.bounds = colliders.inflated(sdf.range + blur);
  settings.cellSize = h;
  // The blurred value at a point within range reads the raw grid up to blur away per axis.
  settings.bandWidth = sdf.range + std::sqrt(3.0f) * blur + h;
  settings.threads = int(std::clamp(std::thread::hardware_concurrency(), 1u, 16u));

  auto stage = [&](float from, float to) -> BakeProgress {
    if (!progress) return {};
    return [&progress, from, to](float f, std::string_view what) {
      progress(from + (to - from) * f, what);
    };
  };
  const DistanceBatchFn surface = [&world, t](std::span<const Vec3> points, float,
                                              std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) out[i] = world.distance(points[i], t);
  };
  const float rawShare = blur > 0.0f ? 0.5f : 1.0f;
  auto raw = BrickMap::bake(settings, surface, stage(0.0f, rawShare), cancel);
  if (!raw) return Error{"smoothing/baked", raw.error().what};
  if (!(blur > 0.0f)) return std::make_shared<const BrickMap>(std::move(raw).value());

  const BrickMap& rawMap = raw.value();
  const DistanceBatchFn blurred = [&rawMap, blur](std::span<const Vec3> points, float,
                                                  std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      float sum = 0.0f;
      for (int corner = 0; corner < 8; ++corner)
        sum += rawMap.distance(points[i] + blur * Vec3(corner & 1 ? 1.0f : -1.0f,
                                                       corner & 2 ? 1.0f : -1.0f,
                                                       corner & 4 ? 1.0f : -1.0f));
      out[i] = 0.125f * sum;
    }
  };
  settings.bandWidth = sdf.range + h;
  auto smooth = BrickMap::bake(settings, blurred, stage(rawShare, 1.0f), cancel);
  if (!smooth) return Error{"smoothing/baked", smooth.error().what};
  return std::make_shared<const BrickMap>(std::move(smooth).value());
}

}  // namespace floptle::gravity
