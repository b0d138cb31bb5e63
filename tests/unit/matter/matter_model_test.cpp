// Reading the "matter" component: rigid without one, the soft_body knobs, and refusals that
// name the JSON pointer (bad knobs, unknown keys, the tiers not built yet).
#include <gtest/gtest.h>

#include "floptle/matter/matter_model.h"

namespace floptle::matter {
namespace {

using Json = nlohmann::ordered_json;

TEST(MatterModel, ANodeWithoutOneIsRigidAndSoftBodyKnobsAreRead) {
  auto none = readMatterModel(Json(), "/nodes/0/matter");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->tier, MatterTier::Rigid);
  auto soft = readMatterModel(Json::parse(R"({"tier": "soft_body", "particles": 64,
      "stiffness": 0.35, "volume_preserve": 0.9, "shape_match": 0.5, "substeps": 4,
      "damping": 2})"),
                              "/nodes/0/matter");
  ASSERT_TRUE(soft) << soft.error().message();
  EXPECT_EQ(soft->tier, MatterTier::SoftBody);
  EXPECT_EQ(soft->softBody.particles, 64);
  EXPECT_FLOAT_EQ(soft->softBody.stiffness, 0.35f);
  EXPECT_FLOAT_EQ(soft->softBody.volumePreserve, 0.9f);
  EXPECT_FLOAT_EQ(soft->softBody.shapeMatch, 0.5f);
  EXPECT_EQ(soft->softBody.substeps, 4);
  EXPECT_FLOAT_EQ(soft->softBody.damping, 2.0f);
}

TEST(MatterModel, BadKnobsAreRefusedNamingTheirPointer) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"tier": "soft_body", "stiffness": 0})", "/nodes/2/matter/stiffness"},
      {R"({"tier": "soft_body", "stiffness": 1.5})", "/nodes/2/matter/stiffness"},
      {R"({"tier": "soft_body", "volume_preserve": -0.1})", "/nodes/2/matter/volume_preserve"},
      {R"({"tier": "soft_body", "shape_match": 2})", "/nodes/2/matter/shape_match"},
      {R"({"tier": "soft_body", "substeps": 0})", "/nodes/2/matter/substeps"},
      {R"({"tier": "soft_body", "particles": 2.5})", "/nodes/2/matter/particles"},
      {R"({"tier": "soft_body", "damping": "lots"})", "/nodes/2/matter/damping"},
      {R"({"tier": "soft_body", "stiffnes": 0.5})", "/nodes/2/matter/stiffnes"},
      {R"({"tier": "rigid", "stiffness": 0.5})", "/nodes/2/matter/stiffness"},
      {R"({"tier": "jelly"})", "/nodes/2/matter/tier"},
  };
  for (const auto& [text, pointer] : cases) {
    auto model = readMatterModel(Json::parse(text), "/nodes/2/matter");
    ASSERT_FALSE(model) << text;
    EXPECT_EQ(model.error().where, pointer) << text << ": " << model.error().message();
  }
}

TEST(MatterModel, MorphReadsItsTermsAndBakeCell) {
  auto model = readMatterModel(Json::parse(R"({"tier": "morph", "displacement": [
      {"type": "sine", "amplitude": [0, 0.2, 0], "wave": [3, 0, 0], "speed": 2, "phase": 0.5},
      {"type": "noise", "amplitude": 0.05, "frequency": 4, "speed": 1, "seed": 7}],
      "bake": {"cell": 0.05}})"),
                               "/nodes/0/matter");
  ASSERT_TRUE(model) << model.error().message();
  EXPECT_EQ(model->tier, MatterTier::Morph);
  ASSERT_EQ(model->morph.terms.size(), 2u);
  EXPECT_EQ(model->morph.terms[0].type, field::NodeType::DisplaceSine);
  EXPECT_EQ(model->morph.terms[0].params[1].base, 0.2f);
  EXPECT_EQ(model->morph.terms[0].params[6].base, 2.0f);
  EXPECT_EQ(model->morph.terms[1].type, field::NodeType::DisplaceNoise);
  EXPECT_EQ(model->morph.terms[1].params[0].base, 0.05f);
  EXPECT_EQ(model->morph.terms[1].params[3].base, 7.0f);
  EXPECT_EQ(model->morph.bakeCell, 0.05f);
}

TEST(MatterModel, MorphRefusalsNameTheKey) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"tier": "morph", "displacement": [{"type": "wobble"}]})",
       "/nodes/2/matter/displacement/0/type"},
      {R"({"tier": "morph", "displacement": [{"type": "noise", "amplitude": -1}]})",
       "/nodes/2/matter/displacement/0/amplitude"},
      {R"({"tier": "morph", "displacement": [{"type": "sine"}, {"type": "sine", "wave": 3}]})",
       "/nodes/2/matter/displacement/1/wave"},
      {R"({"tier": "morph", "displacement": [{"type": "sine", "material": "goo"}]})",
       "/nodes/2/matter/displacement/0/material"},
      {R"({"tier": "morph", "displacement": {"type": "sine"}})", "/nodes/2/matter/displacement"},
      {R"({"tier": "morph", "bake": {"cell": 0}})", "/nodes/2/matter/bake/cell"},
      {R"({"tier": "morph", "bake": {"cells": 1}})", "/nodes/2/matter/bake/cells"},
      {R"({"tier": "morph", "stiffness": 0.5})", "/nodes/2/matter/stiffness"},
  };
  for (const auto& [text, pointer] : cases) {
    auto model = readMatterModel(Json::parse(text), "/nodes/2/matter");
    ASSERT_FALSE(model) << text;
    EXPECT_EQ(model.error().where, pointer) << text << ": " << model.error().message();
  }
}

TEST(MatterModel, TheTiersNotBuiltYetAreRefusedByName) {
  for (const char* tier : {"field_blend"}) {
    Json component{{"tier", tier}};
    auto model = readMatterModel(component, "/nodes/1/matter");
    ASSERT_FALSE(model) << tier;
    EXPECT_EQ(model.error().where, "/nodes/1/matter/tier");
    EXPECT_NE(model.error().what.find("not built yet"), std::string::npos) << model.error().what;
    EXPECT_NE(model.error().what.find(tier), std::string::npos);
  }
}

}  // namespace
}  // namespace floptle::matter
