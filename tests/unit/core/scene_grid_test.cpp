// The viewport's candidate grid (render/scene_grid.h), read from the packed scene texels
// exactly as the shader's map() reads them: over scattered spheres and a ground plane its value
// outside every part is never above the closed-form distance (sphere tracing never oversteps)
// and equals it near every surface (hits and normals are exact); inside it keeps the sign.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "floptle/core/field/field_program.h"
#include "floptle/core/field/node_spec.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/scene/scene.h"

#include "../../../core/src/render/scene_grid.h"

namespace floptle::render {
namespace {

struct Ball {
  Vec3 centre;
  float radius;
};

constexpr float kGround = -1.0f;

field::UnionField buildField(const std::vector<Ball>& balls) {
  std::vector<field::FieldProgram> parts;
  field::FieldNode plane = field::makeDefaultNode(field::NodeType::Plane);
  plane.params[3] = kGround;  // normal (0, 1, 0), offset
  parts.push_back(*field::FieldProgram::compile(plane));
  for (const Ball& b : balls) {
    field::FieldNode sphere = field::makeDefaultNode(field::NodeType::Sphere);
    sphere.params[0] = b.radius;
    Transform place;
    place.position = b.centre;
    parts.push_back(*field::FieldProgram::compile(scene::placeShape(place, std::move(sphere))));
  }
  return *field::UnionField::build(std::move(parts), 0.0);
}

/// Balls clustered in a few towns over a 300 x 300 m square (dense places and empty land).
std::vector<Ball> towns(int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> town(-150.0f, 150.0f), spread(-12.0f, 12.0f),
      height(0.0f, 8.0f), radius(0.2f, 1.5f);
  std::vector<Vec3> centres;
  for (int i = 0; i < 12; ++i) centres.push_back({town(rng), 0.0f, town(rng)});
  std::vector<Ball> balls;
  for (int i = 0; i < count; ++i) {
    const Vec3 c = centres[std::size_t(i) % centres.size()];
    balls.push_back({{c.x + spread(rng), height(rng), c.z + spread(rng)}, radius(rng)});
  }
  return balls;
}

float boxDistance(Vec3 p, Vec3 lo, Vec3 hi) {
  return glm::length(glm::max(glm::max(lo - p, p - hi), Vec3(0.0f)));
}

/// The shader's map() for this scene, reading only the texels (the spheres' own distance comes
/// from the closed form of the ball a record holds, which the placement test of
/// union_field_test.cpp ties to the record's rows).
struct GridReader {
  const SceneBuffers& buffers;
  const field::UnionField& field;
  const std::vector<Ball>& balls;

  Vec4 texel(int i) const {
    const float* t = buffers.texels.data() + std::size_t(i) * 4;
    return {t[0], t[1], t[2], t[3]};
  }

  float map(Vec3 p) const {
    const int gridOffset = int(texel(1).x);
    const int partsOffset = int(texel(0).z);
    float best = p.y - kGround;  // the one unbounded part
    const Vec4 g0 = texel(gridOffset), g1 = texel(gridOffset + 1), g2 = texel(gridOffset + 2);
    const glm::ivec3 dims(g2.x, g2.y, g2.z);
    const Vec3 at = glm::clamp((p - Vec3(g0)) / g0.w, Vec3(0.0f), Vec3(dims) - Vec3(0.5f));
    const glm::ivec3 c(glm::floor(at));
    const Vec4 cell = texel(gridOffset + 3 + c.x + dims.x * (c.y + dims.y * c.z));
    float near = std::max(cell.z, boxDistance(p, Vec3(g0), Vec3(g1)));
    const int lists = int(g1.w);
    for (int i = 0; i < int(cell.y); ++i) {
      const int j = lists + 2 * (int(cell.x) + i);
      const Vec4 lo = texel(j), hi = texel(j + 1);
      const int record = int(lo.w);
      // The entry carries the record's box.
      EXPECT_EQ(Vec3(texel(partsOffset + kPartTexels * record)), Vec3(lo));
      EXPECT_EQ(Vec3(texel(partsOffset + kPartTexels * record + 1)), Vec3(hi));
      const float box = boxDistance(p, Vec3(lo), Vec3(hi));
      if (box >= near) continue;
      if (box > field::UnionField::kRenderBoundMargin) {
        near = box;
        continue;
      }
      const Ball& ball = balls[std::size_t(field.leafParts()[std::size_t(record)] - 1)];
      near = std::min(near, glm::length(p - ball.centre) - ball.radius);
    }
    return std::min(best, near);
  }

