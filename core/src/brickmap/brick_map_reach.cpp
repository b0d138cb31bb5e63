// BrickMap's empty reach: for each top cell, the half width of the largest cube of empty,
// non-solid top cells centred on it (see emptyReach_ in brick_map.h).
//
// The reach is the chessboard (L-infinity) distance to the nearest occupied cell, minus one.
// Two raster passes of a 3 x 3 x 3 chamfer mask with unit weights give that distance exactly
// (every chessboard-shortest path from a cell to an occupied one can be taken as a run of
// steps that each decrease, or each increase, the raster index within one of the passes).
#include <algorithm>

#include "floptle/core/brickmap/brick_map.h"

namespace floptle {

void BrickMap::computeEmptyReach() {
  const int cells = dims_.x * dims_.y * dims_.z;
  // Distance to the nearest occupied cell (top cells), capped one past the largest reach.
  constexpr int kFar = kMaxEmptyReach + 1;
  std::vector<std::uint8_t> d(static_cast<std::size_t>(cells));
  for (int c = 0; c < cells; ++c) d[c] = occupied(c) ? 0 : kFar;
  // dir = +1: raster order (x fastest); -1: the reverse.
  auto pass = [&](int dir) {
    const glm::ivec3 first = dir > 0 ? glm::ivec3(0) : dims_ - 1;
    for (int z = first.z; z >= 0 && z < dims_.z; z += dir)
      for (int y = first.y; y >= 0 && y < dims_.y; y += dir)
        for (int x = first.x; x >= 0 && x < dims_.x; x += dir) {
          const int c = cellIndex({x, y, z});
          if (d[c] == 0) continue;
          int best = d[c];
          // The 13 neighbours that come before this cell in the pass's order.
          for (int dz = -1; dz <= 0; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
              for (int dx = -1; dx <= 1; ++dx) {
                if (dz == 0 && (dy > 0 || (dy == 0 && dx >= 0))) continue;
                const int nx = x + dir * dx, ny = y + dir * dy, nz = z + dir * dz;
                if (nx < 0 || ny < 0 || nz < 0 || nx >= dims_.x || ny >= dims_.y || nz >= dims_.z)
                  continue;
                best = std::min(best, d[cellIndex({nx, ny, nz})] + 1);
              }
          d[c] = static_cast<std::uint8_t>(best);
        }
  };
  pass(1);
  pass(-1);
  emptyReach_.resize(static_cast<std::size_t>(cells));
  for (int c = 0; c < cells; ++c)
    emptyReach_[c] = static_cast<std::uint8_t>(d[c] == 0 ? 0 : d[c] - 1);
}

void BrickMap::noteOccupied(int cell) {
  const glm::ivec3 o = cellCoords(cell);
  // A cell at chessboard distance r from the new one can reach at most r - 1 cells now; cells
  // farther than kMaxEmptyReach + 1 keep whatever they had (never more than kMaxEmptyReach).
  constexpr int kR = kMaxEmptyReach + 1;
  const glm::ivec3 lo = glm::max(o - kR, glm::ivec3(0)), hi = glm::min(o + kR, dims_ - 1);
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        const int r = std::max({std::abs(x - o.x), std::abs(y - o.y), std::abs(z - o.z)});
        std::uint8_t& reach = emptyReach_[cellIndex({x, y, z})];
        reach = static_cast<std::uint8_t>(std::min<int>(reach, std::max(r - 1, 0)));
      }
}

}  // namespace floptle
