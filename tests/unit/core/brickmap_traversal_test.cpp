// BrickMap's ray walk: the block lower bounds and planes it skips by are true lower bounds of the
// trilinear field, and the exact walk (hierarchical skipping + per-cell cubic) finds the same first
// crossing as a brute-force fine march of distance(), rays and sphere casts, including grazing
// rays, axis-parallel rays and rays starting inside.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "brickmap_fine_march.h"
#include "floptle/core/brickmap/brick_map.h"

namespace floptle {
namespace {

/// Wavy ground y = 0.4 sin(1.3 x) cos(1.1 z) (its vertical offset, scaled to stay within the
/// slope's Lipschitz bound) unioned with two spheres: a field with crests, saddles, bumps.
float sceneField(Vec3 p) {
  const float ground = (p.y - 0.4f * std::sin(1.3f * p.x) * std::cos(1.1f * p.z)) * 0.8f;
  const float a = glm::length(p - Vec3(0.7f, 0.5f, -0.4f)) - 0.45f;
  const float b = glm::length(p - Vec3(-0.9f, 0.2f, 0.8f)) - 0.3f;
  return std::min(ground, std::min(a, b));
}

BrickMap bakeScene(float cell) {
  BrickMapSettings s;
  s.bounds = Aabb{Vec3(-2.0f, -0.6f, -2.0f), Vec3(2.0f, 1.0f, 2.0f)};
  s.cellSize = cell;
  auto map = BrickMap::bake(s, [](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) out[i] = sceneField(points[i]);
  });
  EXPECT_TRUE(map.ok());
  return std::move(map).value();
}

/// Re-samples the scene with the ground lifted by 0.3 m and the spheres moved (bricks are
/// re-sampled, freed and reused). Returns how many top cells were rebaked.
int rebakeMovedScene(BrickMap& map) {
  const auto moved = [](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i)
      out[i] = sceneField(points[i] - Vec3(0.35f, 0.3f, 0.0f));
  };
  const Vec3 body(0.0f);
  int rebaked = 0;
  for (int round = 0; round < 20; ++round)
    rebaked += map.rebakeNearest(moved, std::span<const Vec3>(&body, 1), 256, 10.0f);
  return rebaked;
}

/// Calls visit(top cell, brick) for every top cell that holds a brick, x fastest.
template <class Visit>
void forEachBrick(const BrickMap& map, Visit visit) {
  const glm::ivec3 dims = map.dims();
  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x)
        if (const int brick = map.brickAt({x, y, z}); brick >= 0) visit(glm::ivec3(x, y, z), brick);
}

TEST(BrickmapTraversal, BlockMinimaAreLowerBoundsOfTheTrilinearField) {
  const BrickMap map = bakeScene(0.1f);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const float cell = map.cellSize();
  int checkedBlocks = 0;
  forEachBrick(map, [&](glm::ivec3 top, int brick) {
    const Vec3 brickLo = map.origin() + Vec3(top) * (8.0f * cell);
    for (int level = 0; level < 2; ++level) {
      const int n = level == 0 ? 2 : 4, cells = 8 / n;
      for (int bz = 0; bz < n; ++bz)
        for (int by = 0; by < n; ++by)
          for (int bx = 0; bx < n; ++bx) {
            const glm::ivec3 b(bx, by, bz);
            const float bound = map.blockLowerBound(brick, level, b);
            // The smallest sample of the block (boundary samples included) rounded down to a
            // step of band / 100, saturated at 1.27 bands; none below -1.27 bands.
            float smallest = 1e30f;
            for (int k = bz * cells; k <= (bz + 1) * cells; ++k)
              for (int j = by * cells; j <= (by + 1) * cells; ++j)
                for (int i = bx * cells; i <= (bx + 1) * cells; ++i)
                  smallest = std::min(smallest, map.brickSample(brick, i, j, k));
            ASSERT_LE(bound, smallest);
            const float stepSize = map.bandWidth() / 100.0f;
            if (smallest < -127.01f * stepSize) {
              EXPECT_EQ(bound, -std::numeric_limits<float>::infinity())
                  << "saturated below: no bound";
            } else if (std::abs(smallest) < 126.99f * stepSize) {
              EXPECT_GT(bound, smallest - 1.001f * stepSize);
            } else if (smallest > 127.01f * stepSize) {
              EXPECT_NEAR(bound, 127.0f * stepSize, 1e-5f);
            }
            // And never above the interpolated field anywhere in the block.
            const Vec3 lo = brickLo + Vec3(b) * (float(cells) * cell);
            for (int i = 0; i < 40; ++i) {
              const Vec3 p = lo + Vec3(u(rng), u(rng), u(rng)) * (float(cells) * cell * 0.9999f);
              ASSERT_GE(map.distance(p), bound) << "brick " << brick << " level " << level;
            }
            ++checkedBlocks;
          }
    }
  });
  EXPECT_GT(checkedBlocks, 500);
}

