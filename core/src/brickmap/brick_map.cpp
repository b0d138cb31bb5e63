// BrickMap: bake, trilinear queries, rebake on a budget (raycast in brick_map_raycast.cpp).
#include "floptle/core/brickmap/brick_map.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "brickmap/brick_trilinear.h"

namespace floptle {
namespace {

/// Runs body(i) for i in [0, count) on `threads` threads (the caller is one of them), calling
/// `tick(done)` from the caller every so often. Stops early (returns false) when cancelled.
template <class Body, class Tick>
bool parallelFor(int count, int threads, const std::atomic<bool>* cancel, Body body, Tick tick) {
  std::atomic<int> next{0}, done{0};
  auto work = [&] {
    for (;;) {
      if (cancel && cancel->load(std::memory_order_relaxed)) return;
      const int i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) return;
      body(i);
      done.fetch_add(1, std::memory_order_relaxed);
    }
  };
  std::vector<std::thread> helpers;
  for (int k = 1; k < std::max(1, threads); ++k) helpers.emplace_back(work);
  for (;;) {  // the caller works too, reporting between items
    if (cancel && cancel->load(std::memory_order_relaxed)) break;
    const int i = next.fetch_add(1, std::memory_order_relaxed);
    if (i >= count) break;
    body(i);
    tick(done.fetch_add(1, std::memory_order_relaxed) + 1);
  }
  for (auto& h : helpers) h.join();
  return !(cancel && cancel->load());
}

/// The largest float <= v: a lower bound kept a lower bound through the rounding to float.
float floatAtMost(double v) {
  const float f = static_cast<float>(v);
  return double(f) > v ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
}

}  // namespace

