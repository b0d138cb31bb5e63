// UnionField against brute force and closed forms: the hierarchy's distance is the minimum over
// every part, its rays hit where the analytic ray-sphere intersection says, the render
// estimate keeps the zero set, animated parts are refitted, and the scene texture places a
// part as its transform does (the grid the shader reads: scene_grid_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "floptle/core/field/field_program.h"
#include "floptle/core/field/node_spec.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/render/cpu_renderer.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/render/shading_model.h"
#include "floptle/core/scene/scene.h"

namespace floptle::field {
namespace {

struct Ball {
  Vec3 centre;
  float radius;
  MaterialIndex material;
};

FieldProgram placedSphere(const Ball& ball) {
  FieldNode sphere = makeDefaultNode(NodeType::Sphere);
  sphere.params[0] = ball.radius;
  sphere.material = ball.material;
  sphere.hasOwnMaterial = true;
  Transform place;
  place.position = ball.centre;
  return *FieldProgram::compile(scene::placeShape(place, std::move(sphere)));
}

FieldProgram groundPlane(float height) {
  FieldNode plane = makeDefaultNode(NodeType::Plane);
  plane.params[3] = height;  // normal (0, 1, 0), offset
  return *FieldProgram::compile(plane);
}

/// A ground plane and `count` balls over a 100 x 100 m square, deterministic by seed.
std::vector<Ball> scatter(int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> xz(-50.0f, 50.0f), y(0.0f, 6.0f), r(0.2f, 1.5f);
  std::vector<Ball> balls;
  for (int i = 0; i < count; ++i)
    balls.push_back({{xz(rng), y(rng), xz(rng)}, r(rng), MaterialIndex(1 + i % 7)});
  return balls;
}

UnionField buildField(const std::vector<Ball>& balls, std::vector<FieldProgram>* copy = nullptr) {
  std::vector<FieldProgram> parts{groundPlane(-1.0f)};
  for (const Ball& b : balls) parts.push_back(placedSphere(b));
  if (copy) *copy = parts;
  return *UnionField::build(std::move(parts), 0.0);
}

TEST(UnionField, DistanceAndMaterialEqualTheBruteForceMinimum) {
  const std::vector<Ball> balls = scatter(400, 7);
  std::vector<FieldProgram> parts;
  const UnionField field = buildField(balls, &parts);
  EXPECT_EQ(field.unboundedParts().size(), 1u);  // the plane
  EXPECT_GT(field.nodes().size(), 100u);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> xz(-60.0f, 60.0f), y(-2.0f, 10.0f);
  for (int i = 0; i < 3000; ++i) {
    const Vec3 p(xz(rng), y(rng), xz(rng));
    float best = std::numeric_limits<float>::infinity();
    MaterialIndex material = 0;
    for (const FieldProgram& part : parts) {
      const FieldSample s = part.sample(p, 0.0);
      if (s.distance < best) best = s.distance, material = s.material;
    }
    ASSERT_EQ(field.distance(p, 0.0), best) << "at " << p.x << " " << p.y << " " << p.z;
    ASSERT_EQ(field.sample(p, 0.0).material, material);
    // The render estimate is a lower bound with the same sign (the same zero set), and exact
    // within the margin of every part's box.
    const float estimate = field.renderSample(p, 0.0).distance;
    ASSERT_LE(estimate, best + 1e-6f);
    ASSERT_EQ(estimate < 0.0f, best < 0.0f);
    if (best < UnionField::kRenderBoundMargin) {
      ASSERT_EQ(estimate, best);
    }
  }
}

TEST(UnionField, RaysHitTheNearestSphereWhereTheClosedFormSays) {
  const std::vector<Ball> balls = scatter(300, 3);
  const UnionField field = buildField(balls);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> xz(-40.0f, 40.0f), unit(-1.0f, 1.0f);
  int hits = 0;
  for (int i = 0; i < 400; ++i) {
    Ray ray;
    ray.origin = Vec3(xz(rng), 12.0f, xz(rng));
    ray.direction = glm::normalize(Vec3(unit(rng), -0.6f - 0.4f * std::abs(unit(rng)), unit(rng)));
    // Closed form: the nearest of the ray-sphere intersections and the plane y = -1.
    float expected = (-1.0f - ray.origin.y) / ray.direction.y;
    for (const Ball& b : balls) {
      const Vec3 oc = ray.origin - b.centre;
      const float half = glm::dot(oc, ray.direction);
      const float disc = half * half - (glm::dot(oc, oc) - b.radius * b.radius);
      if (disc < 0.0f) continue;
      const float t = -half - std::sqrt(disc);
      if (t > 0.0f) expected = std::min(expected, t);
    }
    const auto hit = render::marchRay(field, ray, 0.0);
    ASSERT_TRUE(hit.has_value()) << "ray " << i;
    // The march never passes the first surface and stops on one: the closed-form distance at
    // its hit point is below its hit epsilon (the shading model's base + per-metre cone).
    EXPECT_LE(hit->distance, expected + 1e-4f) << "ray " << i;
    float surface = hit->point.y + 1.0f;
    for (const Ball& b : balls)
      surface = std::min(surface, glm::length(hit->point - b.centre) - b.radius);
    EXPECT_LT(surface, render::shading::kHitEpsilonBase +
                           render::shading::kHitEpsilonPerMeter * hit->distance)
        << "ray " << i;
    ++hits;
  }
  EXPECT_EQ(hits, 400);
}

TEST(UnionField, AnimatedPartsAreRefittedAndExactAtAnyTime) {
  FieldNode sphere = makeDefaultNode(NodeType::Sphere);
  sphere.params[0] = 0.5f;
  Transform place;
  FieldNode placed = scene::placeShape(place, sphere);
  AnimatedScalar x;  // position.x = 10 sin(2 pi 0.25 t): 0 at t = 0, 10 at t = 1
  x.driver = AnimatedScalar::Driver::Sine;
  x.amplitude = 10.0f;
  x.frequency = 0.25f;
  placed.params[0] = x;
  std::vector<FieldProgram> parts{*FieldProgram::compile(placed)};
  for (const Ball& b : scatter(50, 9)) parts.push_back(placedSphere(b));
  UnionField field = *UnionField::build(std::move(parts), 0.0);
  ASSERT_TRUE(field.animated());
  const Vec3 atOne(10.0f, 0.0f, 0.0f);
  // Fitted at t = 0, queried at t = 1: the moving part is still found (evaluated exactly).
  EXPECT_NEAR(field.distance(atOne, 1.0), -0.5f, 1e-4f);
  field.refit(1.0);
  EXPECT_NEAR(field.partBox(0).center().x, 10.0f, 1e-3f);
  EXPECT_NEAR(field.distance(atOne, 1.0), -0.5f, 1e-4f);
  EXPECT_NEAR(field.renderSample(atOne, 1.0).distance, -0.5f, 1e-4f);
}

TEST(UnionField, ReplacingAPartMovesItWithoutARebuild) {
  std::vector<Ball> balls = scatter(100, 21);
  UnionField field = buildField(balls);
  const std::size_t nodes = field.nodes().size();
  balls[10].centre = Vec3(200.0f, 3.0f, 200.0f);
  field.replacePart(11, placedSphere(balls[10]));  // part 0 is the plane
  EXPECT_EQ(field.nodes().size(), nodes);
  EXPECT_NEAR(field.distance(Vec3(200.0f, 3.0f, 200.0f), 0.0), -balls[10].radius, 1e-4f);
  EXPECT_TRUE(field.nodes().front().box.contains(Vec3(200.0f, 3.0f, 200.0f)));
}

TEST(UnionField, AnEmptyUnionIsRefused) {
  EXPECT_FALSE(UnionField::build({}, 0.0).ok());
}

TEST(SceneBuffers, HeaderGridAndPlacementMatchTheField) {
  const std::vector<Ball> balls = scatter(40, 4);
  const UnionField field = buildField(balls);
  auto buffers = render::packSceneBuffers(field, 0.0);
  ASSERT_TRUE(buffers.ok()) << buffers.error().message();
  const float* t = buffers->texels.data();
  const glm::ivec3 dims = buffers->gridDims;
  EXPECT_GT(dims.x * dims.y * dims.z, 1);
  EXPECT_EQ(int(t[0]), dims.x * dims.y * dims.z);
  EXPECT_EQ(int(t[1]), 1);  // unbounded parts
  EXPECT_EQ(int(t[5]), field.partCount());
  EXPECT_EQ(buffers->texels.size(), std::size_t(buffers->height) * render::kSceneDataWidth * 4);
  const int partsOffset = int(t[2]);
  EXPECT_EQ(partsOffset, render::kPartsOffset);
  // Open space: the bounded parts' box, and the ground as the one plane (unit normal, offset).
  EXPECT_EQ(int(t[2 * 4 + 3]), 1);
  EXPECT_EQ(t[3 * 4 + 3], 1.0f);
  Aabb bounded;
  for (std::int32_t part : field.leafParts()) bounded.expand(field.partBox(part));
  EXPECT_EQ(Vec3(t[8], t[9], t[10]), bounded.min);
  EXPECT_EQ(Vec3(t[12], t[13], t[14]), bounded.max);
  EXPECT_EQ(Vec4(t[16], t[17], t[18], t[19]), Vec4(0.0f, 1.0f, 0.0f, -1.0f));
  // One function per distinct structure: the plane and the placed sphere of each of the 7
  // materials; 41 parts are more than map() calls in turn, so it reads the grid.
  EXPECT_EQ(buffers->structures.size(), 8u);
  EXPECT_TRUE(buffers->unrolledRecords.empty());
  EXPECT_FALSE(buffers->uniformData);
  // Record r is leafParts[r]: its rows map the ball's centre to the local origin.
  for (int r = 0; r < int(field.leafParts().size()); ++r) {
    const Ball& ball = balls[std::size_t(field.leafParts()[std::size_t(r)] - 1)];
    const float* record = t + std::size_t(partsOffset + render::kPartTexels * r) * 4;
    EXPECT_EQ(int(record[8]), int(render::GpuPartKind::Placed));
    // Its structure: the placed sphere of its material (the material is part of the text).
    const std::string& structure = buffers->structures[std::size_t(record[9])];
    EXPECT_NE(structure.find("m0 = " + std::to_string(ball.material) + ".0;"), std::string::npos)
        << structure;
    // Its parameters: the transform's 8 floats, then the radius.
    const int parameters = int(t[6]) * 4 + int(record[10]);
    EXPECT_EQ(t[parameters + 0], ball.centre.x);
    EXPECT_EQ(t[parameters + 8], ball.radius);
    for (int i = 0; i < 3; ++i) {
      const float* row = record + 12 + 4 * i;
      const float local =
          row[0] * ball.centre.x + row[1] * ball.centre.y + row[2] * ball.centre.z + row[3];
      EXPECT_NEAR(local, 0.0f, 1e-4f);
    }
  }
}

TEST(SceneBuffers, AnUnboundedPartThatIsNoPlaneTurnsTheClosedFormTraceOff) {
  // A sphere repeated without end is unbounded but no plane: rays must be marched throughout.
  FieldNode sphere = makeDefaultNode(NodeType::Sphere);
  FieldNode repeat = makeDefaultNode(NodeType::Repeat);
  repeat.params[0] = repeat.params[1] = repeat.params[2] = 3.0f;  // period (m) per axis
  repeat.children.push_back(std::move(sphere));
  std::vector<FieldProgram> parts{groundPlane(-1.0f), *FieldProgram::compile(repeat)};
  const UnionField field = *UnionField::build(std::move(parts), 0.0);
  ASSERT_EQ(field.unboundedParts().size(), 2u);
  auto buffers = render::packSceneBuffers(field, 0.0);
  ASSERT_TRUE(buffers.ok()) << buffers.error().message();
  EXPECT_EQ(buffers->texels[2 * 4 + 3], -1.0f);
  EXPECT_EQ(buffers->texels[3 * 4 + 3], 0.0f);  // no bounded parts
}

TEST(SceneBuffers, ASceneTallerThanTheTextureLimitIsRefusedNamingIt) {
  const UnionField field = buildField(scatter(400, 8));
  auto buffers = render::packSceneBuffers(field, 0.0, 1);
  ASSERT_FALSE(buffers.ok());
  EXPECT_NE(buffers.error().message().find("GL_MAX_TEXTURE_SIZE"), std::string::npos);
}

// The limit is checked against the rows the data will fill, before it is written: a scene of
// H rows packs under a limit of H (whole rows, the used texels in the last one) and is refused,
// naming H, under H - 1.
TEST(SceneBuffers, TheRowLimitIsExactAndTheTextureIsWholeRows) {
  const UnionField field = buildField(scatter(400, 8));
  auto buffers = render::packSceneBuffers(field, 0.0);
  ASSERT_TRUE(buffers.ok()) << buffers.error().message();
  const int rows = buffers->height;
  ASSERT_GT(rows, 1);
  EXPECT_EQ(buffers->texels.size(), std::size_t(rows) * render::kSceneDataWidth * 4);
  EXPECT_GT(buffers->usedTexels, (rows - 1) * render::kSceneDataWidth);
  EXPECT_LE(buffers->usedTexels, rows * render::kSceneDataWidth);
  auto atTheLimit = render::packSceneBuffers(field, 0.0, rows);
  ASSERT_TRUE(atTheLimit.ok()) << atTheLimit.error().message();
  EXPECT_EQ(atTheLimit->texels, buffers->texels);
  auto overIt = render::packSceneBuffers(field, 0.0, rows - 1);
  ASSERT_FALSE(overIt.ok());
  EXPECT_NE(overIt.error().message().find("needs " + std::to_string(rows) + " rows"),
            std::string::npos)
      << overIt.error().message();
}

}  // namespace
}  // namespace floptle::field
