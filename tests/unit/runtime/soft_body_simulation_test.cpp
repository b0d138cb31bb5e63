// Soft bodies in the assembled simulation (buildSimulation): a node with the matter tier
// soft_body becomes a cage in the matter stage; two runs agree bit for bit; save / restore
// replays the same state hash; a scene without matter has no matter stage.
#include <gtest/gtest.h>

#include "floptle/matter/soft_body_stage.h"
#include "runtime_test_util.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;

Json jellyScene() {
  return Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "goo", "color": [0.2, 0.8, 0.3], "density": 500, "friction": 0.6,
                   "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
    "interactions": [],
    "nodes": [
      {"name": "floor", "shape": {"type": "box", "half_extents": [5, 0.5, 5]},
       "transform": {"position": [0, -0.5, 0]}},
      {"name": "ball", "shape": {"type": "sphere", "radius": 0.3},
       "transform": {"position": [3, 2, 0]}, "collider": {"body": "dynamic"}},
      {"name": "jelly", "material": "goo", "shape": {"type": "sphere", "radius": 0.5},
       "transform": {"position": [0, 1.5, 0]},
       "matter": {"tier": "soft_body", "particles": 150, "substeps": 6}}]})");
}

TEST(SoftBodySimulation, ASoftBodyNodeJoinsTheMatterStageAndItsOwnColliderIsQuiet) {
  SceneRuntime rt = test::built(jellyScene());
  physics::Simulation& sim = *rt.physics();
  const auto* stage = dynamic_cast<const matter::SoftBodyStage*>(sim.matterStage());
  ASSERT_NE(stage, nullptr);
  ASSERT_EQ(stage->bodies().size(), 1u);
  EXPECT_EQ(stage->bodies()[0].name(), "jelly");
  EXPECT_NEAR(stage->bodies()[0].mass(), 500.0f * 4.18879f * 0.125f, 0.1f * 500.0f * 0.5236f);
  // Inside the jelly's rest shape the world answers the floor, not the jelly.
  EXPECT_GT(sim.world().distance(Vec3(0, 1.5f, 0), 0.0), 1.0f);
  EXPECT_EQ(sim.bodies().size(), 1u);  // the ball only
}

TEST(SoftBodySimulation, TwoRunsAgreeAndSaveRestoreReplaysTheStateHash) {
  SceneRuntime a = test::built(jellyScene());
  SceneRuntime b = test::built(jellyScene());
  physics::SimulationState saved;
  for (int i = 0; i < 90; ++i) {
    a.step(), b.step();
    if (i == 29) saved = a.physics()->save();
  }
  const std::uint64_t end = a.physics()->stateHash();
  EXPECT_EQ(end, b.physics()->stateHash());
  a.physics()->restore(saved);
  EXPECT_NE(a.physics()->stateHash(), end);
  for (int i = 30; i < 90; ++i) a.step();
  EXPECT_EQ(a.physics()->stateHash(), end);
  // The soft body moved: it is in the hash (a run without its stage differs).
  const auto& jelly =
      dynamic_cast<const matter::SoftBodyStage*>(a.physics()->matterStage())->bodies()[0];
  EXPECT_LT(jelly.centroid().y, 1.0f);
}

TEST(SoftBodySimulation, ASceneWithoutMatterHasNoMatterStage) {
  Json doc = jellyScene();
  doc["nodes"][2]["matter"] = {{"tier", "rigid"}};
  SceneRuntime rt = test::built(doc);
  EXPECT_EQ(rt.physics()->matterStage(), nullptr);
}

}  // namespace
}  // namespace floptle::runtime