  float exact(Vec3 p) const {
    float d = p.y - kGround;
    for (const Ball& b : balls) d = std::min(d, glm::length(p - b.centre) - b.radius);
    return d;
  }
};

TEST(SceneGrid, ReadAsTheShaderDoesItBoundsTheDistanceFromBelowAndIsExactNearSurfaces) {
  const std::vector<Ball> balls = towns(3000, 11);
  const field::UnionField field = buildField(balls);
  auto buffers = packSceneBuffers(field, 0.0);
  ASSERT_TRUE(buffers.ok()) << buffers.error().message();
  ASSERT_TRUE(buffers->unrolledRecords.empty());
  const glm::ivec3 dims = buffers->gridDims;
  ASSERT_GT(dims.x * dims.y * dims.z, 1);
  EXPECT_LE(dims.x * dims.y * dims.z, kMaxGridCells);
  const GridReader reader{*buffers, field, balls};

  std::mt19937 rng(5);
  // Points over and well beyond the level (outside the grid too), then points near surfaces.
  std::uniform_real_distribution<float> xz(-220.0f, 220.0f), y(-3.0f, 40.0f), off(-0.3f, 0.3f);
  std::uniform_int_distribution<std::size_t> pick(0, balls.size() - 1);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  int nearChecked = 0;
  for (int i = 0; i < 12000; ++i) {
    Vec3 p;
    if (i % 2 == 0) {
      p = {xz(rng), y(rng), xz(rng)};
    } else {
      const Ball& b = balls[pick(rng)];
      Vec3 dir(unit(rng), unit(rng), unit(rng));
      dir = glm::length(dir) > 1e-3f ? glm::normalize(dir) : Vec3(0.0f, 1.0f, 0.0f);
      p = b.centre + dir * (b.radius + off(rng));
    }
    const float estimate = reader.map(p), exact = reader.exact(p);
    if (exact < 0.0f) {
      // Inside: the sign, and the value of some part holding p (a box no nearer than the best
      // so far is skipped, so overlapping parts need not all be read).
      ASSERT_LT(estimate, 0.0f) << "at " << p.x << ", " << p.y << ", " << p.z;
      ASSERT_GE(estimate, exact - 1e-4f) << "at " << p.x << ", " << p.y << ", " << p.z;
      continue;
    }
    ASSERT_LE(estimate, exact + 1e-4f) << "at " << p.x << ", " << p.y << ", " << p.z;
    ASSERT_GE(estimate, 0.0f) << "at " << p.x << ", " << p.y << ", " << p.z;
    if (exact < 0.2f) {
      ASSERT_NEAR(estimate, exact, 1e-4f) << "at " << p.x << ", " << p.y << ", " << p.z;
      ++nearChecked;
    }
  }
  EXPECT_GT(nearChecked, 1000);
}

TEST(SceneGrid, ListsHoldEveryPartWithinTheClearanceOfTheirCell) {
  std::vector<Aabb> boxes;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> at(-40.0f, 40.0f), size(0.1f, 6.0f);
  for (int i = 0; i < 500; ++i) {
    const Vec3 c(at(rng), 0.25f * at(rng), at(rng));
    boxes.push_back(Aabb::fromCenterHalf(c, Vec3(size(rng), size(rng), size(rng))));
  }
  const SceneGrid grid = buildSceneGrid(boxes);
  ASSERT_EQ(grid.cells.size(), std::size_t(grid.dims.x) * grid.dims.y * grid.dims.z);
  for (int z = 0; z < grid.dims.z; ++z)
    for (int y = 0; y < grid.dims.y; ++y)
      for (int x = 0; x < grid.dims.x; ++x) {
        const SceneGrid::Cell& cell = grid.cells[std::size_t(grid.cellIndex({x, y, z}))];
        const Vec3 lo = grid.bounds.min + Vec3(x, y, z) * grid.cellSize;
        const Aabb box{lo, lo + Vec3(grid.cellSize)};
        EXPECT_GE(cell.clearance, grid.cellSize);
        std::vector<char> listed(boxes.size(), 0);
        for (int i = 0; i < cell.count; ++i)
          listed[std::size_t(grid.entries[std::size_t(cell.first + i)])] = 1;
        for (std::size_t b = 0; b < boxes.size(); ++b)
          if (!listed[b]) {
            ASSERT_GE(boxBoxDistance(box, boxes[b]), cell.clearance - 1e-4f)
                << "cell " << x << " " << y << " " << z << " box " << b;
          }
      }
}

TEST(SceneGrid, NoBoxesMakeNoCells) {
  const SceneGrid grid = buildSceneGrid({});
  EXPECT_TRUE(grid.cells.empty());
  EXPECT_EQ(grid.dims, glm::ivec3(0));
}

}  // namespace
}  // namespace floptle::render
