// A heavy body resting on a soft one (soft_body_stage.h step 2: the contacts between bodies are
// solved inside every substep): a rigid steel block (a soft body with stiffness 1 and
// shape_match 1: every substep projects it onto its best rigid fit) on a clay slab of the same
// footprint A on a floor. The clay's base carries the block's weight and its own:
//   P_base = m_block |g| / A + rho_clay |g| (H - y)   at the bottom layer's mean height y,
// and the block rests on the clay's top (its particle layer one particle spacing above the
// clay's) instead of sinking into it.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "floptle/matter/soft_body_stage.h"
#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kG = 9.81f;
constexpr float kClayDensity = 1600.0f;   // kg/m^3
constexpr float kSteelDensity = 7800.0f;  // kg/m^3
constexpr float kClayHeight = 0.4f;       // m: the slab 0.5 x 0.4 x 0.5 m on y = 0
constexpr float kSteelHeight = 0.4f;      // m: the block 0.5 x 0.4 x 0.5 m on it
constexpr float kHalf = 0.25f;            // m: both footprints 0.5 x 0.5 m

SoftBodyDesc clayDesc() {
  SoftBodyDesc desc;
  desc.name = "clay";
  desc.knobs.particles = 100;  // 5 x 4 x 5 at h = 0.1 m
  desc.knobs.stiffness = 0.05f;
  desc.knobs.volumePreserve = 1.0f;
  desc.knobs.shapeMatch = 0.0f;  // all the load through the edges and tetrahedra
  desc.knobs.substeps = 10;
  desc.knobs.damping = 10.0f;
  desc.density = kClayDensity;
  desc.bulkModulus = 1e9f;     // Pa: hard,
  desc.yieldStrength = 1e12f;  // never yields (the pressure is measured, not relieved)
  return desc;
}

SoftBodyDesc steelDesc(int substeps) {
  SoftBodyDesc desc;
  desc.name = "steel";
  desc.knobs.particles = 100;  // 5 x 4 x 5 at h = 0.1 m: the clay's lattice
  desc.knobs.stiffness = 1.0f;
  desc.knobs.volumePreserve = 1.0f;
  desc.knobs.shapeMatch = 1.0f;  // rigid
  desc.knobs.substeps = substeps;
  desc.knobs.damping = 10.0f;
  desc.density = kSteelDensity;
  desc.bulkModulus = 1.6e11f;
  desc.yieldStrength = 2.5e8f;
  return desc;
}

float lowest(const SoftBody& b) {
  float y = 1e9f;
  for (Vec3 p : b.state().position) y = std::min(y, p.y);
  return y;
}
float highest(const SoftBody& b) {
  float y = -1e9f;
  for (Vec3 p : b.state().position) y = std::max(y, p.y);
  return y;
}

/// The clay and, on it, the block with `steelSubsteps` substeps.
SoftBodyStage stack(int steelSubsteps) {
  SoftBodyStage stage;
  stage.add(test::softBox(Vec3(0, 0.5f * kClayHeight, 0), Vec3(kHalf, 0.5f * kClayHeight, kHalf),
                          clayDesc()));
  // The block built where the clay is (the same float bounds give the same lattice), then
  // lifted onto it.
  SoftBody lifted =
      test::softBox(Vec3(0, 0.5f * kClayHeight, 0), Vec3(kHalf, 0.5f * kSteelHeight, kHalf),
                    steelDesc(steelSubsteps));
  for (Vec3& p : lifted.state().position) p.y += 0.5f * (kClayHeight + kSteelHeight);
  stage.add(std::move(lifted));
  return stage;
}

/// Gravity ramped from 0 to g over 1 s, then held 2 s (quasi-static: no impact overshoot);
/// returns the smallest gap between the block's lowest and the clay's highest particle seen.
float settle(SoftBodyStage& stage, const physics::CollisionWorld& world) {
  float minGap = 1e9f;
  for (int i = 0; i < 180; ++i) {
    const float g = kG * std::min(1.0f, float(i + 1) * kDt / 1.0f);
    stage.stepBodies(
        world, [g](Vec3) { return Vec3(0, -g, 0); }, double(i + 1) * kDt, kDt);
    minGap = std::min(minGap, lowest(stage.bodies()[1]) - highest(stage.bodies()[0]));
  }
  return minGap;
}

