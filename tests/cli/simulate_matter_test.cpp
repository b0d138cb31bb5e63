// `floptle simulate` on a scene with a soft body (the SoftBody tier): it prints the
// matter fields for the node, two runs agree on the hash, the cube lands on the floor keeping
// its volume, and a tier not built yet is refused naming its pointer.
#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace floptle::cli_test {
namespace {

class SimulateMatter : public CliTest {
 protected:
  SimulateMatter() : CliTest("simulate") {}
};

constexpr const char* kScene = R"({"format": "floptle.scene", "version": 1,
  "materials": [{"id": "goo", "color": [0.2, 0.8, 0.3], "density": 500, "friction": 0.6,
                 "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "nodes": [
    {"name": "floor", "shape": {"type": "box", "half_extents": [5, 0.5, 5]},
     "transform": {"position": [0, -0.5, 0]}},
    {"name": "jelly", "material": "goo", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
     "transform": {"position": [0, 1, 0]},
     "matter": {"tier": "soft_body", "particles": 216, "stiffness": 0.5, "volume_preserve": 1,
                "shape_match": 0.2, "substeps": 8, "damping": 2}}]})";

TEST_F(SimulateMatter, ASoftBodyNodePrintsItsMatterFieldsAndIsDeterministic) {
  const std::string scene = write("matter.json", kScene);
  const auto ja = runTwiceAgreeing("'" + scene + "' --ticks 120");
  ASSERT_FALSE(ja.is_discarded());
  ASSERT_TRUE(ja["nodes"].contains("jelly")) << ja.dump();
  const auto& n = ja["nodes"]["jelly"];
  for (const char* key : {"centroid", "volume", "rest_volume", "density", "aabb", "particles",
                          "bonds", "components", "asleep"})
    EXPECT_TRUE(n.contains(key)) << key << " missing: " << n.dump();
  EXPECT_EQ(n["particles"], 216);  // 6 x 6 x 6 in the unit cube
  EXPECT_EQ(n["bonds"], 0);
  EXPECT_EQ(n["components"], 1);
  EXPECT_NEAR(n["rest_volume"].get<double>(), 1.0, 1e-3);
  EXPECT_NEAR(n["volume"].get<double>(), 1.0, 0.05);
  // Mass is conserved: density x volume = 500 kg/m^3 x 1 m^3 at rest.
  EXPECT_NEAR(n["density"].get<double>() * n["volume"].get<double>(), 500.0, 0.5);
  // Fell from 0.5 m up onto the floor at y = 0: the centroid rests near half height.
  EXPECT_NEAR(n["centroid"][1].get<double>(), 0.5, 0.05);
  EXPECT_GE(n["aabb"][0][1].get<double>(), -0.02);
  EXPECT_TRUE(ja["counters"].contains("matter_particles_solved"));
}

TEST_F(SimulateMatter, TheStickyBlobOfTheMatterSceneHangsThenTearsAndFalls) {
  const std::string scene = std::string(FLOPTLE_SOURCE_DIR) + "/scenes/matter.json";
  // Tick 3: the blob's top particles are bonded to the ledge above (bonds beyond its edges).
  const auto early = runTwiceAgreeing("'" + scene + "' --ticks 3");
  ASSERT_TRUE(early["nodes"].contains("sticky_blob")) << early.dump();
  const auto& hanging = early["nodes"]["sticky_blob"];
  const auto late = runTwiceAgreeing("'" + scene + "' --ticks 240");
  const auto& fallen = late["nodes"]["sticky_blob"];
  const int edges = 540;  // the 125-particle cage's edges, as the bonds it starts with
  EXPECT_GT(hanging["bonds"].get<int>(), edges);
  EXPECT_NEAR(hanging["centroid"][1].get<double>(), 2.7, 0.05);
  // Torn off the ledge, it lies on the ground (its base at y = 0), sticking to it instead.
  EXPECT_LT(fallen["centroid"][1].get<double>(), 0.5);
  EXPECT_NEAR(fallen["aabb"][0][1].get<double>(), 0.0, 0.02);
  EXPECT_EQ(fallen["components"], 1);
  EXPECT_EQ(fallen["particles"], 125);
  // Mass conserved: density x volume = 1100 kg/m^3 x the rest volume.
  EXPECT_NEAR(fallen["density"].get<double>() * fallen["volume"].get<double>(),
              1100.0 * fallen["rest_volume"].get<double>(), 0.5);
}