Expected<BrickMap> BrickMap::bake(const BrickMapSettings& settings, const DistanceBatchFn& distance,
                                  const BakeProgress& progress, const std::atomic<bool>* cancel) {
  if (!(settings.cellSize > 0.0f) || !std::isfinite(settings.cellSize))
    return Error{"cell_size", "must be a finite number > 0"};
  if (settings.bounds.empty() || !isFinite(settings.bounds.min) || !isFinite(settings.bounds.max))
    return Error{"bounds", "the region to bake must be finite and non-empty"};
  if (!(settings.bandWidth >= 0.0f) || !std::isfinite(settings.bandWidth))
    return Error{"band_width", "must be a finite number >= 0"};
  BrickMap map;
  map.cellSize_ = settings.cellSize;
  map.invCellSize_ = 1.0f / settings.cellSize;
  map.brickSize_ = settings.cellSize * kCells;
  map.invBrickSize_ = 1.0f / map.brickSize_;
  map.bandWidth_ = settings.bandWidth > 0.0f ? settings.bandWidth : 3.0f * settings.cellSize;
  map.brickHalfDiagonal_ = 0.5f * std::sqrt(3.0f) * map.brickSize_;
  map.sampleStep_ = (map.bandWidth_ + 2.0f * map.brickSize_) / 32767.0f;
  map.invSampleStep_ = 1.0f / map.sampleStep_;
  const float pad = map.bandWidth_ + settings.cellSize;
  const Vec3 lo = settings.bounds.min - Vec3(pad), hi = settings.bounds.max + Vec3(pad);
  const glm::dvec3 counts = glm::ceil(glm::dvec3(hi - lo) / static_cast<double>(map.brickSize_));
  if (counts.x * counts.y * counts.z > double(1 << 26))
    return Error{"cell_size", "too small for the region: more than 2^26 bricks"};
  map.dims_ = glm::max(glm::ivec3(counts), glm::ivec3(1));
  map.origin_ = 0.5f * (lo + hi) - 0.5f * Vec3(map.dims_) * map.brickSize_;
  const int cells = map.dims_.x * map.dims_.y * map.dims_.z;
  map.brickOf_.assign(cells, -1);
  map.centre_.assign(cells, 0.0f);
  map.bakedAt_.assign(cells, 0);
  map.cellBrickMin_.assign(cells, std::numeric_limits<float>::infinity());

  // 1. The distance at every top cell's centre, exact (unbounded): 256 centres per task.
  constexpr int kChunk = 256;
  const int chunks = (cells + kChunk - 1) / kChunk;
  auto report = [&](float f, std::string_view stage) {
    if (progress) progress(f, stage);
  };
  report(0.0f, "classifying bricks");
  const bool classified = parallelFor(
      chunks, settings.threads, cancel,
      [&](int chunk) {
        const int first = chunk * kChunk, n = std::min(kChunk, cells - first);
        std::vector<Vec3> points(n);
        for (int i = 0; i < n; ++i) {
          const int c = first + i;
          const glm::ivec3 cell = map.cellCoords(c);
          points[i] = map.cellMin(cell) + Vec3(0.5f * map.brickSize_);
        }
        distance(points, std::numeric_limits<float>::infinity(),
                 std::span<float>(map.centre_.data() + first, n));
      },
      [&](int done) {
        if (done % 16 == 0) report(0.1f * done / chunks, "classifying bricks");
      });
  if (!classified) return Error{"bake", "cancelled"};

  // 2. A brick wherever the surface may come within the band of the cell.
  std::vector<int> brickCells;
  for (int c = 0; c < cells; ++c) {
    if (!std::isfinite(map.centre_[c]))
      return Error{"bake", "the distance function returned a non-finite value"};
    if (std::abs(map.centre_[c]) <= map.brickHalfDiagonal_ + map.bandWidth_) {
      map.brickOf_[c] = static_cast<std::int32_t>(brickCells.size());
      brickCells.push_back(c);
    }
  }
  map.liveBricks_ = static_cast<int>(brickCells.size());
  map.computeEmptyReach();
  map.pool_.assign(brickCells.size() * kBrickSamples, 0);
  map.brickMin_.assign(brickCells.size(), 0.0f);
  map.blockStep_ = double(map.bandWidth_) / kBlockSteps;
  map.blockMin_.assign(brickCells.size() * kBlockMins, 0);
  map.surfaceCells_.assign(brickCells.size() * kSurfaceWords, 0);
  map.blockPlane_.assign(brickCells.size() * kBlockPlanes, BlockPlane{{0, 0, 0}, -128});

  // 3. Sample the bricks, one brick per task.
  const int total = static_cast<int>(brickCells.size());
  const int every = std::max(1, total / 100);
  std::atomic<bool> nonFinite{false};
  const bool baked = parallelFor(
      total, settings.threads, cancel,
      [&](int i) {
        const int cell = brickCells[i];
        std::vector<float> samples(kBrickSamples);
        if (map.sampleBrick(cell, map.centre_[cell], distance, samples.data()))
          map.storeBrick(cell, i, samples.data());
        else
          nonFinite.store(true, std::memory_order_relaxed);
      },
      [&](int done) {
        if (done % every == 0) report(0.1f + 0.9f * done / total, "sampling bricks");
      });
  if (!baked) return Error{"bake", "cancelled"};
  if (nonFinite.load()) return Error{"bake", "the distance function returned a non-finite value"};
  report(1.0f, "done");
  return map;
}

