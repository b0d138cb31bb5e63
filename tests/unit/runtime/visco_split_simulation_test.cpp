// A Visco node in the assembled simulation: cut through its bonds, the matter stage replaces it
// at the end of the step by one body per component (each stepping on its own, in play only),
// the node's result sums the pieces, and save / restore brings the whole body back.
#include <gtest/gtest.h>

#include <cmath>

#include "floptle/matter/soft_body_stage.h"
#include "runtime_test_util.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;

Json barScene() {
  return Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "goo", "color": [0.2, 0.8, 0.3], "density": 800, "friction": 0.6,
                   "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
    "interactions": [],
    "nodes": [
      {"name": "bar", "material": "goo", "shape": {"type": "box", "half_extents": [0.8, 0.1, 0.1]},
       "transform": {"position": [0, 3, 0]},
       "matter": {"tier": "visco", "particles": 200, "substeps": 4}}]})");
}

TEST(ViscoSplitSimulation, ACutBodyBecomesOneBodyPerComponentAndRestoresWhole) {
  SceneRuntime rt = test::built(barScene());
  physics::Simulation& sim = *rt.physics();
  auto* stage = dynamic_cast<matter::SoftBodyStage*>(sim.matterStage());
  ASSERT_NE(stage, nullptr);
  ASSERT_EQ(stage->bodies().size(), 1u);
  const std::size_t particles = stage->bodies()[0].particleCount();
  const physics::SimulationState saved = sim.save();
  const std::uint64_t before = sim.stateHash();

  // Cut halfway between two lattice layers left and right of the middle.
  matter::SoftBody& bar = stage->bodies()[0];
  const float h = bar.spacing(), first = bar.restPositions().front().x;
  for (float x : {-0.4f, 0.4f})
    bar.severBondsCrossing(Vec3(first + (std::floor((x - first) / h) + 0.5f) * h, 3, 0),
                           Vec3(1, 0, 0));
  sim.step();
  ASSERT_EQ(stage->bodies().size(), 3u);
  std::size_t total = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(stage->bodies()[k].name(), "bar");
    EXPECT_EQ(stage->bodies()[k].desc().piece, int(k) + 1);
    EXPECT_EQ(stage->bodies()[k].componentCount(), 1u);
    total += stage->bodies()[k].particleCount();
  }
  EXPECT_EQ(total, particles);
  const Json result = sim.resultJson();
  EXPECT_EQ(result["nodes"]["bar"]["components"], 3);
  EXPECT_EQ(result["nodes"]["bar"]["particles"], particles);

  sim.restore(saved);
  ASSERT_EQ(stage->bodies().size(), 1u);
  EXPECT_EQ(stage->bodies()[0].componentCount(), 1u);
  EXPECT_EQ(sim.stateHash(), before);
}

}  // namespace
}  // namespace floptle::runtime
