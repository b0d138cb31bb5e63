// BrickMap::raycast for radii under the band: an exact first crossing of the trilinear field.
//
// The walk locates the ray's current point in the hierarchy top cell -> 4^3-cell block ->
// 2^3-cell block -> fine cell and jumps to the exit of the largest of them whose smallest
// sample exceeds the radius (the trilinear field there cannot reach it: no crossing, however
// the field curves, so no Lipschitz bound is needed and nothing can tunnel). A ray then asks a
// 2^3 block with surface cells for its plane, a lower bound of its field: where that stays
// above zero at both ends of the segment, the block is passed without reading a sample (a ray
// skimming a smooth surface passes most blocks so). In a fine cell that may hold the
// crossing, the trilinear field along the ray is a cubic in the ray parameter; its first root
// on the segment is bracketed between the cubic's extrema and refined by Illinois regula
// falsi, after a Bernstein bound has turned away the cells the ray only passes above.
//
// Layout for speed: the walk counts in grid-wide fine cells on four-wide vectors, so every
// skipped box is aligned and found by bit masks. A ray (radius 0) reads one bit per fine cell,
// set where the cell has a corner <= 0; a sphere cast reads the block minima instead. On
// entering a 4^3-cell block that may hold the crossing the walk asks for all its sample rows
// at once, and on entering a brick, for all four lines of its 2^3 blocks' planes. Sphere casts
// do not read planes: their blocks reach the radius too widely for a plane to clear them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "brickmap/brick_trilinear.h"
#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/vec_divide.h"