bool BrickMap::sampleBrick(int cell, float centre, const DistanceBatchFn& distance,
                           float* out) const {
  // Each point from its grid-wide sample index, so a face two bricks share is sampled at the
  // same points in both and stored the same: the field stays continuous across bricks (the
  // rounding of a brick corner plus a cell offset could differ by an ulp, enough to tip a sample
  // to the next 16-bit step).
  const glm::ivec3 first = cellCoords(cell) * kCells;
  std::vector<Vec3> points(kBrickSamples);
  for (int k = 0, n = 0; k < kSamples; ++k)
    for (int j = 0; j < kSamples; ++j)
      for (int i = 0; i < kSamples; ++i, ++n)
        points[n] = origin_ + Vec3(first + glm::ivec3(i, j, k)) * cellSize_;
  distance(points, bandWidth_, std::span<float>(out, kBrickSamples));
  // Samples beyond the band with their side unknown (+inf): take it from a known neighbour.
  std::vector<int> queue;
  bool anyUnknown = false;
  for (int n = 0; n < kBrickSamples; ++n) {
    if (std::isinf(out[n]) && out[n] > 0.0f)
      anyUnknown = true;
    else
      queue.push_back(n);
  }
  if (anyUnknown) {
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int n = queue[head];
      const int i = n % kSamples, j = (n / kSamples) % kSamples, k = n / (kSamples * kSamples);
      const float side = out[n] < 0.0f ? -1.0f : 1.0f;
      const int neighbours[6][3] = {{i - 1, j, k}, {i + 1, j, k}, {i, j - 1, k},
                                    {i, j + 1, k}, {i, j, k - 1}, {i, j, k + 1}};
      for (const auto& q : neighbours) {
        if (q[0] < 0 || q[1] < 0 || q[2] < 0 || q[0] >= kSamples || q[1] >= kSamples ||
            q[2] >= kSamples)
          continue;
        const int m = q[0] + kSamples * (q[1] + kSamples * q[2]);
        if (std::isinf(out[m]) && out[m] > 0.0f) {
          out[m] = side * bandWidth_;
          queue.push_back(m);
        }
      }
    }
    // None known in the brick: the side of its centre value.
    const float side = centre < 0.0f ? -1.0f : 1.0f;
    for (int n = 0; n < kBrickSamples; ++n)
      if (std::isinf(out[n]) && out[n] > 0.0f) out[n] = side * bandWidth_;
  }
  return std::all_of(out, out + kBrickSamples, [](float v) { return std::isfinite(v); });
}

void BrickMap::storeBrick(int cell, int brick, const float* samples) {
  std::int16_t* stored = pool_.data() + static_cast<std::size_t>(brick) * kBrickSamples;
  for (int n = 0; n < kBrickSamples; ++n)
    stored[n] = static_cast<std::int16_t>(
        std::clamp(std::nearbyint(samples[n] * invSampleStep_), -32767.0f, 32767.0f));
  summarizeBrick(brick);
  cellBrickMin_[cell] = brickMin_[brick];
  if (static_cast<std::size_t>(brick) < brickCopies_.size())
    brickCopies_[static_cast<std::size_t>(brick)].reset();
}

