#pragma once
// BrickMap: a sparse signed-distance grid (seed 000, "Baked sparse SDF / voxel field colliders").
//
// Layout: a dense top-level grid of brick cells, each 8 x 8 x 8 fine cells of `cellSize`. A top
// cell holds either a brick (9 x 9 x 9 samples at the fine-cell corners, faces shared with the
// neighbours duplicated so an interpolation never leaves its brick) or nothing: empty space is
// stored once, as the signed distance at the cell's centre. Bricks sit contiguously in one pool
// (729 samples each, x fastest), so a query touches one brick-index load and one 1.5 KB block.
// A sample is a 16-bit multiple of sampleStep() (rounded to nearest): half the memory of floats,
// so twice as many bricks stay in cache, at an error of at most sampleStep() / 2 (0.07 mm at
// 0.25 m cells). Every query, bound and bit is of the stored field, so the walk's exactness
// holds for it.
//
// Invariant: a top cell without a brick contains no surface within `bandWidth` of any of its
// points (|d| >= bandWidth there), which is what lets a ray skip it whole.
//
// Queries are const and thread-safe; bake/rebake mutate.
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/huge_page_vector.h"
#include "floptle/core/math.h"

namespace floptle {

/// Fills out[i] with the signed distance at points[i] (m), negative inside. Where the true
/// |distance| exceeds maxDistance the value may be any number of the right sign with magnitude
/// >= maxDistance (a bounded search may stop there); analytic fields just ignore maxDistance.
/// +infinity means "farther than maxDistance, side unknown": a brick then takes the side from
/// an adjacent sample (two samples a cell apart, one at least a band from the surface, are on
/// the same side) or from its centre value, with magnitude maxDistance.
/// Called from several threads at once when a bake runs multithreaded.
using DistanceBatchFn =
    std::function<void(std::span<const Vec3> points, float maxDistance, std::span<float> out)>;

/// Progress of a bake: fraction in [0, 1] and the stage in words. Called from the calling thread.
using BakeProgress = std::function<void(float fraction, std::string_view stage)>;

struct BrickMapSettings {
  /// Region to cover (m); grown by the band and a cell on every side, then to whole bricks.
  Aabb bounds;
  /// Fine cell edge (m), > 0.
  float cellSize = 0.25f;
  /// Narrow-band half width (m): bricks exist wherever the surface is this close; 0 = 3 cells.
  float bandWidth = 0.0f;
  /// Worker threads for the bake (>= 1).
  int threads = 1;
};

class BrickMap {
 public:
  static constexpr int kCells = 8;             ///< fine cells per brick edge
  static constexpr int kSamples = kCells + 1;  ///< samples per brick edge
  static constexpr int kBrickSamples = kSamples * kSamples * kSamples;  ///< 729 samples a brick

  /// Bakes `distance` over the settings' region. Errors: non-finite or empty bounds, a cell
  /// size <= 0, more than 2^26 top cells, cancellation.
  static Expected<BrickMap> bake(const BrickMapSettings& settings, const DistanceBatchFn& distance,
                                 const BakeProgress& progress = {},
                                 const std::atomic<bool>* cancel = nullptr);

  /// Signed distance (m): trilinear inside bricks; in empty space the centre values of the
  /// top cells interpolated (extrapolated in the half cell next to the grid's faces), never
  /// smaller in magnitude than the band; outside the grid, the distance to the surface point
  /// the field at the nearest grid point leads to (inside a solid the grid cuts: that point's
  /// value deepened by the gap).
  float distance(Vec3 p) const;
  /// Distance and the gradient of the same interpolated field (not normalized).
  float distanceGradient(Vec3 p, Vec3& gradient) const;
  /// Nearest surface point estimate p - d * n with n the normalized gradient; returns d.
  float closestPoint(Vec3 p, Vec3& point, Vec3& normal) const;

  struct RayHit {
    bool hit = false;
    float distance = 0.0f;  ///< along the unit direction (m)
    Vec3 point{0.0f};       ///< ray point at the hit (m)
    Vec3 normal{0.0f};      ///< outward unit normal of the field there
  };
  /// First point along origin + s * unitDir, s in [0, maxDistance], where the field is <=
  /// radius (radius 0: a ray; > 0: a sphere cast). While radius < bandWidth the crossing is
  /// exact for the trilinear field: a hierarchical walk skips every top cell, 4^3-cell and
  /// 2^3-cell block and fine cell whose smallest sample exceeds the radius, and solves the
  /// cubic the trilinear field makes along the ray in the remaining fine cells (first root,
  /// found between the cubic's extrema, refined by Illinois regula falsi). Larger radii are
  /// sphere-traced through the coarse field, conservative but slower. A start already within
  /// `radius` hits at s = 0.
  RayHit raycast(Vec3 origin, Vec3 unitDir, float maxDistance, float radius = 0.0f) const;

