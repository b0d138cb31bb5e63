// `floptle simulate` on a scene with density-field gravity (tier 3) and bodies that attract:
// it runs, two runs agree on the hash, the body obeys the pull of the planet's matter, and a
// bad density object is refused naming its JSON pointer.
#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace floptle::cli_test {
namespace {

class SimulateDensity : public CliTest {
 protected:
  SimulateDensity() : CliTest("simulate") {}
};

constexpr const char* kScene = R"({"format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2000, "friction": 0.5,
                 "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "settings": {"gravity": {"G": 0.001, "bodies_attract": true, "theta": 0.5,
                           "density": {"cell": 0.5, "cadence": 5}}},
  "nodes": [
    {"name": "planet", "material": "rock", "shape": {"type": "sphere", "radius": 3}},
    {"name": "pebble", "material": "rock", "shape": {"type": "sphere", "radius": 0.2},
     "transform": {"position": [0, 8, 0]}, "collider": {"body": "dynamic"}}]})";

TEST_F(SimulateDensity, ASceneWithTheDensityTierRunsAndIsDeterministic) {
  const std::string scene = write("density.json", kScene);
  const auto ja = runTwiceAgreeing("'" + scene + "' --ticks 30");
  ASSERT_FALSE(ja.is_discarded());
  // The pebble falls towards the planet: G M / r^2 at r = 8, M = 2000 x 4/3 pi 27.
  const auto gravity = ja["nodes"]["pebble"]["gravity"];
  const double M = 2000.0 * 4.0 / 3.0 * 3.14159265358979 * 27.0;
  const double r = ja["nodes"]["pebble"]["position"][1].get<double>();
  EXPECT_LT(r, 8.0);
  EXPECT_NEAR(gravity[1].get<double>(), -0.001 * M / (r * r), 0.02 * 0.001 * M / (r * r));
}

TEST_F(SimulateDensity, ABadDensityObjectIsRefusedNamingItsPointer) {
  auto doc = nlohmann::json::parse(kScene);
  doc["settings"]["gravity"]["density"]["bounds"] = {{1, 1, 1}, {0, 2, 2}};
  const std::string scene = write("bad.json", doc.dump());
  const RunResult r = run("'" + scene + "' --ticks 3");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find("/settings/gravity/density/bounds"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace floptle::cli_test