void BrickMap::summarizeBrick(int brick) {
  // Of the stored field: the values a query reads.
  float s[kBrickSamples];
  const std::int16_t* stored = pool_.data() + static_cast<std::size_t>(brick) * kBrickSamples;
  for (int n = 0; n < kBrickSamples; ++n) s[n] = stored[n] * sampleStep_;
  // Each fine cell's smallest corner, rounded down to a step; the blocks' minima nest exactly
  // (a block's samples are its cells' corners).
  std::int8_t* large = blockMin_.data() + static_cast<std::size_t>(brick) * kBlockMins;
  std::int8_t* small = large + 8;
  std::fill(large, large + kBlockMins, std::int8_t{127});
  std::uint64_t* surface = surfaceCells_.data() + static_cast<std::size_t>(brick) * kSurfaceWords;
  std::fill(surface, surface + kSurfaceWords, std::uint64_t{0});
  float smallest = std::numeric_limits<float>::infinity();
  for (int k = 0; k < kCells; ++k)
    for (int j = 0; j < kCells; ++j)
      for (int i = 0; i < kCells; ++i) {
        const float* c = s + i + kSamples * (j + kSamples * k);
        const float m = std::min({c[0], c[1], c[kSamples], c[kSamples + 1], c[kSamples * kSamples],
                                  c[kSamples * kSamples + 1], c[kSamples * kSamples + kSamples],
                                  c[kSamples * kSamples + kSamples + 1]});
        smallest = std::min(smallest, m);
        const auto q =
            static_cast<std::int8_t>(std::clamp(std::floor(double(m) / blockStep_), -128.0, 127.0));
        std::int8_t& b2 = small[(i >> 1) + 4 * ((j >> 1) + 4 * (k >> 1))];
        std::int8_t& b4 = large[(i >> 2) + 2 * ((j >> 2) + 2 * (k >> 2))];
        b2 = std::min(b2, q);
        b4 = std::min(b4, q);
        if (m <= 0.0f) surface[surfaceWord(i, j, k)] |= std::uint64_t{1} << surfaceShift(i, j, k);
      }
  brickMin_[brick] = smallest;

  // Each 2^3 block's plane: the mean slope of its 27 samples between opposite faces, then the
  // highest offset that leaves every sample on or above it. The trilinear field reproduces a
  // plane, so where its corners lie on or above a plane, it does throughout the block.
  BlockPlane* planes = blockPlane_.data() + static_cast<std::size_t>(brick) * kBlockPlanes;
  for (int k = 0; k < kCells; k += 2)
    for (int j = 0; j < kCells; j += 2)
      for (int i = 0; i < kCells; i += 2) {
        const float* c = s + i + kSamples * (j + kSamples * k);
        auto at = [&](int a, int b, int e) { return double(c[a + kSamples * (b + kSamples * e)]); };
        double rise[3] = {0.0, 0.0, 0.0};  // high face less low face, summed over 9 pairs (m)
        for (int e = 0; e < 3; ++e)
          for (int b = 0; b < 3; ++b) {
            rise[0] += at(2, b, e) - at(0, b, e);
            rise[1] += at(b, 2, e) - at(b, 0, e);
            rise[2] += at(b, e, 2) - at(b, e, 0);
          }
        BlockPlane& plane = planes[planeIndex(i, j, k)];
        double perCell[3];  // the stored slope, m per cell
        for (int a = 0; a < 3; ++a) {
          const double slope = rise[a] / (9.0 * 2.0 * cellSize_);  // m per m
          plane.slope[a] =
              static_cast<std::int8_t>(std::clamp(std::round(64.0 * slope), -127.0, 127.0));
          perCell[a] = double(cellSize_) * plane.slope[a] / 64.0;
        }
        double lowest = std::numeric_limits<double>::infinity();
        for (int e = 0; e < 3; ++e)
          for (int b = 0; b < 3; ++b)
            for (int a = 0; a < 3; ++a)
              lowest = std::min(lowest, at(a, b, e) - (perCell[0] * (a - 1) + perCell[1] * (b - 1) +
                                                       perCell[2] * (e - 1)));
        const double offset = std::floor(lowest / blockStep_);
        plane.offset = static_cast<std::int8_t>(std::clamp(offset, -128.0, 127.0));  // -128: none
      }
}

float BrickMap::blockLowerBound(int brick, int level, glm::ivec3 block) const {
  const int n = level == 0 ? 2 : 4;
  const int q = blockMin_[static_cast<std::size_t>(brick) * kBlockMins + (level == 0 ? 0 : 8) +
                          block.x + n * (block.y + n * block.z)];
  if (q == -128) return -std::numeric_limits<float>::infinity();  // saturated: anything below
  return floatAtMost(blockStep_ * q);
}

float BrickMap::blockPlaneBound(int brick, glm::ivec3 block, Vec3 local) const {
  const glm::ivec3 cell = 2 * block;
  const BlockPlane plane = blockPlane_[static_cast<std::size_t>(brick) * kBlockPlanes +
                                       planeIndex(cell.x, cell.y, cell.z)];
  if (plane.offset == -128) return -std::numeric_limits<float>::infinity();
  double v = blockStep_ * plane.offset;
  for (int a = 0; a < 3; ++a)
    v += double(cellSize_) * plane.slope[a] / 64.0 * (double(local[a]) - 1.0);
  return floatAtMost(v);
}

