// floptle simulate --trace FILE.csv: the per-tick series (speed, height, |g|, kinetic and
// potential energy, contacts, step time) of each dynamic node; checked on a ball in free fall
// and against the JSON trace of the same run.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace floptle::cli_test {
namespace {

// A ball (radius 0.5 m, 1000 kg/m^3) 20 m above the ground; it falls 4.9 m in the 60 ticks.
const char* kScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [1, 0, 0], "density": 1000, "friction": 0.5,
                 "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
     "material": "rock", "collider": {"body": "static"}},
    {"name": "ball", "transform": {"position": [0, 20, 0]}, "shape": {"type": "sphere", "radius": 0.5},
     "material": "rock", "collider": {"body": "dynamic"}}
  ]})";

std::vector<std::vector<std::string>> table(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row;
    std::istringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) row.push_back(f);
    rows.push_back(row);
  }
  return rows;
}

class SimulateTraceCsv : public CliTest {
 protected:
  SimulateTraceCsv() : CliTest("simulate") {}
};

TEST_F(SimulateTraceCsv, FreeFallFollowsTheFormulasAndKeepsItsEnergy) {
  const std::string scene = write("fall.json", kScene);
  const auto csvPath = dir_ / "trace.csv";
  const auto jsonPath = dir_ / "trace.jsonl";
  const RunResult r = run("'" + scene + "' --ticks 60 --trace '" + csvPath.string() +
                          "' --trace '" + jsonPath.string() + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto rows = table(slurp(csvPath));
  ASSERT_EQ(rows.size(), 61u);
  const std::vector<std::string> header = {"tick",           "t",
                                           "ball.speed",     "ball.height",
                                           "ball.g",         "ball.kinetic",
                                           "ball.potential", "ball.contacts",
                                           "step_ms"};
  EXPECT_EQ(rows[0], header);

  const double g = 9.81, h0 = 20.0;
  const double mass = 1000.0 * 4.0 / 3.0 * M_PI * 0.125;  // density x sphere volume (kg)
  const double energy0 = mass * g * h0;                   // at rest at h0 (J)
  std::istringstream jsonLines(slurp(jsonPath));
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& row = rows[i];
    ASSERT_EQ(row.size(), header.size());
    const double t = std::stod(row[1]);
    EXPECT_EQ(row[0], std::to_string(i));
    EXPECT_NEAR(t, double(i) / 60.0, 1e-12);
    // Free flight is integrated exactly (the trapezoid of a constant acceleration): the
    // tolerances are float rounding.
    EXPECT_NEAR(std::stod(row[2]), g * t, 1e-4) << "tick " << i;
    EXPECT_NEAR(std::stod(row[3]), h0 - 0.5 * g * t * t, 1e-4) << "tick " << i;
    EXPECT_NEAR(std::stod(row[4]), g, 1e-5);
    // Kinetic + potential (m g h) stays the initial energy to within 1e-5 of it.
    EXPECT_NEAR(std::stod(row[5]) + std::stod(row[6]), energy0, 1e-5 * energy0) << "tick " << i;
    EXPECT_EQ(row[7], "0");
    EXPECT_GE(std::stod(row[8]), 0.0);
    // The JSON trace of the same tick reads the same state.
    std::string line;
    ASSERT_TRUE(std::getline(jsonLines, line));
    const auto j = nlohmann::json::parse(line);
    ASSERT_EQ(j["tick"], i);
    const auto& v = j["nodes"]["ball"]["velocity"];
    const double speed =
        std::sqrt(std::pow(v[0].get<double>(), 2) + std::pow(v[1].get<double>(), 2) +
                  std::pow(v[2].get<double>(), 2));
    EXPECT_DOUBLE_EQ(std::stod(row[2]), speed);
    EXPECT_DOUBLE_EQ(std::stod(row[3]), j["nodes"]["ball"]["position"][1].get<double>());
  }
}

TEST_F(SimulateTraceCsv, ALandedBallCountsItsContact) {
  const std::string scene = write("fall.json", kScene);
  const auto csvPath = dir_ / "trace.csv";
  // 20 m take 2.02 s; at 2.5 s the ball rests on the ground (and is not yet asleep).
  ASSERT_EQ(run("'" + scene + "' --ticks 150 --trace '" + csvPath.string() + "'").exitCode, 0);
  const auto rows = table(slurp(csvPath));
  ASSERT_EQ(rows.size(), 151u);
  EXPECT_NE(rows.back()[7], "0");
  EXPECT_NEAR(std::stod(rows.back()[3]), 0.5, 0.05);  // resting on its radius
}

TEST_F(SimulateTraceCsv, ADriftSceneSaysItHasNoSeries) {
  const RunResult r =
      run("'" + std::string(FLOPTLE_SOURCE_DIR) + "/scenes/drift.json' --ticks 5 --trace '" +
          (dir_ / "t.csv").string() + "'");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("Drift"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace floptle::cli_test
