// bakeMeshField: BrickMap::bake driven by the mesh BVH, band-bounded and hint-seeded.
#include "floptle/physics/mesh_field_bake.h"

#include <cmath>

namespace floptle::physics {

Expected<void> checkBakeSettings(const MeshFieldBakeSettings& settings) {
  if (!(settings.cellSize > 0.0f) || !std::isfinite(settings.cellSize))
    return Error{"cell_size", "must be a finite number > 0"};
  if (!(settings.bandCells > 0.0f) || !std::isfinite(settings.bandCells))
    return Error{"band_cells", "must be a finite number of cells > 0"};
  return {};
}

Expected<BrickMap> bakeMeshField(const TriMeshCollider& mesh, const MeshFieldBakeSettings& settings,
                                 const BakeProgress& progress, const std::atomic<bool>* cancel) {
  if (auto ok = checkBakeSettings(settings); !ok) return ok.error();
  BrickMapSettings s;
  s.bounds = mesh.aabb(0.0);
  s.cellSize = settings.cellSize;
  s.bandWidth = settings.bandCells * settings.cellSize;
  s.threads = std::max(1, settings.threads);
  // Samples come a brick at a time in x-fastest order: each seeds the next one's search.
  const DistanceBatchFn sample = [&mesh](std::span<const Vec3> points, float maxDistance,
                                         std::span<float> out) {
    std::uint32_t hint = ~0u;
    for (std::size_t i = 0; i < points.size(); ++i)
      out[i] = mesh.boundedDistance(points[i], maxDistance, hint);
  };
  return BrickMap::bake(s, sample, progress, cancel);
}

}  // namespace floptle::physics
