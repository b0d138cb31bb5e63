// Over-yielded bonds as strands (soft_body_surface_strands.h): under a uniform stretch past the
// yield strain every cage edge flows plastically by a known amount and is drawn; past the break
// strain every one snaps and nothing is drawn.
#include <gtest/gtest.h>

#include "floptle/matter/soft_body_surface_strands.h"
#include "soft_body_test_util.h"

namespace floptle::matter {
namespace {

void stretch(SoftBody& b, float factor) {
  for (std::size_t i = 0; i < b.particleCount(); ++i)
    b.state().position[i] = b.restPositions()[i] * factor;
}

TEST(MatterStrands, YieldedEdgesAreStrandsBetweenTheirParticlesAndSnappedOnesVanish) {
  ViscoKnobs visco;
  visco.yieldStrain = 0.1f;
  visco.breakStrain = 0.5f;
  SoftBodyKnobs knobs;
  knobs.particles = 64;
  SoftBodyStage stage;
  stage.add(test::softCube(Vec3(0.0f), 0.5f, knobs, &visco));
  SoftBody& body = stage.bodies()[0];
  EXPECT_TRUE(yieldedStrands(stage).empty());  // nothing has yielded yet
  // Stretched by 1.3 about the origin: strain 0.3 > 0.1, so rest = 1.3 l0 / 1.1.
  stretch(body, 1.3f);
  body.applyBondRules();
  const std::vector<Strand> strands = yieldedStrands(stage);
  ASSERT_EQ(strands.size(), body.edgeCount());
  for (std::size_t e = 0; e < strands.size(); ++e) {
    EXPECT_NEAR(strands[e].growth, 1.3f / 1.1f - 1.0f, 1e-4f);
    const auto [i, j] = body.edge(e);
    EXPECT_EQ(strands[e].a, body.state().position[i]);
    EXPECT_EQ(strands[e].b, body.state().position[j]);
  }
  // Total strain 0.6 from the formed length passes break_strain 0.5: all snap.
  stretch(body, 1.6f);
  body.applyBondRules();
  EXPECT_EQ(body.bondCount(), 0u);
  EXPECT_TRUE(yieldedStrands(stage).empty());
}

TEST(MatterStrands, APlainSoftBodyHasNone) {
  SoftBodyStage stage;
  stage.add(test::softCube(Vec3(0.0f), 0.5f, SoftBodyKnobs{}));
  stretch(stage.bodies()[0], 1.3f);
  EXPECT_TRUE(yieldedStrands(stage).empty());
}

}  // namespace
}  // namespace floptle::matter
