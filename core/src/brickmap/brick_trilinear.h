#pragma once
// Trilinear interpolation inside one 9^3 brick, with the gradient of the same interpolant.
#include <algorithm>
#include <cstdint>

#include "floptle/core/brickmap/brick_map.h"

namespace floptle {

/// s: the brick's 729 stored samples, step: meters per stored unit; l: position in fine cells
/// from the brick's minimum corner (in [0, 8]); gradient (may be null) in 1/m given invCell (1/m).
inline float brickTrilinear(const std::int16_t* s, float step, Vec3 l, Vec3* gradient,
                            float invCell) {
  constexpr int S = BrickMap::kSamples;
  const int ix = std::clamp(static_cast<int>(l.x), 0, BrickMap::kCells - 1);
  const int iy = std::clamp(static_cast<int>(l.y), 0, BrickMap::kCells - 1);
  const int iz = std::clamp(static_cast<int>(l.z), 0, BrickMap::kCells - 1);
  const float fx = l.x - static_cast<float>(ix), fy = l.y - static_cast<float>(iy),
              fz = l.z - static_cast<float>(iz);
  // In stored steps, scaled to meters once at the end (the interpolant is linear in its corners).
  const std::int16_t* c = s + ix + S * (iy + S * iz);
  const float c000 = c[0], c100 = c[1], c010 = c[S], c110 = c[S + 1];
  const float c001 = c[S * S], c101 = c[S * S + 1], c011 = c[S * S + S], c111 = c[S * S + S + 1];
  const float x00 = c000 + (c100 - c000) * fx, x10 = c010 + (c110 - c010) * fx;
  const float x01 = c001 + (c101 - c001) * fx, x11 = c011 + (c111 - c011) * fx;
  const float y0 = x00 + (x10 - x00) * fy, y1 = x01 + (x11 - x01) * fy;
  if (gradient) {
    const float dx0 = (c100 - c000) + ((c110 - c010) - (c100 - c000)) * fy;
    const float dx1 = (c101 - c001) + ((c111 - c011) - (c101 - c001)) * fy;
    const float perCell = step * invCell;
    gradient->x = (dx0 + (dx1 - dx0) * fz) * perCell;
    gradient->y = ((x10 - x00) + ((x11 - x01) - (x10 - x00)) * fz) * perCell;
    gradient->z = (y1 - y0) * perCell;
  }
  return (y0 + (y1 - y0) * fz) * step;
}

}  // namespace floptle
