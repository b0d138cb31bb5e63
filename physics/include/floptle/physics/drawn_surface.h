#pragma once
// drawn_surface: the triangles of any collider's surface (seed 000, "Which terrain surface").
// Surface nets over chunks of a regular grid at a chosen cell size: one vertex per cell the
// surface crosses (the mean of its edges' crossings, then projected onto the zero set along
// the collider's normal), one quad per crossed grid edge. The collider answers in world space
// (its node's full transform already applied), so the triangles are world triangles: what the
// editor draws as the wireframe overlay and what a "drawn" terrain collides against.
// Guarantee checked by tests: every triangle's centre lies within 0.1 cell of distance zero on a
// smooth surface (curvature radius >= 5 cells).
#include <atomic>

#include "floptle/core/asset/triangle_mesh.h"
#include "floptle/core/expected.h"
#include "floptle/physics/collision_shape.h"

namespace floptle::physics {

struct DrawnSurfaceSettings {
  /// Grid cell edge (m), > 0.
  float cellSize = 0.25f;
  /// Region to extract (m); empty = the collider's aabb(t).
  Aabb bounds;
  /// Cells per chunk edge (-); chunks far from the surface are skipped whole.
  int chunkCells = 32;
  /// Projection steps of each vertex onto the surface (-).
  int projectionSteps = 2;
  /// Time at which the collider is sampled (s).
  double t = 0.0;
};

/// Triangles wound counter-clockwise seen from outside (d > 0), one material slot (0, none
/// named). Errors: a cell size <= 0, an unbounded or non-finite region, more than 2^30 cells,
/// cancellation.
Expected<asset::TriangleMesh> drawnSurface(const CollisionShape& shape,
                                           const DrawnSurfaceSettings& settings,
                                           const std::atomic<bool>* cancel = nullptr);

}  // namespace floptle::physics