  /// Re-samples up to `budget` top cells within searchRadius (m) of `points`, by priority
  /// (rounds since last sampled) / (1 + distance in bricks): the cells nearest a body refresh
  /// most often, farther ones in turn as they age. Allocates a brick where the surface came
  /// near, frees one where it left. Returns how many cells were re-baked.
  int rebakeNearest(const DistanceBatchFn& distance, std::span<const Vec3> points, int budget,
                    float searchRadius);

  /// True when p lies in the grid, in a top cell the latest round (the bake, or the last
  /// rebakeNearest) sampled: its value there is as current as that round.
  bool sampledInLastRound(Vec3 p) const;

  /// What rebakeNearest changes, for saving and restoring a simulation. Bricks are copied on
  /// write: a brick's samples are shared by the map and every snapshot taken since it was
  /// last re-baked, so a snapshot after a step copies only the bricks re-baked since the one
  /// before, plus the top grid's per-cell arrays (17 bytes a top cell). Immutable once taken.
  struct Snapshot;
  /// Not concurrently with itself or with a bake (it fills the map's cache of brick copies);
  /// queries may run meanwhile.
  Snapshot snapshot() const;
  /// Puts back a snapshot of this map (same grid): afterwards every query, and every
  /// rebake, gives the bits they gave when it was taken. Rewrites only the bricks that differ.
  void restore(const Snapshot& snapshot);
  /// FNV-1a 64 of what queries and re-bakes read: per top cell its centre value, re-bake
  /// epoch, empty reach and brick samples, in cell order, and the re-bake epoch.
  std::uint64_t contentHash() const;

  // Layout, for tests, benchmarks and writers.
  float cellSize() const { return cellSize_; }
  float bandWidth() const { return bandWidth_; }
  /// Minimum corner of the top-level grid (m).
  Vec3 origin() const { return origin_; }
  /// Top-level grid size in bricks.
  glm::ivec3 dims() const { return dims_; }
  Aabb gridBounds() const { return {origin_, origin_ + Vec3(dims_) * brickSize_}; }
  int brickCount() const { return liveBricks_; }
  /// Brick pool index of a top cell, -1 when empty.
  int brickAt(glm::ivec3 cell) const { return brickOf_[cellIndex(cell)]; }
  /// Signed distance stored at a top cell's centre (m).
  float centreValue(glm::ivec3 cell) const { return centre_[cellIndex(cell)]; }
  /// Empty reach of a top cell (top cells): every cell of the (2r + 1)^3 cube centred on it
  /// has no brick and is not solid; 0 for a cell that has a brick or is solid. After a bake it
  /// is the chessboard distance to the nearest such cell less one (at most kMaxEmptyReach,
  /// so a walk skips up to 61 top cells at once and a cell that gains a surface in a rebake
  /// updates the 63^3 cells around it).
  int emptyReach(glm::ivec3 cell) const { return emptyReach_[cellIndex(cell)]; }
  static constexpr int kMaxEmptyReach = 30;
  /// Sample (i, j, k) in [0, 8]^3 of a brick (m), as stored: a multiple of sampleStep().
  float brickSample(int brick, int i, int j, int k) const {
    return pool_[static_cast<std::size_t>(brick) * kBrickSamples + i +
                 kSamples * (j + kSamples * k)] *
           sampleStep_;
  }
  /// The quantum of the stored samples (m): (bandWidth + 2 * brick edge) / 32767, so the
  /// 16 bits span every distance a brick of an exact field holds (its centre is within half a
  /// diagonal plus the band of the surface, its samples within half a diagonal of its centre).
  /// Larger magnitudes (fields that overstate distance) are stored as +-32767 steps.
  float sampleStep() const { return sampleStep_; }
  std::size_t memoryBytes() const;

