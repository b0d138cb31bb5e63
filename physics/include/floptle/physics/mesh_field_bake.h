#pragma once
// Mesh -> baked signed-distance field: the triangle mesh sampled into a sparse BrickMap.
// Distance from the mesh BVH (a search bounded by the narrow band, seeded with the previous
// sample's triangle), sign as TriMeshCollider documents: pseudo-normals where the mesh is
// manifold, the generalized winding number where the nearest feature is a hole's rim or a
// non-manifold edge, so holes and sloppy exports still get a sensible inside. Samples beyond
// the band take their side from their neighbours (BrickMap's +inf rule). Multithreaded over
// bricks, with progress and cancel; the result is deterministic (each brick independent).
#include <atomic>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/expected.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace floptle::physics {

struct MeshFieldBakeSettings {
  /// Fine cell edge (m), > 0.
  float cellSize = 0.25f;
  /// Narrow band half width in cells (-), > 0.
  float bandCells = 3.0f;
  /// Worker threads (>= 1).
  int threads = 2;
};

/// Ok, or the setting that is not a finite number > 0 ("cell_size", "band_cells").
Expected<void> checkBakeSettings(const MeshFieldBakeSettings& settings);

Expected<BrickMap> bakeMeshField(const TriMeshCollider& mesh, const MeshFieldBakeSettings& settings,
                                 const BakeProgress& progress = {},
                                 const std::atomic<bool>* cancel = nullptr);

}  // namespace floptle::physics