namespace floptle {
namespace {

/// k0 + k1 s + k2 s^2 + k3 s^3 (m), s (m) from the segment's start.
struct Cubic {
  float k0, k1, k2, k3;
  float at(float s) const { return k0 + s * (k1 + s * (k2 + s * k3)); }
};

/// The trilinear interpolant of corners c[i + 2j + 4k] along a + s * d (a: start in cell units
/// in [0, 1]^3; d: direction in cell units per meter).
Cubic cellCubic(const float* c, Vec3 a, Vec3 d) {
  // Along x on the four x edges (j, k): linear alpha + beta s.
  float alpha[4], beta[4];
  for (int e = 0; e < 4; ++e) {
    const float step = c[2 * e + 1] - c[2 * e];
    alpha[e] = c[2 * e] + step * a.x;
    beta[e] = step * d.x;
  }
  // Along y in the two z faces: quadratic.
  float f0[2], f1[2], f2[2];
  for (int k = 0; k < 2; ++k) {
    const float da = alpha[2 * k + 1] - alpha[2 * k], db = beta[2 * k + 1] - beta[2 * k];
    f0[k] = alpha[2 * k] + da * a.y;
    f1[k] = beta[2 * k] + db * a.y + da * d.y;
    f2[k] = db * d.y;
  }
  // Along z: cubic.
  const float d0 = f0[1] - f0[0], d1 = f1[1] - f1[0], d2 = f2[1] - f2[0];
  return {f0[0] + d0 * a.z, f1[0] + d1 * a.z + d0 * d.z, f2[0] + d2 * a.z + d1 * d.z, d2 * d.z};
}

/// First s in [0, length] where g(s) = cubic(s) - level <= 0, given g(0) > 0; -1 when none.
/// g is monotone between the roots of g', so a crossing shows as a sign change at the end of
/// one of those (at most three) pieces.
float firstCrossing(const Cubic& f, float level, float length) {
  float split[3];
  int n = 0;
  const float A = 3.0f * f.k3, B = 2.0f * f.k2, C = f.k1;  // g'(s) = A s^2 + B s + C
  auto keep = [&](float s) {
    if (s > 0.0f && s < length) split[n++] = s;
  };
  if (A != 0.0f) {
    const float disc = B * B - 4.0f * A * C;
    if (disc > 0.0f) {
      const float q = -0.5f * (B + std::copysign(std::sqrt(disc), B));
      const float r1 = q / A, r2 = q != 0.0f ? C / q : r1;
      keep(std::min(r1, r2));
      if (r2 != r1) keep(std::max(r1, r2));
    }
  } else if (B != 0.0f) {
    keep(-C / B);
  }
  split[n++] = length;
  float lo = 0.0f, glo = f.at(0.0f) - level;
  for (int i = 0; i < n; ++i) {
    float hi = split[i];
    float ghi = f.at(hi) - level;
    if (ghi > 0.0f) {
      lo = hi, glo = ghi;
      continue;
    }
    // Illinois regula falsi on [lo, hi], glo > 0 >= ghi: superlinear, keeps the bracket.
    int side = 0;
    for (int it = 0; it < 30 && hi - lo > 1e-7f; ++it) {
      const float s = lo + (hi - lo) * glo / (glo - ghi);
      const float gs = f.at(s) - level;
      if (gs > 0.0f) {
        lo = s, glo = gs;
        if (side == 1) ghi *= 0.5f;
        side = 1;
      } else {
        hi = s, ghi = gs;
        if (gs == 0.0f) break;
        if (side == -1) glo *= 0.5f;
        side = -1;
      }
    }
    return hi;
  }
  return -1.0f;
}

/// Four floats / ints in one SSE register (GCC and Clang vector extensions); lanes x, y, z, pad.
typedef float F4 __attribute__((vector_size(16)));
typedef std::int32_t I4 __attribute__((vector_size(16)));

/// The sum of the four lanes.
inline float horizontalSum(F4 v) {
  const F4 a = v + __builtin_shufflevector(v, v, 2, 3, 0, 1);
  return a[0] + a[1];
}

/// The smallest of the four lanes.
inline float horizontalMin(F4 v) {
  const F4 a =
      v < __builtin_shufflevector(v, v, 2, 3, 0, 1) ? v : __builtin_shufflevector(v, v, 2, 3, 0, 1);
  const F4 b = __builtin_shufflevector(a, a, 1, 0, 3, 2);
  return std::min(a[0], b[0]);
}

/// False only when g(s) = cubic(s) - level stays > 0 on all of [0, length]: the cubic's Bernstein
/// coefficients on the segment bound it from below (convex hull property). The margin covers
/// the float rounding of these coefficients and of firstCrossing's own evaluations, so a
/// segment firstCrossing would find a crossing on is never turned away: the answer is the same,
/// only cheaper for the many cells a ray passes just above the surface.
bool mayCross(const Cubic& f, float level, float length) {
  const float c1 = f.k1 * length, c2 = f.k2 * length * length, c3 = f.k3 * length * length * length;
  const float b0 = f.k0 - level, b1 = b0 + c1 / 3.0f, b2 = b1 + (c1 + c2) / 3.0f,
              b3 = b0 + c1 + c2 + c3;
  const float margin =
      1e-5f * (std::abs(f.k0) + std::abs(level) + std::abs(c1) + std::abs(c2) + std::abs(c3));
  return std::min(std::min(b0, b1), std::min(b2, b3)) <= margin;
}

/// Prefetches the 5 x 5 x 5 samples of a 4^3-cell block starting at `first`: five planes of five
/// rows. A plane's rows span 82 bytes (rows 18 bytes apart, 10 long), and its bytes 0, 40 and 80
/// are under a line apart, so every line the plane touches holds one of them: three asks a plane.
/// Always inlined: GCC takes a function whose only statements are prefetches for a const one
/// (no side effects) and deletes its calls, so an outlined helper prefetches nothing.
[[gnu::always_inline]] inline void prefetchBlockSamples(const std::int16_t* first) {
#if defined(__GNUC__)
  constexpr int S = BrickMap::kSamples;
  static_assert((2 * S + 2) * sizeof(std::int16_t) <= 64, "asks under a line apart");
  // Unrolled: 15 prefetch instructions with constant offsets (as a loop, a quarter of the walk's
  // instructions went to counting it).
#pragma GCC unroll 5
  for (int k = 0; k < 5; ++k) {
    const std::int16_t* plane = first + S * S * k;
    __builtin_prefetch(plane);
    __builtin_prefetch(plane + 2 * S + 2);
    __builtin_prefetch(plane + 4 * S + 4);
  }
#else
  (void)first;
#endif
}

}  // namespace

BrickMap::RayHit BrickMap::raycast(Vec3 origin, Vec3 dir, float maxDistance, float radius) const {
  if (!(radius < bandWidth_)) return raycastMarch(origin, dir, maxDistance, radius);
  RayHit result;
  if (dims_.x == 0 || !(maxDistance >= 0.0f)) return result;
  float tEnter = 0.0f, tExit = 0.0f;
  if (!intersectRayAabb(Ray{origin, dir}, gridBounds(), maxDistance, tEnter, tExit)) return result;
  // The walk runs from where the ray enters the grid (or its origin inside it), with its own
  // parameter s: a ray from far away keeps the precision of a short one.
  const float t0 = std::max(tEnter, 0.0f);
  const Vec3 from = origin + dir * t0;
  const float sEnd = std::min(tExit, maxDistance) - t0;
  // Past a box's exit plane by this much, to land in the next box (m). A crossing inside the
  // gap shows as a start already at or under the level in the next cell: found within it.
  const float nudge = 1e-4f * cellSize_;
  // The walk counts in fine cells of the whole grid: the ray point at s is start + step * s
  // (cells), fine cell g = floor of it, and every box it skips (fine cell, 2^3 or 4^3 block,
  // top cell) is aligned: its low corner is g with the low bits cleared. Lanes x, y, z of
  // four-wide vectors (one SSE register each); the fourth lane is padding that never wins a
  // minimum: its exit is (0 - -1) * 1e30 m.
  F4 start{0.0f, 0.0f, 0.0f, -1.0f}, step{0.0f}, metersPerCell{0.0f, 0.0f, 0.0f, 1e30f}, last{0.0f};
  I4 highSide{0};  // -1 where the ray leaves a box through its high face
  // The three quotients in one vector division (the same IEEE quotients, a shorter chain).
  const F4 towards{dir.x, dir.y, dir.z, 1.0f};
  const F4 quotient = F4{cellSize_, cellSize_, cellSize_, cellSize_} / towards;
  for (int a = 0; a < 3; ++a) {
    start[a] = (from[a] - origin_[a]) * invCellSize_;
    step[a] = dir[a] * invCellSize_;
    // An axis the ray does not move along: its exit is 1e30 m away (no 0 * inf).
    metersPerCell[a] = std::abs(dir[a]) > 1e-30f ? quotient[a] : 1e30f;
    highSide[a] = metersPerCell[a] > 0.0f ? -1 : 0;
    last[a] = float(dims_[a] * kCells - 1);
  }
  // Where the ray leaves the box of `size` cells (a power of two) holding cell g (m along the
  // walk).
  auto exitOf = [&](I4 g, int size) {
    const I4 plane = (g & -size) + (highSide & size);
    return horizontalMin((__builtin_convertvector(plane, F4) - start) * metersPerCell);
  };
  auto finish = [&](float s, const std::int16_t* samples, glm::ivec3 cell) {
    result.hit = true;
    result.distance = t0 + s;
    result.point = from + dir * s;
    Vec3 gradient(0.0f);
    if (samples)
      brickTrilinear(samples, sampleStep_,
                     glm::clamp((result.point - cellMin(cell)) * invCellSize_, Vec3(0.0f),
                                Vec3(float(kCells))),
                     &gradient, invCellSize_);
    else
      distanceGradient(result.point, gradient);
    const float len = glm::length(gradient);
    result.normal = len > 0.0f ? dividedBy(gradient, len) : -dir;
    return result;
  };

  // A block whose stored step count q exceeds this has every sample >= q * step > radius
  // (q >= skipAbove + 1 > radius / step); clamped below so a saturated -128 never skips.
  const int skipAbove = static_cast<int>(std::max(std::floor(double(radius) / blockStep_), -128.0));
  // Past the box's exit plane by the nudge, and never standing still however coarse the floats.
  auto advance = [&](float t, float exit) {
    const float next = std::max(exit, t) + nudge;
    return next > t ? next : std::nextafter(t, std::numeric_limits<float>::infinity());
  };
  const bool surfaceOnly = radius == 0.0f;
  const std::int16_t* prefetched4 = nullptr;  // the 4^3 block whose samples were last asked for
  float t = 0.0f;                             // the walk's parameter s (m)
  // A 2^3 block's plane clears a ray when it stays above this (m) at both ends of the segment:
  // room for the float rounding of the plane's value and of the walk's grid-wide cell counts
  // (both under 1e-4 cells).
  const float planeLevel = 1e-3f * cellSize_;
  const F4 planeScale{cellSize_ / 64.0f, cellSize_ / 64.0f, cellSize_ / 64.0f, float(blockStep_)};
  // The plane read last (its index in blockPlane_): a block whose plane did not clear the ray
  // is not asked again while the walk goes through its cells.
  std::size_t planeRead = SIZE_MAX;
  int planesAskedFor = -1;  // the brick whose planes were last asked for
  // Whether the plane under the 2^3 block holding cell g stays above planeLevel from t to the
  // block's exit: then that exit (m along the walk), else -1.
  auto planeClears = [&](std::size_t at, I4 g) {
    planeRead = at;
    const BlockPlane q = blockPlane_[at];
    if (q.offset == -128) return -1.0f;
    const F4 plane =
        F4{float(q.slope[0]), float(q.slope[1]), float(q.slope[2]), float(q.offset)} * planeScale;
    I4 centre = (g & -2) + 1;
    centre[3] = -2;  // the padding lane of start - centre is 1: it carries the offset
    const F4 fromCentre = start - __builtin_convertvector(centre, F4);
    const float exit = exitOf(g, 2);
    const float atStart = horizontalSum((fromCentre + step * t) * plane);
    const float atEnd = horizontalSum((fromCentre + step * std::min(exit, sEnd)) * plane);
    return std::min(atStart, atEnd) > planeLevel ? exit : -1.0f;
  };
  while (t <= sEnd) {
    const F4 p = start + step * t;
    // Clamped in floats then truncated (floor here): a point a rounding error below the grid
    // lands in cell 0, one past its end in the last cell.
    const F4 inside = p < 0.0f ? F4{0.0f} : (p > last ? last : p);
    const I4 g = __builtin_convertvector(inside, I4);
    const glm::ivec3 c(g[0] >> 3, g[1] >> 3, g[2] >> 3);
    const int index = cellIndex(c);
    const int brick = brickOf_[index];
    int size = kCells;  // the edge of the box to skip (cells)
    if (brick < 0) {
      // Empty: |field| >= band > radius throughout, so only a negative (solid) cell is a hit.
      if (centre_[index] < 0.0f) return finish(t, nullptr, c);
      // The cube of (2r + 1)^3 empty cells centred on this one is skipped whole.
      if (const int r = emptyReach_[index]; r > 0) {
        const I4 lowCorner = (g & -kCells) - r * kCells;
        I4 plane = lowCorner + (highSide & ((2 * r + 1) * kCells));
        plane[3] = 0;  // the padding lane's exit stays 1e30 m away
        t = advance(t, horizontalMin((__builtin_convertvector(plane, F4) - start) * metersPerCell));
        continue;
      }
    } else if (cellBrickMin_[index] <= radius) {
      const int fx = g[0] & 7, fy = g[1] & 7, fz = g[2] & 7;
      if (surfaceOnly) {
        // A ray reads the brick's surface-cell bits: 4 where the 4^3 block has none, 2 where
        // the 2^3 block has none, 1 where the cell is clear, 0 where its corners decide. On
        // entering the brick it asks for all the brick's planes (four cache lines) beside its
        // bits, so that they have arrived by the time a block with surface cells needs one.
        const std::size_t planeAt =
            static_cast<std::size_t>(brick) * kBlockPlanes + planeIndex(fx, fy, fz);
        if (brick != planesAskedFor) {
          planesAskedFor = brick;
          const char* planes = reinterpret_cast<const char*>(
              &blockPlane_[static_cast<std::size_t>(brick) * kBlockPlanes]);
          static_assert(kBlockPlanes * sizeof(BlockPlane) == 4 * 64);
          for (int line = 0; line < 4; ++line) __builtin_prefetch(planes + 64 * line);
        }
        const std::uint64_t cells4 = surfaceCells_[static_cast<std::size_t>(brick) * kSurfaceWords +
                                                   surfaceWord(fx, fy, fz)];
        const unsigned cells2 =
            static_cast<unsigned>(cells4 >> (8 * surfaceByte(fx, fy, fz))) & 0xffu;
        const unsigned cell = (cells2 >> surfaceBit(fx, fy, fz)) & 1u;
        size = 4 >> (int(cells4 != 0) + int(cells2 != 0) + int(cell));
        // A 2^3 block with surface cells: its plane first.
        if (size <= 1 && planeAt != planeRead) {
          if (const float exit = planeClears(planeAt, g); exit >= 0.0f) {
            t = advance(t, exit);
            continue;
          }
        }
      } else {
        // A sphere cast reads the block minima: the same, with the cell's corners deciding.
        const std::int8_t* mins = blockMin_.data() + static_cast<std::size_t>(brick) * kBlockMins;
        const int block4 = (fx >> 2) + 2 * ((fy >> 2) + 2 * (fz >> 2));
        const int block2 = 8 + (fx >> 1) + 4 * ((fy >> 1) + 4 * (fz >> 1));
        size = mins[block4] > skipAbove ? 4 : mins[block2] > skipAbove ? 2 : 0;
      }
      const std::int16_t* samples = pool_.data() + static_cast<std::size_t>(brick) * kBrickSamples;
      if (size <= 2) {
        // The walk is bound by cache misses in the 1.5 KB bricks: on entering a 4^3-cell block
        // the crossing may lie in, ask for all its samples at once, so the 2^3 blocks
        // and cells visited next find theirs on the way (one round trip, not one per cell;
        // measured faster than asking for each 2^3 block's nine rows on entering it).
        const std::int16_t* block4Samples =
            samples + (fx & ~3) + kSamples * ((fy & ~3) + kSamples * (fz & ~3));
        if (block4Samples != prefetched4) prefetchBlockSamples(prefetched4 = block4Samples);
      }
      if (size == 0) {
        // A cell the crossing may lie in: its corners decide. Passed over, it is one cell.
        size = 1;
        const std::int16_t* s = samples + fx + kSamples * (fy + kSamples * fz);
        const float u = sampleStep_;
        const float corners[8] = {s[0] * u,
                                  s[1] * u,
                                  s[kSamples] * u,
                                  s[kSamples + 1] * u,
                                  s[kSamples * kSamples] * u,
                                  s[kSamples * kSamples + 1] * u,
                                  s[kSamples * kSamples + kSamples] * u,
                                  s[kSamples * kSamples + kSamples + 1] * u};
        // A tree of minima (registers; a loop went through the stack). A ray's surface cell
        // has a corner <= 0 by its bit.
        const float smallest =
            surfaceOnly
                ? radius
                : std::min(
                      std::min(std::min(corners[0], corners[1]), std::min(corners[2], corners[3])),
                      std::min(std::min(corners[4], corners[5]), std::min(corners[6], corners[7])));
        if (smallest <= radius) {
          const float cellExit = exitOf(g, 1);
          const float length = std::max(std::min(cellExit, sEnd) - t, 0.0f);
          // The start in the cell from world coordinates, not from p: grid-wide cell counts
          // carry an ulp of a few hundred cells, the cell's own corner one of the world.
          const Vec3 cellLo = cellMin(c) + Vec3(float(fx), float(fy), float(fz)) * cellSize_;
          const Vec3 a =
              glm::clamp((from + dir * t - cellLo) * invCellSize_, Vec3(0.0f), Vec3(1.0f));
          const Cubic f = cellCubic(corners, a, Vec3(step[0], step[1], step[2]));
          if (f.k0 <= radius) return finish(t, samples, c);
          if (mayCross(f, radius, length)) {
            const float s0 = firstCrossing(f, radius, length);
            if (s0 >= 0.0f) return finish(t + s0, samples, c);
          }
          t = advance(t, cellExit);
          continue;
        }
      }
    }
    t = advance(t, exitOf(g, size));
  }
  return result;
}

}  // namespace floptle