/// The block rests on the clay and the clay's base carries m_block g / A + rho g (H - y).
void expectRestsAndCarries(int steelSubsteps) {
  const physics::CollisionWorld world = test::floorWorld();
  SoftBodyStage stage = stack(steelSubsteps);
  const SoftBody& clay = stage.bodies()[0];
  const SoftBody& steel = stage.bodies()[1];
  ASSERT_EQ(clay.particleCount(), 100u);
  ASSERT_EQ(steel.particleCount(), 100u);
  ASSERT_EQ(steel.spacing(), clay.spacing());  // the layers meet particle on particle
  const float minGap = settle(stage, world);
  // It rests: still, and its bottom layer one particle spacing (the two radii) above the
  // clay's top layer, never into it (at most 20% of a spacing of overlap at any step).
  const float spacing = 0.5f * (clay.spacing() + steel.spacing());
  EXPECT_GT(minGap, 0.8f * spacing);
  EXPECT_NEAR(lowest(steel) - highest(clay), spacing, 0.1f * spacing);
  float fastest = 0.0f;
  for (Vec3 v : steel.state().velocity) fastest = std::max(fastest, glm::length(v));
  EXPECT_LT(fastest, 0.02f);  // m/s

  // The bottom layer of lattice cubes' mean tetrahedral pressure against the closed form.
  double pressure = 0.0, height = 0.0;
  int count = 0;
  for (std::size_t t = 0; t < clay.tetCount(); ++t) {
    float y = 0.0f;
    for (std::uint32_t i : clay.tet(t)) y += 0.25f * clay.restPositions()[i].y;
    if (y > 0.15f) continue;  // the bottom layer of cubes: rest heights 0.05..0.15 m
    for (std::uint32_t i : clay.tet(t)) height += 0.25 * clay.state().position[i].y;
    pressure += clay.tetPressure(t);
    ++count;
  }
  ASSERT_EQ(count, 5 * 4 * 4);  // 5 tetrahedra in each of the 4 x 4 bottom cubes
  const double area = 4.0 * kHalf * kHalf;
  const double block = double(steel.mass()) * kG / area;
  const double expected = block + kClayDensity * kG * (kClayHeight - height / count);
  // 10%: as the column's base (compaction_test.cpp), the solver's split of the load between
  // the middle and the sides of a section.
  EXPECT_NEAR(pressure / count, expected, 0.1 * expected)
      << "block alone " << block << " Pa, clay alone " << kClayDensity * kG * kClayHeight << " Pa";
}

TEST(SoftBodyStack, ASteelBlockRestsOnClayAndTheClaysBaseCarriesItsWeightPlusRhoGH) {
  expectRestsAndCarries(10);  // the clay's substeps: the two step substep by substep together
}

TEST(SoftBodyStack, ABlockWithFewerSubstepsSpreadsThemOverTheClaysAndDoesNotSinkIntoIt) {
  // 4 substeps spread over the clay's 10 (soft_body_stage.h step 2): between its substeps the
  // block takes its share of the contacts as corrections of its last substep (SoftBody::shove).
  // Only the resting is asserted: the clay's measured stress and the block's stillness hold
  // for equal substeps only (the known limit in soft_body_stage.h).
  const physics::CollisionWorld world = test::floorWorld();
  SoftBodyStage stage = stack(4);
  const float minGap = settle(stage, world);
  const float spacing = stage.bodies()[0].spacing();
  EXPECT_GT(minGap, 0.8f * spacing);
  EXPECT_NEAR(lowest(stage.bodies()[1]) - highest(stage.bodies()[0]), spacing, 0.1f * spacing);
}

TEST(SoftBodyStack, TheInterleavedStepsAreDeterministic) {
  const physics::CollisionWorld world = test::floorWorld();
  SoftBodyStage a = stack(10), b = stack(10);
  settle(a, world);
  settle(b, world);
  EXPECT_EQ(a.stateHash(), b.stateHash());
  EXPECT_NE(a.stateHash(), stack(10).stateHash());  // it moved
}

}  // namespace
}  // namespace floptle::matter
