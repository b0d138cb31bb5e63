// The Visco tier: bond.h's rule against its closed form (a bond snaps exactly when its strain
// passes break_strain; past yield_strain its rest length becomes length / (1 + yield) for good),
// the same in a whole cage stretched uniformly, cuts splitting a body into the right number of
// components (each its own body), and sticky contacts that hold a body to a ceiling.
#include <cmath>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "floptle/matter/bond.h"
#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

constexpr float kDt = 1.0f / 60.0f;

TEST(ViscoBond, SnapsExactlyWhenItsStrainPassesBreakStrain) {
  const float rest0 = 0.2f, breakStrain = 0.8f, yieldStrain = 10.0f;  // no yield on the way
  // Lengths around (1 + e_b) rest: strain = (length - rest) / rest, computed as the rule does.
  for (float length = 0.3f; length < 0.42f; length += 0.0005f) {
    float rest = rest0;
    const float strain = (length - rest0) / rest0;
    const BondChange change = updateBond(length, rest, rest0, yieldStrain, breakStrain);
    EXPECT_EQ(change == BondChange::Broken, strain > breakStrain) << length;
    if (change != BondChange::Broken) {
      EXPECT_EQ(rest, rest0);
    }
  }
  // Either side of the threshold by one float step.
  float rest = 1.0f;
  EXPECT_EQ(updateBond(1.8f, rest, 1.0f, 10.0f, 0.8f), BondChange::Elastic);  // 0.8: not past
  EXPECT_EQ(updateBond(std::nextafter(1.8f, 2.0f), rest, 1.0f, 10.0f, 0.8f), BondChange::Broken);
  // Compression never breaks.
  EXPECT_EQ(updateBond(0.01f, rest, 1.0f, 0.1f, 0.2f), BondChange::Elastic);
}

TEST(ViscoBond, PlasticYieldGrowsTheRestLengthForGood) {
  float rest = 1.0f;
  const float formed = 1.0f;
  EXPECT_EQ(updateBond(1.5f, rest, formed, 0.2f, 1.0f), BondChange::Yielded);
  EXPECT_FLOAT_EQ(rest, 1.5f / 1.2f);  // the strain is back at yield
  // Released to its new rest length, or shorter: it stays (no spring-back of the rest).
  EXPECT_EQ(updateBond(1.25f, rest, formed, 0.2f, 1.0f), BondChange::Elastic);
  EXPECT_EQ(updateBond(1.0f, rest, formed, 0.2f, 1.0f), BondChange::Elastic);
  EXPECT_FLOAT_EQ(rest, 1.5f / 1.2f);
  // A slow pull creeps (yields again and again) and tears once stretched by break_strain in
  // all, from the length it formed at: up to 2.0 (1 + 1) it holds, past it it snaps.
  for (int i = 0; i < 50; ++i) {
    const float length = 1.5f + 0.01f * float(i);
    EXPECT_NE(updateBond(length, rest, formed, 0.2f, 1.0f), BondChange::Broken) << length;
  }
  EXPECT_FLOAT_EQ(rest, (1.5f + 0.01f * 49.0f) / 1.2f);
  EXPECT_EQ(updateBond(2.02f, rest, formed, 0.2f, 1.0f), BondChange::Broken);
}

SoftBodyKnobs cageKnobs() {
  SoftBodyKnobs knobs;
  knobs.particles = 64;  // 4 x 4 x 4
  knobs.substeps = 4;
  return knobs;
}

/// Every particle moved to centre + s (x - centre): every edge's strain becomes s - 1.
void scaleAbout(SoftBody& body, Vec3 centre, float s) {
  for (Vec3& p : body.state().position) p = centre + s * (p - centre);
}

