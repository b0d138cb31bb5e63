// The viewport's candidate grid (scene_grid.h).
#include "scene_grid.h"

#include <cmath>

namespace floptle::render {

namespace {

Aabb cellBox(const SceneGrid& grid, glm::ivec3 c) {
  const Vec3 lo = grid.bounds.min + Vec3(c) * grid.cellSize;
  return {lo, lo + Vec3(grid.cellSize)};
}

/// Cells [lo, hi] (inclusive) a box touches, clamped to the grid.
void cellRange(const SceneGrid& grid, const Aabb& box, glm::ivec3& lo, glm::ivec3& hi) {
  lo = grid.cellOf(box.min);
  hi = grid.cellOf(box.max);
}

/// Cell size and counts: about kGridCellsPerPart cells per part, cubic cells, an axis thinner
/// than a cell getting one, within kMaxGridAxisCells and kMaxGridCells.
void chooseDims(SceneGrid& grid, std::size_t parts) {
  const Vec3 extent = glm::max(grid.bounds.max - grid.bounds.min, Vec3(1e-3f));
  const double target =
      std::clamp(double(kGridCellsPerPart) * double(parts), 1.0, double(kMaxGridCells));
  double size = std::cbrt(double(extent.x) * extent.y * extent.z / target);
  for (int pass = 0; pass < 2; ++pass) {  // axes thinner than a cell take one cell
    double volume = 1.0;
    int wide = 0;
    for (int i = 0; i < 3; ++i)
      if (extent[i] > size) {
        volume *= extent[i];
        ++wide;
      }
    if (wide == 0) break;
    size = std::pow(volume / target, 1.0 / wide);
  }
  for (int i = 0; i < 3; ++i) size = std::max(size, double(extent[i]) / kMaxGridAxisCells);
  auto dimsFor = [&](double s) {
    return glm::ivec3(std::max(1, int(std::ceil(extent.x / s))),
                      std::max(1, int(std::ceil(extent.y / s))),
                      std::max(1, int(std::ceil(extent.z / s))));
  };
  while (true) {
    const glm::ivec3 d = dimsFor(size);
    if (std::int64_t(d.x) * d.y * d.z <= kMaxGridCells) break;
    size *= 1.05;
  }
  grid.cellSize = float(size);
  grid.dims = dimsFor(size);
  // float(size) may round down: one more cell where the rounding would leave a sliver out.
  for (int i = 0; i < 3; ++i)
    if (float(grid.dims[i]) * grid.cellSize < extent[i]) ++grid.dims[i];
}

/// Chebyshev distance, in cells, from each cell to the nearest occupied one (two chamfer passes
/// over the 26-neighbourhood are exact for this metric).
std::vector<int> chebyshevDistance(const SceneGrid& grid, const std::vector<char>& occupied) {
  const int big = 1 << 29;
  std::vector<int> d(occupied.size());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = occupied[i] ? 0 : big;
  auto pass = [&](int sign) {
    const glm::ivec3 n = grid.dims;
    for (int zi = 0; zi < n.z; ++zi)
      for (int yi = 0; yi < n.y; ++yi)
        for (int xi = 0; xi < n.x; ++xi) {
          const glm::ivec3 c = sign > 0 ? glm::ivec3(xi, yi, zi)
                                        : glm::ivec3(n.x - 1 - xi, n.y - 1 - yi, n.z - 1 - zi);
          int& here = d[std::size_t(grid.cellIndex(c))];
          for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
              for (int dx = -1; dx <= 1; ++dx) {
                const glm::ivec3 o = c + glm::ivec3(dx, dy, dz);
                if (o.x < 0 || o.y < 0 || o.z < 0 || o.x >= n.x || o.y >= n.y || o.z >= n.z)
                  continue;
                here = std::min(here, d[std::size_t(grid.cellIndex(o))] + 1);
              }
        }
  };
  pass(+1);
  pass(-1);
  return d;
}

}  // namespace

glm::ivec3 SceneGrid::cellOf(Vec3 p) const {
  const Vec3 g = glm::clamp((p - bounds.min) / cellSize, Vec3(0.0f), Vec3(dims) - Vec3(0.5f));
  return glm::clamp(glm::ivec3(glm::floor(g)), glm::ivec3(0), dims - 1);
}

float boxBoxDistance(const Aabb& a, const Aabb& b) {
  const Vec3 gap = glm::max(glm::max(a.min - b.max, b.min - a.max), Vec3(0.0f));
  return glm::length(gap);
}

SceneGrid buildSceneGrid(const std::vector<Aabb>& input) {
  SceneGrid grid;
  if (input.empty()) return grid;
  std::vector<Aabb> boxes = input;
  for (Aabb& box : boxes)
    if (box.empty()) box = Aabb{Vec3(0.0f), Vec3(0.0f)};
  for (const Aabb& box : boxes) grid.bounds.expand(box);
  chooseDims(grid, boxes.size());
  const float reach = grid.cellSize;
  const std::size_t cellCount = std::size_t(grid.dims.x) * grid.dims.y * grid.dims.z;
  grid.cells.assign(cellCount, {});
  std::vector<char> occupied(cellCount, 0);

  // Two passes over each part's reach: count, then fill (entries grouped by cell).
  auto forEachListing = [&](auto&& visit) {
    for (std::size_t part = 0; part < boxes.size(); ++part) {
      glm::ivec3 lo, hi;
      cellRange(grid, boxes[part].inflated(reach), lo, hi);
      for (int z = lo.z; z <= hi.z; ++z)
        for (int y = lo.y; y <= hi.y; ++y)
          for (int x = lo.x; x <= hi.x; ++x) {
            const glm::ivec3 c(x, y, z);
            const float gap = boxBoxDistance(cellBox(grid, c), boxes[part]);
            if (gap <= reach) visit(grid.cellIndex(c), std::int32_t(part), gap <= 0.0f);
          }
    }
  };
  forEachListing([&](int cell, std::int32_t, bool touches) {
    ++grid.cells[std::size_t(cell)].count;
    if (touches) occupied[std::size_t(cell)] = 1;
  });
  std::int32_t next = 0;
  for (SceneGrid::Cell& cell : grid.cells) {
    cell.first = next;
    next += cell.count;
    cell.count = 0;
  }
  grid.entries.resize(std::size_t(next));
  forEachListing([&](int cell, std::int32_t part, bool) {
    SceneGrid::Cell& c = grid.cells[std::size_t(cell)];
    grid.entries[std::size_t(c.first + c.count++)] = part;
  });

  // A cell k cells (Chebyshev) from the nearest occupied one is at least (k - 1) cell sizes
  // from every part; every cell is at least the reach from the parts it does not list.
  const std::vector<int> steps = chebyshevDistance(grid, occupied);
  for (std::size_t i = 0; i < cellCount; ++i)
    grid.cells[i].clearance = std::max(reach, float(steps[i] - 1) * grid.cellSize);
  return grid;
}

}  // namespace floptle::render
