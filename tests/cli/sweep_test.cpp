// floptle sweep: the cross product of swept scene values, one simulate each, one CSV row per
// run. Its rows agree with separate `floptle simulate` runs, do not depend on --jobs, and its
// shards concatenate to the whole sweep.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace floptle::cli_test {
namespace {

// A box resting on a 20 degree slope (tan = 0.364: it slides below friction 0.364, holds
// above) and a ball dropped from 10 m far from it; one material, so the combined friction is
// the material's.
const char* kScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "stuff", "color": [1, 0, 0], "density": 1000, "friction": 0.5,
                 "restitution": 0.2, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "settings": {"gravity": [0, -9.81, 0]},
  "nodes": [
    {"name": "slope", "shape": {"type": "plane", "normal": [0.34202014, 0.93969262, 0], "offset": 0},
     "material": "stuff", "collider": {"body": "static"}},
    {"name": "box", "transform": {"position": [0.1881, 0.5168, 0], "rotation": [0, 0, -0.17364818, 0.98480775]},
     "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
     "material": "stuff", "collider": {"body": "dynamic"}},
    {"name": "ball", "transform": {"position": [30, 10, 0]}, "shape": {"type": "sphere", "radius": 0.5},
     "material": "stuff", "collider": {"body": "dynamic"}}
  ]})";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The fields of a CSV line (no quoted fields in these tests).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, ',');) out.push_back(field);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

