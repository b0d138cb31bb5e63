#pragma once
// Shared by the brickmap tests: every value a BrickMap stores, as bits, to compare two maps or
// one map before and after a change exactly.
#include <bit>
#include <cstdint>
#include <vector>

#include "floptle/core/brickmap/brick_map.h"

namespace floptle::physics::testing {

/// Every top cell's centre value and, where it has a brick, its samples, x fastest, as bits.
inline std::vector<std::uint32_t> samplesOf(const BrickMap& map) {
  std::vector<std::uint32_t> bits;
  const glm::ivec3 dims = map.dims();
  for (int k = 0; k < dims.z; ++k)
    for (int j = 0; j < dims.y; ++j)
      for (int i = 0; i < dims.x; ++i) {
        const glm::ivec3 cell(i, j, k);
        bits.push_back(std::bit_cast<std::uint32_t>(map.centreValue(cell)));
        const int brick = map.brickAt(cell);
        if (brick < 0) continue;
        for (int c = 0; c < BrickMap::kBrickSamples; ++c)
          bits.push_back(
              std::bit_cast<std::uint32_t>(map.brickSample(brick, c % 9, (c / 9) % 9, c / 81)));
      }
  return bits;
}

}  // namespace floptle::physics::testing
