// Play draws a soft body where the simulation has it: a soft cube dropped on a floor is drawn at
// its simulated centroid (its node moved by the body's best rigid transform), not at the
// document pose.
#include <gtest/gtest.h>

#include "floptle/core/field/union_field.h"
#include "floptle/matter/soft_body_stage.h"
#include "floptle/physics/simulation.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

const char* kSoftCubeScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "goo", "color": [0.2, 0.8, 0.3], "density": 500, "friction": 0.6,
                 "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "nodes": [
    {"name": "floor", "shape": {"type": "box", "half_extents": [4, 0.5, 4]},
     "transform": {"position": [0, -0.5, 0]}},
    {"name": "cube", "material": "goo", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
     "transform": {"position": [0, 2.5, 0]},
     "matter": {"tier": "soft_body", "particles": 125, "substeps": 6, "shape_match": 0.8}}
  ]
})";

using PlaySoftBodyTest = PlayWindowTest;

TEST_F(PlaySoftBodyTest, ADroppedSoftCubeIsDrawnAtItsSimulatedCentroid) {
  openText(kSoftCubeScene);
  playPaused();
  const auto* stage =
      dynamic_cast<const matter::SoftBodyStage*>(session().simulation()->matterStage());
  ASSERT_NE(stage, nullptr);
  ASSERT_EQ(stage->bodies().size(), 1u);
  const Vec3 restCentroid = stage->bodies()[0].centroid();
  for (int i = 0; i < 90; ++i) session().stepOnce();  // 1.5 s: fallen 1.5 m and landed
  const Vec3 centroid = stage->bodies()[0].centroid();
  ASSERT_LT(centroid.y, restCentroid.y - 1.2f);
  RaymarchView* view = window().viewport();
  const field::UnionField* field = view->sceneField();
  ASSERT_NE(field, nullptr);
  const double t = view->time();
  // The cube's closed form about the simulated centroid: 0.5 m deep at its centre, its top face
  // 0.5 m up (within the cage's squash under its weight and the lattice's inset, 0.1 m).
  EXPECT_NEAR(field->distance(centroid, t), -0.5f, 0.1f);
  EXPECT_NEAR(field->distance(centroid + Vec3(0.0f, 1.0f, 0.0f), t), 0.5f, 0.1f);
  // Where the document put it, there is nothing now: the nearest surface is the cube's top,
  // about a metre below.
  EXPECT_GT(field->distance(Vec3(0.0f, 2.5f, 0.0f), t), 0.8f);
}

}  // namespace
}  // namespace floptle::editor::test