// Every line without its last field (step_ms, the one column that is not deterministic).
std::string withoutTiming(const std::string& csv) {
  std::string out;
  for (const std::string& line : lines(csv)) out += line.substr(0, line.rfind(',')) + "\n";
  return out;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

class Sweep : public CliTest {
 protected:
  Sweep() : CliTest("sweep") {}
  void SetUp() override {
    CliTest::SetUp();
    scene_ = write("scene.json", kScene);
  }
  /// Runs a sweep of the scene writing `out`; returns the CSV (empty on failure).
  std::string sweep(const std::string& arguments, const std::string& out) {
    const RunResult r =
        run("'" + scene_ + "' " + arguments + " --out '" + (dir_ / out).string() + "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return slurp(dir_ / out);
  }
  std::string scene_;
};

TEST_F(Sweep, RowsHashesEqualSeparateSimulateRunsOfTheEditedScenes) {
  const std::string csv = sweep("--set /materials/0/friction=0:0.25:1.0 --ticks 90", "f.csv");
  const auto rows = lines(csv);
  ASSERT_EQ(rows.size(), 6u) << csv;  // header + friction 0, 0.25, 0.5, 0.75, 1
  const auto header = fields(rows[0]);
  EXPECT_EQ(header.front(), "run");
  EXPECT_EQ(header[1], "/materials/0/friction");
  EXPECT_EQ(header[header.size() - 2], "hash");
  EXPECT_EQ(header.back(), "step_ms");
  const std::size_t hashColumn = column(header, "hash");
  const std::size_t boxX = column(header, "box.x");
  std::vector<std::string> hashes;
  for (int i = 0; i < 5; ++i) {
    const auto row = fields(rows[std::size_t(i) + 1]);
    ASSERT_EQ(row.size(), header.size()) << rows[std::size_t(i) + 1];
    EXPECT_EQ(row[0], std::to_string(i));
    EXPECT_DOUBLE_EQ(std::stod(row[1]), 0.25 * i);
    // The same edit by hand, run by `floptle simulate`.
    auto edited = nlohmann::json::parse(kScene);
    edited["materials"][0]["friction"] = 0.25 * i;
    const std::string file = write("edited" + std::to_string(i) + ".json", edited.dump());
    const auto path = dir_ / "simulate.txt";
    ASSERT_EQ(
        runCli("simulate '" + file + "' --ticks 90 > '" + path.string() + "'", dir_ / "err.txt"), 0)
        << slurp(dir_ / "err.txt");
    const auto simulated = nlohmann::json::parse(slurp(path));
    EXPECT_EQ(row[hashColumn], simulated["hash"].get<std::string>()) << "run " << i;
    EXPECT_FLOAT_EQ(std::stof(row[boxX]), simulated["nodes"]["box"]["position"][0].get<float>());
    hashes.push_back(row[hashColumn]);
  }
  // Friction 0 slides the box down the slope, friction 1 holds it: they differ.
  EXPECT_NE(hashes.front(), hashes.back());
}

TEST_F(Sweep, TheNumberOfJobsDoesNotChangeTheRows) {
  const std::string sets =
      "--set /materials/0/friction=0,0.3,0.9 --set /materials/0/restitution=0,0.5 --ticks 60";
  const std::string one = sweep(sets + " --jobs 1", "j1.csv");
  const std::string two = sweep(sets + " --jobs 2", "j2.csv");
  const std::string four = sweep(sets + " --jobs 4", "j4.csv");
  EXPECT_EQ(lines(one).size(), 7u) << one;
  EXPECT_EQ(withoutTiming(one), withoutTiming(two));
  EXPECT_EQ(withoutTiming(one), withoutTiming(four));
  // Cross product order: the last --set varies fastest.
  const auto r1 = fields(lines(one)[2]);
  EXPECT_EQ(r1[1], "0");
  EXPECT_EQ(r1[2], "0.5");
  const auto r2 = fields(lines(one)[3]);
  EXPECT_EQ(r2[1], "0.3");
  EXPECT_EQ(r2[2], "0");
}

TEST_F(Sweep, ThreeShardsConcatenatedAreTheWholeSweep) {
  const std::string sets = "--set /materials/0/friction=0:0.1:0.6 --ticks 45";  // 7 runs
  const std::string whole = sweep(sets, "whole.csv");
  std::string joined;
  for (int k = 0; k < 3; ++k) {
    const std::string shard = sweep(sets + " --jobs 2 --shard " + std::to_string(k) + "/3",
                                    "s" + std::to_string(k) + ".csv");
    if (k > 0) {
      EXPECT_NE(shard.substr(0, 3), "run") << "only shard 0 writes the header";
    }
    joined += shard;
  }
  EXPECT_EQ(lines(whole).size(), 8u);
  EXPECT_EQ(withoutTiming(joined), withoutTiming(whole));
}

TEST_F(Sweep, FallingBallFollowsTheSweptGravity) {
  // Free flight is integrated exactly (constant acceleration over each tick): after t = 0.5 s
  // the ball at 10 m is at 10 - g t^2 / 2 and moves at -g t, for each swept g.
  const std::string csv = sweep("--set /settings/gravity/1=-4:-4:-20 --ticks 30", "g.csv");
  const auto rows = lines(csv);
  ASSERT_EQ(rows.size(), 6u) << csv;
  const auto header = fields(rows[0]);
  const std::size_t y = column(header, "ball.y"), vy = column(header, "ball.vy");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto row = fields(rows[i]);
    const double g = -std::stod(row[1]);
    EXPECT_DOUBLE_EQ(g, 4.0 * double(i));
    const double t = 0.5;
    EXPECT_NEAR(std::stod(row[y]), 10.0 - 0.5 * g * t * t, 1e-4) << "g = " << g;
    EXPECT_NEAR(std::stod(row[vy]), -g * t, 1e-4) << "g = " << g;
  }
}

TEST_F(Sweep, ABadPointerIsNamedBeforeAnyRun) {
  const auto out = dir_ / "never.csv";
  for (const std::string set :
       {"/materials/7/friction=0,1", "/materials/0/friction=-1,0.5", "/materials/0/nonsense=1",
        "/nodes/1/shape=1", "materials/0/friction=1"}) {
    const RunResult r =
        run("'" + scene_ + "' --set '" + set + "' --ticks 5 --out '" + out.string() + "'");
    EXPECT_EQ(r.exitCode, 1) << set;
    EXPECT_NE(r.err.find(set.substr(0, set.find('='))), std::string::npos) << set << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << set;
  }
}

TEST_F(Sweep, ABadRangeOrListSaysWhy) {
  const auto out = dir_ / "never.csv";
  const std::pair<std::string, std::string> cases[] = {
      {"0:0:1", "step must not be 0"},
      {"0:-0.1:1", "never reaches"},
      {"0:0.1", "start:step:stop"},
      {"0.1,x", "'x' is not a finite number"},
  };
  for (const auto& [values, why] : cases) {
    const RunResult r = run("'" + scene_ + "' --set /materials/0/friction=" + values +
                            " --ticks 5 --out '" + out.string() + "'");
    EXPECT_EQ(r.exitCode, 1) << values;
    EXPECT_NE(r.err.find("/materials/0/friction"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << values << ": " << r.err;
  }
}

TEST_F(Sweep, ABadShardSaysWhy) {
  const auto out = dir_ / "never.csv";
  for (const std::string shard : {"3/3", "1/0", "x", "1/", "0/4"}) {  // 3 runs
    const RunResult r =
        run("'" + scene_ + "' --set /materials/0/friction=0,0.5,1 --ticks 5 --shard '" + shard +
            "' --out '" + out.string() + "'");
    EXPECT_EQ(r.exitCode, 1) << shard;
    EXPECT_NE(r.err.find("--shard"), std::string::npos) << shard << ": " << r.err;
  }
}

}  // namespace
}  // namespace floptle::cli_test