  /// A lower bound (m) of a brick's sub-block samples: level 0 = the 2 x 2 x 2 blocks of
  /// 4 x 4 x 4 fine cells, level 1 = the 4 x 4 x 4 blocks of 2 x 2 x 2 fine cells; block (i, j,
  /// k) with i fastest. It is the block's smallest sample rounded down to a multiple of
  /// bandWidth / 100 (stored in one byte: above 1.27 bands it saturates there, still a lower
  /// bound; under -1.27 bands it is -infinity, no bound). The trilinear field anywhere in the
  /// block is >= it (an interpolation never goes below its smallest corner), which is what lets
  /// a ray skip the block whole.
  float blockLowerBound(int brick, int level, glm::ivec3 block) const;
  /// Whether fine cell (i, j, k) in [0, 7]^3 of a brick is marked as a surface cell: one of its
  /// eight corner samples is <= 0, so the trilinear field may reach zero in it. A ray (radius
  /// 0) reads only these bits to pass cells, so they must be exact after every bake and rebake.
  bool surfaceCell(int brick, glm::ivec3 cell) const;
  /// The plane under 2 x 2 x 2-cell block (i, j, k) in [0, 3]^3 of a brick, at point `local`
  /// (cells from the block's low corner, in [0, 2]^3): a lower bound (m) of the trilinear field
  /// there, -infinity where the block has none. A ray passes a block whose plane stays above
  /// zero along its segment without reading the block's samples.
  float blockPlaneBound(int brick, glm::ivec3 block, Vec3 local) const;

 private:
  static constexpr int kBlockMins = 8 + 64;  ///< per brick: 2^3 blocks of 4^3 cells, 4^3 of 2^3
  static constexpr int kBlockSteps = 100;    ///< quantization steps per band width (-)
  static constexpr int kSurfaceWords = 8;    ///< per brick: one 64-bit word a 4^3-cell block
  /// Where fine cell (i, j, k) in [0, 7]^3 of a brick keeps its surface bit: word (its 4^3
  /// block), byte in the word (its 2^3 block in that) and bit in the byte (the cell in that).
  static constexpr int surfaceWord(int i, int j, int k) {
    return (i >> 2) + 2 * ((j >> 2) + 2 * (k >> 2));
  }
  static constexpr int surfaceByte(int i, int j, int k) {
    return ((i >> 1) & 1) + 2 * (((j >> 1) & 1) + 2 * ((k >> 1) & 1));
  }
  static constexpr int surfaceBit(int i, int j, int k) {
    return (i & 1) + 2 * ((j & 1) + 2 * (k & 1));
  }
  /// The cell's bit in its word.
  static constexpr int surfaceShift(int i, int j, int k) {
    return 8 * surfaceByte(i, j, k) + surfaceBit(i, j, k);
  }
  /// f(p) >= offset * blockStep_ + cellSize_ * (slope / 64) . (p - c) throughout a 2^3-cell block,
  /// p and the block's centre c in fine cells: slope in 1/64 m per m, offset in blockStep_
  /// (rounded down, saturated at 127; -128: no bound, it would lie under -1.27 bands).
  struct BlockPlane {
    std::int8_t slope[3];
    std::int8_t offset;
  };
  static constexpr int kBlockPlanes = 64;  ///< per brick: one a 2^3-cell block
  /// Where a brick keeps the plane of the 2^3 block holding fine cell (i, j, k) in [0, 7]^3: by
  /// 4^3 block, then 2^3 block in that, as the surface bits, so a 4^3 block's eight planes
  /// share half a cache line.
  static constexpr int planeIndex(int i, int j, int k) {
    return 8 * surfaceWord(i, j, k) + surfaceByte(i, j, k);
  }
  RayHit raycastMarch(Vec3 origin, Vec3 unitDir, float maxDistance, float radius) const;
  /// Recomputes a brick's smallest sample, block minima, surface bits and block planes from its
  /// samples.
  void summarizeBrick(int brick);
  /// The brick of top cell `cell`'s samples into `out` (kBrickSamples, m), sides of unknown
  /// samples resolved (centre: the cell's centre value). False where the field gave a NaN or
  /// -infinity: then nothing may be stored.
  bool sampleBrick(int cell, float centre, const DistanceBatchFn& distance, float* out) const;
  /// Stores sampled values (m) as brick `brick` of top cell `cell`, and its summaries.
  void storeBrick(int cell, int brick, const float* samples);
  /// A top cell a ray must stop in or look into: it holds a brick, or it is solid.
  bool occupied(int cell) const { return brickOf_[cell] >= 0 || centre_[cell] < 0.0f; }
  /// emptyReach_ of every cell from scratch (two chamfer passes over the top grid).
  void computeEmptyReach();
  /// Shrinks the reach of the cells around `cell`, which has just become occupied.
  void noteOccupied(int cell);
  int cellIndex(glm::ivec3 c) const { return c.x + dims_.x * (c.y + dims_.y * c.z); }
  /// The inverse of cellIndex.
  glm::ivec3 cellCoords(int cell) const {
    return {cell % dims_.x, (cell / dims_.x) % dims_.y, cell / (dims_.x * dims_.y)};
  }
  Vec3 cellMin(glm::ivec3 c) const { return origin_ + Vec3(c) * brickSize_; }
  float emptyDistance(Vec3 p, Vec3* gradient) const;
  /// The surface point the field at p (value d > 0, unit normal n) points to: p - d n, then
  /// two Newton steps of the field towards its zero.
  Vec3 surfacePointFrom(Vec3 p, float d, Vec3 normal) const;
  float insideDistance(Vec3 p, Vec3* gradient) const;
  int allocateBrick();