bool BrickMap::surfaceCell(int brick, glm::ivec3 c) const {
  const std::uint64_t word =
      surfaceCells_[static_cast<std::size_t>(brick) * kSurfaceWords + surfaceWord(c.x, c.y, c.z)];
  return (word >> surfaceShift(c.x, c.y, c.z)) & 1u;
}

float BrickMap::insideDistance(Vec3 p, Vec3* gradient) const {
  const Vec3 q = (p - origin_) * invBrickSize_;
  const glm::ivec3 c = glm::clamp(glm::ivec3(glm::floor(q)), glm::ivec3(0), dims_ - 1);
  const int b = brickOf_[cellIndex(c)];
  if (b < 0) return emptyDistance(p, gradient);
  const Vec3 l = (p - cellMin(c)) * invCellSize_;
  return brickTrilinear(pool_.data() + static_cast<std::size_t>(b) * kBrickSamples, sampleStep_, l,
                        gradient, invCellSize_);
}

float BrickMap::emptyDistance(Vec3 p, Vec3* gradient) const {
  // Trilinear over the top cells' centre values; the magnitude kept >= band with the sign of
  // the cell p is in (an empty cell has one sign throughout).
  const Vec3 q = (p - origin_) * invBrickSize_;
  const glm::ivec3 home = glm::clamp(glm::ivec3(glm::floor(q)), glm::ivec3(0), dims_ - 1);
  const float sign = centre_[cellIndex(home)] < 0.0f ? -1.0f : 1.0f;
  const Vec3 g = q - 0.5f;
  glm::ivec3 i0 =
      glm::clamp(glm::ivec3(glm::floor(g)), glm::ivec3(0), glm::max(dims_ - 2, glm::ivec3(0)));
  const glm::ivec3 i1 = glm::min(i0 + 1, dims_ - 1);
  // Not clamped to [0, 1]: between the outermost centres and the grid's faces (half a top cell)
  // the field is extrapolated, so it goes on growing there instead of staying flat.
  const Vec3 f = g - Vec3(i0);
  auto at = [&](int x, int y, int z) { return centre_[cellIndex({x, y, z})]; };
  const float c000 = at(i0.x, i0.y, i0.z), c100 = at(i1.x, i0.y, i0.z);
  const float c010 = at(i0.x, i1.y, i0.z), c110 = at(i1.x, i1.y, i0.z);
  const float c001 = at(i0.x, i0.y, i1.z), c101 = at(i1.x, i0.y, i1.z);
  const float c011 = at(i0.x, i1.y, i1.z), c111 = at(i1.x, i1.y, i1.z);
  const float x00 = c000 + (c100 - c000) * f.x, x10 = c010 + (c110 - c010) * f.x;
  const float x01 = c001 + (c101 - c001) * f.x, x11 = c011 + (c111 - c011) * f.x;
  const float y0 = x00 + (x10 - x00) * f.y, y1 = x01 + (x11 - x01) * f.y;
  const float v = y0 + (y1 - y0) * f.z;
  if (gradient) {
    const float dx0 = (c100 - c000) + ((c110 - c010) - (c100 - c000)) * f.y;
    const float dx1 = (c101 - c001) + ((c111 - c011) - (c101 - c001)) * f.y;
    *gradient =
        Vec3(dx0 + (dx1 - dx0) * f.z, (x10 - x00) + ((x11 - x01) - (x10 - x00)) * f.z, y1 - y0) *
        invBrickSize_;
  }
  return sign * std::max(sign * v, bandWidth_);
}