TEST_F(SimulateMatter, TheClayOfTheMatterSceneCompactsForGoodUnderTheSteelBlock) {
  const std::string scene = std::string(FLOPTLE_SOURCE_DIR) + "/scenes/matter.json";
  const auto out = runTwiceAgreeing("'" + scene + "' --ticks 240");
  ASSERT_TRUE(out["nodes"].contains("clay_slab")) << out.dump();
  ASSERT_TRUE(out["nodes"].contains("steel_block")) << out.dump();
  const auto& clay = out["nodes"]["clay_slab"];
  const auto& steel = out["nodes"]["steel_block"];
  // The mass is kept (1600 kg/m^3 x the first rest volume), so it gives the first rest volume.
  const double mass = clay["density"].get<double>() * clay["volume"].get<double>();
  const double firstRest = mass / 1600.0;
  // The block's weight alone, 7800 kg/m^3 x 0.15 m^3 x 9.81 / 0.25 m^2 = 46 kPa, passes the
  // clay's 20 kPa yield under it: the clay compacts for good (by (P - P_y) / K, about 3% of
  // the volume under the block, more with the landing's overshoot) and its density rises.
  EXPECT_LT(clay["rest_volume"].get<double>(), 0.99 * firstRest);
  EXPECT_GT(clay["density"].get<double>(), 1.02 * 1600.0);
  // At rest under the block: the volume is the compacted rest volume up to the elastic strain.
  EXPECT_NEAR(clay["volume"].get<double>(), clay["rest_volume"].get<double>(), 0.03 * firstRest);
  EXPECT_EQ(clay["particles"], 324);
  // The block (a rigid soft body: stiffness 1, shape_match 1) rests on the clay under its own
  // weight: its base on the clay's top (the two particle lattices nest by less than a third of
  // a spacing, 0.1 m), not sunk into it, and it keeps its volume.
  const double clayTop = clay["aabb"][1][1].get<double>();
  const double steelBase = steel["aabb"][0][1].get<double>();
  EXPECT_GT(steelBase, clayTop - 0.03);
  EXPECT_LT(steelBase, clayTop + 0.005);
  EXPECT_LT(clayTop, 0.4);  // pressed down from its 0.4 m
  EXPECT_NEAR(steel["volume"].get<double>(), 0.15, 0.001);
  EXPECT_NEAR(steel["centroid"][0].get<double>(), 3.0, 0.01);  // not slid off
  EXPECT_NEAR(steel["centroid"][2].get<double>(), -4.0, 0.01);
  EXPECT_TRUE(out["counters"].contains("matter_particles"));
  EXPECT_TRUE(out["counters"].contains("matter_bonds"));
  EXPECT_TRUE(out["counters"].contains("matter_sleeping_bodies"));
}

TEST_F(SimulateMatter, ATierNotBuiltYetIsRefusedNamingItsPointer) {
  auto doc = nlohmann::json::parse(kScene);
  doc["nodes"][1]["matter"] = {{"tier", "field_blend"}};
  const std::string scene = write("blend.json", doc.dump());
  const RunResult r = run("'" + scene + "' --ticks 3");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("/nodes/1/matter/tier"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not built yet"), std::string::npos) << r.err;
}

TEST_F(SimulateMatter, ABadKnobIsRefusedNamingItsPointer) {
  auto doc = nlohmann::json::parse(kScene);
  doc["nodes"][1]["matter"]["stiffness"] = 3;
  const std::string scene = write("stiff.json", doc.dump());
  const RunResult r = run("'" + scene + "' --ticks 3");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("/nodes/1/matter/stiffness"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace floptle::cli_test
