#pragma once
// The candidate grid the viewport's map() reads for a scene of many parts: a uniform grid over
// the bounded parts' boxes whose cells each list the parts whose box lies within one cell size
// (the reach) of the cell. A point evaluates the one cell it falls in (or, outside the grid, the
// cell of its nearest point in the grid: projection onto a box is non-expansive, so the cell's
// guarantee carries over). Every part the cell does not list is at least the cell's clearance
// away, so
//   min(clearance, listed parts)
// is a lower bound of the scene's distance with the same zero set, and the shader's cost per
// step is one cell and its short list, whatever the scene's size.
#include <cstdint>
#include <vector>

#include "floptle/core/math.h"

namespace floptle::render {

/// Most cells along one axis, and in all; the cell size grows to stay within both.
inline constexpr int kMaxGridAxisCells = 256;
inline constexpr int kMaxGridCells = 1 << 18;
/// Cells per bounded part the grid aims for: cells about the size of a part's reach keep a
/// cell's list to a few parts (2.5 on the 10,000-sphere level of tests/large_scene).
inline constexpr float kGridCellsPerPart = 16.0f;

struct SceneGrid {
  /// Box the cells cover: the union of the parts' boxes, cells of `cellSize` (m) from its min.
  Aabb bounds;
  float cellSize = 1.0f;
  glm::ivec3 dims{0};
  /// Per cell (x fastest, then y, then z): first entry, entry count, and the clearance (m): a
  /// lower bound of the distance from any point of the cell to any part the cell does not list
  /// (at least cellSize; more for cells farther from every part).
  struct Cell {
    std::int32_t first = 0;
    std::int32_t count = 0;
    float clearance = 0.0f;
  };
  std::vector<Cell> cells;
  /// Part indices (into the boxes given to buildSceneGrid), cell after cell.
  std::vector<std::int32_t> entries;

  int cellIndex(glm::ivec3 c) const { return c.x + dims.x * (c.y + dims.y * c.z); }
  /// The cell a point reads: its own, or outside the grid that of its projection onto it.
  glm::ivec3 cellOf(Vec3 p) const;
};

/// Distance (m) between two boxes (0 when they overlap).
float boxBoxDistance(const Aabb& a, const Aabb& b);

/// The grid over `boxes` (one per bounded part; an empty box is taken as the point at the
/// origin). No boxes: an empty grid (dims 0).
SceneGrid buildSceneGrid(const std::vector<Aabb>& boxes);

}  // namespace floptle::render