float BrickMap::distanceGradient(Vec3 p, Vec3& gradient) const {
  const Aabb box = gridBounds();
  if (box.contains(p)) return insideDistance(p, &gradient);
  // Outside the grid: the nearest grid point q, and the surface point s its field points to
  // (q - d n). Outside the surface the distance is |p - s| (s is a surface point, so this is
  // an upper bound like the gap plus d(q) it replaced, and a much closer one), the normal
  // (p - s) / |p - s|.
  const Vec3 q = glm::clamp(p, box.min, box.max);
  const float d = insideDistance(q, &gradient);
  const Vec3 away = p - q;
  const float gap = glm::length(away);
  if (!(gap > 0.0f)) return d;
  const float len = glm::length(gradient);
  if (d > 0.0f && len > 0.0f) {
    const Vec3 fromSurface = p - surfacePointFrom(q, d, gradient / len);
    const float distance = glm::length(fromSurface);
    if (distance > 0.0f && std::isfinite(distance)) {
      gradient = fromSurface / distance;
      return distance;
    }
  }
  // Inside a solid the grid does not close: moving away adds depth on its side.
  gradient = (d < 0.0f ? -1.0f : 1.0f) * away / gap;
  return d + std::copysign(gap, d);
}

Vec3 BrickMap::surfacePointFrom(Vec3 p, float d, Vec3 normal) const {
  // p - d n from the coarse field may miss the surface by a good part of a top cell; two
  // Newton steps on the field there (the fine one, in a brick) put it on the surface. Far
  // away, |p - s| then errs only to second order in how far s is from p's true nearest point
  // (the distance is stationary there).
  const Aabb box = gridBounds();
  Vec3 s = p - normal * d;
  for (int step = 0; step < 2; ++step) {
    Vec3 g;
    const float v = insideDistance(glm::clamp(s, box.min, box.max), &g);
    const float g2 = glm::dot(g, g);
    if (!(g2 > 0.0f)) break;
    s -= g * (v / g2);
  }
  return s;
}

float BrickMap::distance(Vec3 p) const {
  if (gridBounds().contains(p)) return insideDistance(p, nullptr);
  Vec3 gradient;
  return distanceGradient(p, gradient);
}

float BrickMap::closestPoint(Vec3 p, Vec3& point, Vec3& normal) const {
  Vec3 gradient;
  const float d = distanceGradient(p, gradient);
  const float len = glm::length(gradient);
  normal = len > 0.0f ? gradient / len : kUp;
  point = p - d * normal;
  return d;
}

int BrickMap::allocateBrick() {
  ++liveBricks_;
  if (!freeBricks_.empty()) {
    const int b = freeBricks_.back();
    freeBricks_.pop_back();
    return b;
  }
  pool_.resize(pool_.size() + kBrickSamples, 0);
  brickMin_.push_back(0.0f);
  blockMin_.resize(blockMin_.size() + kBlockMins, 0);
  surfaceCells_.resize(surfaceCells_.size() + kSurfaceWords, 0);
  blockPlane_.resize(blockPlane_.size() + kBlockPlanes, BlockPlane{{0, 0, 0}, -128});
  return static_cast<int>(pool_.size() / kBrickSamples) - 1;
}

bool BrickMap::sampledInLastRound(Vec3 p) const {
  if (dims_.x == 0 || !gridBounds().contains(p)) return false;
  const glm::ivec3 c =
      glm::clamp(glm::ivec3(glm::floor((p - origin_) * invBrickSize_)), glm::ivec3(0), dims_ - 1);
  return bakedAt_[cellIndex(c)] == epoch_;
}