/// Every 2^3-cell block of every brick: its plane is nowhere above the trilinear field (at its
/// 27 samples and at random points inside). Returns how many blocks have a plane.
int expectPlanesUnderTheField(const BrickMap& map, const char* when) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 2.0f);
  const float cell = map.cellSize();
  int bounded = 0, above = 0;
  forEachBrick(map, [&](glm::ivec3 top, int brick) {
    for (int bz = 0; bz < 4; ++bz)
      for (int by = 0; by < 4; ++by)
        for (int bx = 0; bx < 4; ++bx) {
          const glm::ivec3 b(bx, by, bz);
          if (map.blockPlaneBound(brick, b, Vec3(1.0f)) == -std::numeric_limits<float>::infinity())
            continue;
          ++bounded;
          auto check = [&](Vec3 local, float field) {
            const float bound = map.blockPlaneBound(brick, b, local);
            if (bound > field + 1e-6f && ++above <= 3)
              ADD_FAILURE() << when << ": brick " << brick << " block " << bx << " " << by << " "
                            << bz << " plane " << bound << " above the field " << field;
          };
          for (int k = 0; k <= 2; ++k)
            for (int j = 0; j <= 2; ++j)
              for (int i = 0; i <= 2; ++i)
                check(Vec3(float(i), float(j), float(k)),
                      map.brickSample(brick, 2 * bx + i, 2 * by + j, 2 * bz + k));
          const Vec3 lo = map.origin() + (Vec3(top) * 8.0f + Vec3(2 * b)) * cell;
          for (int n = 0; n < 8; ++n) {
            const Vec3 local(u(rng), u(rng), u(rng));
            check(local * 0.9999f, map.distance(lo + local * 0.9999f * cell));
          }
        }
  });
  EXPECT_EQ(above, 0) << when << ": planes above the field";
  return bounded;
}

TEST(BrickmapTraversal, BlockPlanesAreLowerBoundsOfTheTrilinearField) {
  // A ray passes a block whose plane stays above zero without reading its samples: a plane
  // above the field would be a crossing missed, a stale one after a rebake too.
  BrickMap map = bakeScene(0.1f);
  EXPECT_GT(expectPlanesUnderTheField(map, "after the bake"), 1000);
  ASSERT_GT(rebakeMovedScene(map), 100);
  expectPlanesUnderTheField(map, "after the rebake");
}