TEST(ViscoCage, EveryEdgeSnapsExactlyPastBreakStrainUnderAUniformStretch) {
  ViscoKnobs visco;
  visco.breakStrain = 0.5f;
  visco.yieldStrain = 10.0f;
  SoftBody below = test::softCube(Vec3(0), 0.5f, cageKnobs(), &visco);
  const std::size_t edges = below.edgeCount();
  ASSERT_EQ(below.particleCount(), 64u);
  ASSERT_EQ(below.bondCount(), edges);
  scaleAbout(below, Vec3(0), 1.49f);
  below.applyBondRules();
  EXPECT_EQ(below.bondCount(), edges);
  EXPECT_EQ(below.componentCount(), 1u);

  SoftBody above = test::softCube(Vec3(0), 0.5f, cageKnobs(), &visco);
  scaleAbout(above, Vec3(0), 1.51f);
  above.applyBondRules();
  EXPECT_EQ(above.bondCount(), 0u);
  EXPECT_EQ(above.componentCount(), 64u);  // every particle on its own
}

TEST(ViscoCage, PlasticYieldIsPermanentAfterTheLoadIsGone) {
  // No volume constraint or shape matching: the edges alone decide the size. The release is
  // quasi-static: damping (1/s) past 1/dt_sub removes the particles' relative velocity every
  // substep, so the spring-back carries no momentum that could stretch the edges again.
  SoftBodyKnobs knobs = cageKnobs();
  knobs.volumePreserve = 0.0f;
  knobs.shapeMatch = 0.0f;
  knobs.stiffness = 1.0f;
  knobs.substeps = 10;
  knobs.damping = 1000.0f;
  ViscoKnobs visco;
  visco.yieldStrain = 0.1f;
  visco.breakStrain = 2.0f;
  visco.stickiness = 0.0f;
  const physics::CollisionWorld empty;
  auto meanEdge = [](const SoftBody& b) {
    double sum = 0.0;
    for (float r : b.state().edgeRest) sum += r;
    return sum / double(b.state().edgeRest.size());
  };
  auto size = [](const SoftBody& b) {
    return b.bounds().max.x - b.bounds().min.x - 2 * b.radius();
  };

  SoftBody plastic = test::softCube(Vec3(0), 0.5f, knobs, &visco);
  const double rest0 = meanEdge(plastic);
  const float size0 = size(plastic);
  scaleAbout(plastic, Vec3(0), 1.3f);  // strain 0.3: past yield 0.1, below break 2
  plastic.applyBondRules();
  EXPECT_NEAR(meanEdge(plastic), rest0 * 1.3 / 1.1, 1e-5 * rest0);
  // Let go: the cage relaxes to its grown rest lengths, not back to the original. (The release
  // itself strains some edges past yield for a moment: rest lengths only ever grow, a little.)
  for (int i = 0; i < 120; ++i) plastic.step(empty, Vec3(0), double(i + 1) * kDt, kDt);
  EXPECT_GE(meanEdge(plastic), rest0 * 1.3 / 1.1 - 1e-6 * rest0);
  EXPECT_NEAR(meanEdge(plastic), rest0 * 1.3 / 1.1, 0.01 * rest0);
  EXPECT_NEAR(size(plastic), size0 * 1.3f / 1.1f, 0.03f * size0);
  EXPECT_GT(size(plastic), 1.1f * size0);

  // The same stretch below yield springs back to the original size.
  ViscoKnobs elastic = visco;
  elastic.yieldStrain = 0.5f;
  SoftBody spring = test::softCube(Vec3(0), 0.5f, knobs, &elastic);
  scaleAbout(spring, Vec3(0), 1.3f);
  spring.applyBondRules();
  EXPECT_EQ(meanEdge(spring), rest0);  // nothing yielded
  for (int i = 0; i < 120; ++i) spring.step(empty, Vec3(0), double(i + 1) * kDt, kDt);
  EXPECT_NEAR(meanEdge(spring), rest0, 1e-3 * rest0);
  EXPECT_NEAR(size(spring), size0, 0.01f * size0);
}

