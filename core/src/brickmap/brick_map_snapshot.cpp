// BrickMap snapshots (copy on write of bricks) and the content hash.
#include <algorithm>
#include <cassert>
#include <cstring>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/fnv_hash.h"

namespace floptle {

BrickMap::Snapshot BrickMap::snapshot() const {
  const std::size_t bricks = pool_.size() / kBrickSamples;
  brickCopies_.resize(bricks);
  Snapshot s;
  s.brickOf = brickOf_;
  s.centre = centre_;
  s.bakedAt = bakedAt_;
  s.cellBrickMin = cellBrickMin_;
  s.emptyReach = emptyReach_;
  s.bricks.resize(bricks);
  for (std::size_t b = 0; b < bricks; ++b) {
    if (!brickCopies_[b]) {
      auto copy = std::make_shared<BrickCopy>();
      std::memcpy(copy->samples, pool_.data() + b * kBrickSamples, sizeof copy->samples);
      brickCopies_[b] = std::move(copy);
    }
    s.bricks[b] = brickCopies_[b];
  }
  s.freeBricks = freeBricks_;
  s.epoch = epoch_;
  s.liveBricks = liveBricks_;
  return s;
}

void BrickMap::restore(const Snapshot& s) {
  assert(s.brickOf.size() == brickOf_.size());
  const std::size_t bricks = s.bricks.size();
  // The pool holds exactly the snapshot's bricks: any allocated since are cut off, any freed
  // since are live again.
  pool_.resize(bricks * kBrickSamples, 0);
  brickMin_.resize(bricks, 0.0f);
  blockMin_.resize(bricks * kBlockMins, 0);
  surfaceCells_.resize(bricks * kSurfaceWords, 0);
  blockPlane_.resize(bricks * kBlockPlanes, BlockPlane{{0, 0, 0}, -128});
  brickCopies_.resize(bricks);
  for (std::size_t b = 0; b < bricks; ++b) {
    if (brickCopies_[b] == s.bricks[b]) continue;  // the same copy: samples unchanged
    std::memcpy(pool_.data() + b * kBrickSamples, s.bricks[b]->samples,
                sizeof s.bricks[b]->samples);
    summarizeBrick(static_cast<int>(b));
    brickCopies_[b] = s.bricks[b];
  }
  brickOf_ = s.brickOf;
  centre_ = s.centre;
  bakedAt_ = s.bakedAt;
  cellBrickMin_ = s.cellBrickMin;
  emptyReach_ = s.emptyReach;
  freeBricks_ = s.freeBricks;
  epoch_ = s.epoch;
  liveBricks_ = s.liveBricks;
}

std::uint64_t BrickMap::contentHash() const {
  Fnv1a64 h;
  h.u64(epoch_);
  for (std::size_t cell = 0; cell < brickOf_.size(); ++cell) {
    h.f32(centre_[cell]);
    h.u64(bakedAt_[cell]);
    h.u64(emptyReach_[cell]);
    const std::int32_t brick = brickOf_[cell];
    h.u64(brick >= 0);
    if (brick >= 0)
      h.bytes(pool_.data() + static_cast<std::size_t>(brick) * kBrickSamples,
              kBrickSamples * sizeof(std::int16_t));
  }
  return h.value();
}

}  // namespace floptle