TEST(BrickmapTraversal, BlockPlanesHugAFlatField) {
  // On a tilted plane the trilinear field is that plane: each block's plane must match it to
  // its rounding (slopes in 1/64 m per m over one cell from the centre, the offset down to a
  // step of band / 100), or rays passing just above the ground would read every block.
  const Vec3 n = glm::normalize(Vec3(0.3f, 1.0f, -0.2f));
  BrickMapSettings settings;
  settings.bounds = Aabb{Vec3(-1.0f, -0.5f, -1.0f), Vec3(1.0f, 0.5f, 1.0f)};
  settings.cellSize = 0.1f;
  auto baked =
      BrickMap::bake(settings, [&](std::span<const Vec3> points, float, std::span<float> out) {
        for (std::size_t i = 0; i < points.size(); ++i) out[i] = glm::dot(points[i], n);
      });
  ASSERT_TRUE(baked.ok());
  const BrickMap& map = *baked;
  const float step = map.bandWidth() / 100.0f, cell = map.cellSize();
  // The offset's step, plus the slopes' rounding (half of 1/64 per axis, over one cell from the
  // centre) twice: once where it lowered the offset, once where the bound is read.
  const float allowed = step + 2.0f * 3.0f * (0.5f / 64.0f) * cell;
  int checked = 0;
  forEachBrick(map, [&](glm::ivec3 top, int brick) {
    for (int bz = 0; bz < 4; ++bz)
      for (int by = 0; by < 4; ++by)
        for (int bx = 0; bx < 4; ++bx) {
          const glm::ivec3 b(bx, by, bz);
          const Vec3 lo = map.origin() + (Vec3(top) * 8.0f + Vec3(2 * b)) * cell;
          const float centre = glm::dot(lo + Vec3(cell), n);
          if (std::abs(centre) > 0.9f * map.bandWidth())
            continue;  // near the band's edge samples are clamped
          for (const Vec3 local : {Vec3(1.0f), Vec3(0.0f), Vec3(2.0f), Vec3(2.0f, 0.0f, 1.0f)}) {
            // Under the stored field, which it bounds; near the exact plane, which the stored
            // samples round to within half a sample step.
            const Vec3 p = lo + local * cell;
            const float bound = map.blockPlaneBound(brick, b, local);
            EXPECT_LE(bound, map.distance(p) + 1e-6f);
            EXPECT_GE(bound, glm::dot(p, n) - allowed - 0.5f * map.sampleStep())
                << "brick " << brick << " block " << bx << " " << by << " " << bz;
          }
          ++checked;
        }
  });
  EXPECT_GT(checked, 500);
}

/// Every fine cell of every brick: its surface bit is set exactly when one of its eight corner
/// samples is <= 0. Returns how many cells are marked.
int expectSurfaceBitsExact(const BrickMap& map, const char* when) {
  int marked = 0, wrong = 0;
  forEachBrick(map, [&](glm::ivec3, int brick) {
    for (int k = 0; k < 8; ++k)
      for (int j = 0; j < 8; ++j)
        for (int i = 0; i < 8; ++i) {
          float smallest = 1e30f;
          for (int c = 0; c < 8; ++c)
            smallest = std::min(
                smallest, map.brickSample(brick, i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2)));
          const bool marks = map.surfaceCell(brick, {i, j, k});
          if (marks != (smallest <= 0.0f) && ++wrong <= 3)
            ADD_FAILURE() << when << ": brick " << brick << " cell " << i << " " << j << " " << k
                          << " marked " << marks << ", smallest corner " << smallest;
          marked += marks;
        }
  });
  EXPECT_EQ(wrong, 0) << when << ": cells whose bit disagrees with their corners";
  return marked;
}

TEST(BrickmapTraversal, SurfaceCellBitsAreTheCellsWithACornerAtOrBelowZero) {
  // A ray passes a cell by its bit alone, without reading the samples: a bit missing would be a
  // crossing missed, a stale one after a rebake a hit in empty air.
  BrickMap map = bakeScene(0.1f);
  const int baked = expectSurfaceBitsExact(map, "after the bake");
  EXPECT_GT(baked, 1000);
  ASSERT_GT(rebakeMovedScene(map), 100);
  expectSurfaceBitsExact(map, "after the rebake");
  // And a ray straight down meets the lifted ground, not the old one (0.3 m lower).
  const Vec3 origin(0.35f + 0.1f, 0.95f, 0.05f);
  const BrickMap::RayHit hit = map.raycast(origin, Vec3(0.0f, -1.0f, 0.0f), 5.0f);
  ASSERT_TRUE(hit.hit);
  const float groundY = 0.3f + 0.4f * std::sin(1.3f * 0.1f) * std::cos(1.1f * 0.05f);
  EXPECT_NEAR(hit.point.y, groundY, 0.1f);
}