  float cellSize_ = 0.25f, invCellSize_ = 4.0f;
  float brickSize_ = 2.0f, invBrickSize_ = 0.5f;
  float bandWidth_ = 0.75f;
  float brickHalfDiagonal_ = 1.7320508f;
  Vec3 origin_{0.0f};
  glm::ivec3 dims_{0};
  std::vector<std::int32_t> brickOf_;   ///< per top cell: pool index or -1
  std::vector<float> centre_;           ///< per top cell: signed distance at its centre (m)
  std::vector<std::uint32_t> bakedAt_;  ///< per top cell: rebake epoch it was last sampled
  /// Bricks, kBrickSamples samples each in sampleStep_ (huge pages: a walk touches a few lines
  /// in each of many random bricks).
  HugePageVector<std::int16_t> pool_;
  float sampleStep_ = 1.0f, invSampleStep_ = 1.0f;  ///< m per stored step, and its inverse
  std::vector<float> brickMin_;                     ///< per pool brick: its smallest sample (m)
  /// Per top cell, its brick's brickMin_ (m; unused where it has none): the walk reads it
  /// beside brickOf_ instead of after it (one dependent load less a step).
  std::vector<float> cellBrickMin_;
  /// Per pool brick, kBlockMins block minima as multiples of blockStep_, rounded down and
  /// clamped to [-128, 127]: one 72-byte record per brick, so the skip tests of a walk stay in
  /// cache (the sample pool is 20 times larger).
  std::vector<std::int8_t> blockMin_;
  /// Per pool brick, 8 words of surface-cell bits: bit 8 b + e of word w is set when fine cell
  /// e (x fastest) of 2^3 block b of 4^3 block w has a corner <= 0, i.e. the trilinear field
  /// may reach zero in it. A ray (radius 0) skips a 4^3 block whose word is 0, a 2^3 block
  /// whose byte is 0 and a cell whose bit is clear, without reading its samples.
  std::vector<std::uint64_t> surfaceCells_;
  /// Per pool brick, kBlockPlanes planes, at planeIndex: one under the trilinear field of each
  /// 2^3-cell block (four cache lines a brick). Where the surface is smooth they hug it: a ray
  /// passing a centimetre above a flat block is turned away, where the surface bits only tell
  /// that the block holds a corner <= 0. Line-aligned (HugePageVector), so that a brick's planes
  /// are its four lines and a 4^3 block's half of one.
  HugePageVector<BlockPlane> blockPlane_;
  /// Per top cell: r such that every cell of the (2r + 1)^3 cube centred on it is empty and
  /// not solid (0 for an occupied cell), at most kMaxEmptyReach. A lower bound of the true
  /// reach: a cell that gains a surface shrinks its neighbours' at once, one that loses it does
  /// not grow them until the next bake. The walk skips such a cube whole: a ray through the
  /// empty space inside a map (between objects, in a hollow) crosses tens of top cells in a
  /// few steps. (A grid is baked tight around its surface, so the space above a terrain is
  /// mostly outside it: there the reach rarely exceeds 0.)
  std::vector<std::uint8_t> emptyReach_;
  double blockStep_ = 0.0075;  ///< bandWidth / kBlockSteps (m)
  std::vector<std::int32_t> freeBricks_;
  std::uint32_t epoch_ = 0;
  int liveBricks_ = 0;
  /// One brick's stored samples, shared between the map and its snapshots.
  struct BrickCopy {
    std::int16_t samples[kBrickSamples];
  };
  /// Per pool brick: the copy its samples equal, null once re-baked since (snapshot()
  /// fills it, storeBrick clears it).
  mutable std::vector<std::shared_ptr<const BrickCopy>> brickCopies_;
};

struct BrickMap::Snapshot {
  std::vector<std::int32_t> brickOf;
  std::vector<float> centre;
  std::vector<std::uint32_t> bakedAt;
  std::vector<float> cellBrickMin;
  std::vector<std::uint8_t> emptyReach;
  std::vector<std::shared_ptr<const BrickCopy>> bricks;  ///< per pool brick
  std::vector<std::int32_t> freeBricks;
  std::uint32_t epoch = 0;
  int liveBricks = 0;
};

}  // namespace floptle