int BrickMap::rebakeNearest(const DistanceBatchFn& distance, std::span<const Vec3> points,
                            int budget, float searchRadius) {
  if (budget <= 0 || points.empty() || dims_.x == 0) return 0;
  struct Candidate {
    float distance;  // from the cell's box to the nearest point (m)
    std::uint32_t bakedAt;
    int cell;
  };
  std::vector<Candidate> candidates;
  for (const Vec3& p : points) {
    if (!isFinite(p)) continue;
    const glm::ivec3 lo =
        glm::clamp(glm::ivec3(glm::floor((p - Vec3(searchRadius) - origin_) * invBrickSize_)),
                   glm::ivec3(0), dims_ - 1);
    const glm::ivec3 hi =
        glm::clamp(glm::ivec3(glm::floor((p + Vec3(searchRadius) - origin_) * invBrickSize_)),
                   glm::ivec3(0), dims_ - 1);
    for (int z = lo.z; z <= hi.z; ++z)
      for (int y = lo.y; y <= hi.y; ++y)
        for (int x = lo.x; x <= hi.x; ++x) {
          const glm::ivec3 c(x, y, z);
          const float d = Aabb{cellMin(c), cellMin(c) + Vec3(brickSize_)}.distance(p);
          if (d <= searchRadius) candidates.push_back({d, bakedAt_[cellIndex(c)], cellIndex(c)});
        }
  }
  // Nearest first; a cell seen from several points keeps its nearest entry.
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.cell != b.cell ? a.cell < b.cell : a.distance < b.distance;
  });
  candidates.erase(
      std::unique(candidates.begin(), candidates.end(),
                  [](const Candidate& a, const Candidate& b) { return a.cell == b.cell; }),
      candidates.end());
  // Priority: staleness (rebake rounds since the cell was last sampled, + 1) divided by
  // (1 + distance in bricks), so the cells nearest a body refresh most often and every cell
  // within reach still gets its turn as it ages.
  const std::uint32_t now = epoch_ + 1;
  auto priority = [&](const Candidate& c) {
    return static_cast<float>(now - c.bakedAt) / (1.0f + c.distance * invBrickSize_);
  };
  std::sort(candidates.begin(), candidates.end(), [&](const Candidate& a, const Candidate& b) {
    const float pa = priority(a), pb = priority(b);
    if (pa != pb) return pa > pb;
    return a.cell < b.cell;
  });
  ++epoch_;
  const int n = std::min<int>(budget, static_cast<int>(candidates.size()));
  std::vector<float> samples(kBrickSamples);
  for (int i = 0; i < n; ++i) {
    const int cell = candidates[i].cell;
    const glm::ivec3 c = cellCoords(cell);
    const Vec3 centre = cellMin(c) + Vec3(0.5f * brickSize_);
    float value = 0.0f;
    distance(std::span<const Vec3>(&centre, 1), std::numeric_limits<float>::infinity(),
             std::span<float>(&value, 1));
    if (!std::isfinite(value)) continue;  // a broken field leaves the cell as it was
    const bool needsBrick = std::abs(value) <= brickHalfDiagonal_ + bandWidth_;
    if (needsBrick && !sampleBrick(cell, value, distance, samples.data())) continue;
    const bool wasOccupied = occupied(cell);
    centre_[cell] = value;
    bakedAt_[cell] = epoch_;
    if (needsBrick) {
      if (brickOf_[cell] < 0) brickOf_[cell] = allocateBrick();
      storeBrick(cell, brickOf_[cell], samples.data());
    } else if (brickOf_[cell] >= 0) {
      freeBricks_.push_back(brickOf_[cell]);
      brickOf_[cell] = -1;
      --liveBricks_;
    }
    if (!wasOccupied && occupied(cell)) noteOccupied(cell);
  }
  return n;
}

std::size_t BrickMap::memoryBytes() const {
  return pool_.size() * sizeof(std::int16_t) + brickMin_.size() * sizeof(float) + blockMin_.size() +
         surfaceCells_.size() * sizeof(std::uint64_t) + blockPlane_.size() * sizeof(BlockPlane) +
         brickOf_.size() * sizeof(std::int32_t) + centre_.size() * sizeof(float) +
         bakedAt_.size() * sizeof(std::uint32_t) + cellBrickMin_.size() * sizeof(float) +
         emptyReach_.size();
}

}  // namespace floptle