TEST(ViscoSplit, CutsThroughTheBondsSplitIntoTheRightNumberOfComponents) {
  ViscoKnobs visco;
  SoftBodyKnobs knobs = cageKnobs();
  knobs.particles = 200;
  // A bar along x: 0.2 x 0.2 x 1.6, cut by planes x = -0.4 and x = 0.4 between lattice layers.
  SoftBodyDesc desc;
  desc.name = "bar";
  desc.knobs = knobs;
  desc.visco = true;
  desc.viscoKnobs = visco;
  const Vec3 half(0.8f, 0.1f, 0.1f);
  auto field = [=](Vec3 p) {
    const Vec3 q = glm::abs(p) - half;
    return glm::length(glm::max(q, Vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
  };
  auto built = SoftBody::build(desc, field, Aabb{-half, half}, "/t");
  ASSERT_TRUE(built) << built.error().message();
  SoftBody bar = std::move(built.value());
  ASSERT_EQ(bar.componentCount(), 1u);
  const float h = bar.spacing();
  // Planes halfway between lattice layers (the lattice is centred on the bar).
  auto between = [&](float x) {
    const float first = bar.restPositions().front().x;
    return first + (std::floor((x - first) / h) + 0.5f) * h;
  };
  bar.severBondsCrossing(Vec3(between(-0.4f), 0, 0), Vec3(1, 0, 0));
  EXPECT_EQ(bar.componentCount(), 2u);
  bar.severBondsCrossing(Vec3(between(0.4f), 0, 0), Vec3(1, 0, 0));
  EXPECT_EQ(bar.componentCount(), 3u);

  const std::vector<SoftBody> pieces = bar.split();
  ASSERT_EQ(pieces.size(), 3u);
  std::size_t particles = 0;
  float mass = 0.0f;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const SoftBody& p = pieces[k];
    EXPECT_EQ(p.desc().piece, int(k) + 1);
    EXPECT_EQ(p.name(), "bar");
    EXPECT_EQ(p.componentCount(), 1u);
    particles += p.particleCount();
    mass += p.mass();
    // Every particle of a piece on one side of the cuts.
    std::set<int> sides;
    for (Vec3 x : p.state().position)
      sides.insert(x.x < between(-0.4f) ? 0 : x.x < between(0.4f) ? 1 : 2);
    EXPECT_EQ(sides.size(), 1u);
  }
  EXPECT_EQ(particles, bar.particleCount());
  EXPECT_NEAR(mass, bar.mass(), 1e-3f * bar.mass());
  // Each piece keeps its particles' state: the union of the pieces' positions is the body's.
  std::multiset<std::tuple<float, float, float>> before, after;
  for (Vec3 x : bar.state().position) before.insert({x.x, x.y, x.z});
  for (const SoftBody& p : pieces)
    for (Vec3 x : p.state().position) after.insert({x.x, x.y, x.z});
  EXPECT_EQ(before, after);
}

TEST(ViscoSticky, AStickyCubeHangsFromACeilingAndAPlainOneFalls) {
  // The world: a ceiling, the half-space y > 1 solid (plane normal -y, offset -1).
  physics::CollisionWorld world;
  world.add(physics::testing::placed(physics::testing::planeNode(Vec3(0, -1, 0), -1.0f),
                                     physics::testing::pose(Vec3(0))),
            "ceiling");
  SoftBodyKnobs knobs = cageKnobs();
  knobs.particles = 125;
  knobs.substeps = 10;
  ViscoKnobs visco;
  visco.stickiness = 1.0f;
  visco.contactBand = 0.05f;
  visco.breakStrain = 50.0f;  // holds
  visco.yieldStrain = 40.0f;
  // The cube's top particles touch the ceiling at the start (top layer at y = 1 - h/2).
  SoftBody sticky = test::softCube(Vec3(0, 0.7f, 0), 0.3f, knobs, &visco);
  const Vec3 g(0, -9.81f, 0);
  const float y0 = sticky.centroid().y;
  for (int i = 0; i < 60; ++i) sticky.step(world, g, double(i + 1) * kDt, kDt);
  EXPECT_GT(sticky.state().anchorParticle.size(), 0u);
  EXPECT_NEAR(sticky.centroid().y, y0, 0.15f);  // hangs (sags a little), does not fall

  SoftBody plain = test::softCube(Vec3(0, 0.7f, 0), 0.3f, knobs);
  for (int i = 0; i < 60; ++i) plain.step(world, g, double(i + 1) * kDt, kDt);
  EXPECT_LT(plain.centroid().y, y0 - 4.0f);  // 1 s of free fall: 4.9 m
}

}  // namespace
}  // namespace floptle::matter