TEST(BrickmapTraversal, RaysMatchABruteForceFineMarch) {
  const BrickMap map = bakeScene(0.1f);
  const float cell = map.cellSize(), step = cell / 400.0f;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), u01(0.0f, 1.0f);
  int compared = 0, hits = 0, grazing = 0, inside = 0;
  for (int i = 0; i < 700; ++i) {
    Vec3 o, d;
    const int kind = i % 4;
    if (kind == 0) {  // from above, aimed at a point near the ground
      o = Vec3(2.0f * u(rng), 1.5f + u01(rng), 2.0f * u(rng));
      d = glm::normalize(Vec3(1.8f * u(rng), 0.3f * u(rng), 1.8f * u(rng)) - o);
    } else if (kind == 1) {  // grazing: nearly horizontal through the crest heights
      o = Vec3(-2.5f, 0.25f + 0.2f * u01(rng), 1.8f * u(rng));
      d = glm::normalize(Vec3(1.0f, 0.04f * u(rng), 0.3f * u(rng)));
    } else if (kind == 2) {  // starting inside the ground or a sphere, any direction
      o = Vec3(1.8f * u(rng), -0.5f + 0.3f * u01(rng), 1.8f * u(rng));
      d = glm::normalize(Vec3(u(rng), u(rng), u(rng)) + Vec3(1e-3f));
    } else {  // axis-parallel
      const int axis = (i / 4) % 3;
      o = Vec3(1.8f * u(rng), 0.8f * u(rng), 1.8f * u(rng));
      d = Vec3(0.0f);
      d[axis] = u(rng) < 0.0f ? -1.0f : 1.0f;
    }
    for (float r : {0.0f, 0.17f}) {
      const BrickMap::RayHit walk = map.raycast(o, d, 8.0f, r);
      const March brute = fineMarch(map, o, d, 8.0f, r, step);
      if (walk.hit != brute.hit) {
        // Only a dip that barely reaches the level may be seen by one and not the other.
        ++grazing;
        if (walk.hit)
          EXPECT_LE(map.distance(walk.point) - r, 1e-5f) << "ray " << i << " r " << r;
        else
          EXPECT_GE(brute.smallest, -1e-5f)
              << "the walk missed a real crossing: ray " << i << " r " << r;
        continue;
      }
      ++compared;
      if (!walk.hit) continue;
      ++hits;
      if (brute.startInside) {
        ++inside;
      } else {
        EXPECT_LE(std::abs(map.distance(walk.point) - r), 1e-3f) << "ray " << i << " kind " << kind;
      }
      EXPECT_NEAR(walk.distance, brute.distance, 1e-4f)
          << "ray " << i << " kind " << kind << " r " << r;
      EXPECT_NEAR(glm::length(walk.normal), 1.0f, 1e-4f);
    }
  }
  EXPECT_GT(hits, 600);
  EXPECT_GT(inside, 50);
  EXPECT_LT(grazing, 10);
  EXPECT_GT(compared, 1350);
}

TEST(BrickmapTraversal, SameRayGivesTheSameBitsAndMissesPastTheEnd) {
  const BrickMap map = bakeScene(0.1f);
  const Vec3 o(0.3f, 2.0f, 0.2f), d = glm::normalize(Vec3(0.2f, -1.0f, 0.1f));
  const auto a = map.raycast(o, d, 10.0f), b = map.raycast(o, d, 10.0f);
  ASSERT_TRUE(a.hit);
  EXPECT_EQ(a.distance, b.distance);
  EXPECT_EQ(a.normal, b.normal);
  // Cut short of the surface: no hit; a hair past it: the same hit.
  EXPECT_FALSE(map.raycast(o, d, a.distance - 1e-3f).hit);
  const auto c = map.raycast(o, d, a.distance + 1e-3f);
  ASSERT_TRUE(c.hit);
  EXPECT_EQ(c.distance, a.distance);
  // The same ray from 10 km back: the walk starts at the grid, so only the far origin's own
  // rounding (ulp 1 mm at 10 km) separates the answers; a sphere cast the same.
  const auto far = map.raycast(o - d * 1e4f, d, 2e4f);
  ASSERT_TRUE(far.hit);
  EXPECT_NEAR(far.distance - 1e4f, a.distance, 4e-3f);
  EXPECT_GT(glm::dot(far.normal, a.normal), 0.999f);
  const auto cast = map.raycast(o, d, 10.0f, 0.2f),
             farCast = map.raycast(o - d * 1e4f, d, 2e4f, 0.2f);
  ASSERT_TRUE(cast.hit && farCast.hit);
  EXPECT_LT(cast.distance, a.distance);
  EXPECT_NEAR(farCast.distance - 1e4f, cast.distance, 4e-3f);
}

}  // namespace
}  // namespace floptle
