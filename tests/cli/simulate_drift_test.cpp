// `floptle simulate SCENE --ticks N [--inputs FILE] [--trace FILE]` on Drift scenes, run as a
// process: one JSON object on stdout, the same hash twice, a trace with the contact that a
// placement next to the boat causes, and errors naming what and where with exit 1.
#include <gtest/gtest.h>

#include "cli_test_support.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

using floptle::cli_test::RunResult;
using floptle::cli_test::slurp;

const std::string kSampleScene = std::string(FLOPTLE_SOURCE_DIR) + "/scenes/drift.json";

class SimulateDriftCli : public floptle::cli_test::CliTest {
 protected:
  SimulateDriftCli() : CliTest("simulate") {}
};

std::string quoted(const std::string& path) {
  return "'" + path + "'";
}

TEST_F(SimulateDriftCli, PrintsOneJsonObjectAndTheSameHashTwice) {
  const std::string inputs = write("inputs.json", R"([{"tick": 5, "place": [-1.2, 0.3]},
      {"tick": 40, "place": [2.0, 2.0]}])");
  const std::string args = quoted(kSampleScene) + " --ticks 240 --inputs " + quoted(inputs);
  const RunResult first = run(args);
  ASSERT_EQ(first.exitCode, 0) << first.err;
  const RunResult second = run(args);
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_EQ(first.out, second.out);

  const auto result = nlohmann::json::parse(first.out);
  EXPECT_EQ(result["tick"], 240);
  ASSERT_TRUE(result["hash"].is_string());
  EXPECT_FALSE(result["hash"].get<std::string>().empty());
  const auto& boat = result["nodes"]["boat"];
  ASSERT_EQ(boat["position"].size(), 3u);
  ASSERT_EQ(boat["velocity"].size(), 3u);
  EXPECT_EQ(boat["position"][1], 0.0);
  EXPECT_EQ(result["counters"]["ticks"], 240);
  EXPECT_EQ(result["counters"]["placements"], 2);
  EXPECT_GE(result["counters"]["contacts"].get<int>(), 1);
  EXPECT_EQ(result["counters"]["discarded_ticks"], 0);

  // Without inputs the boat just drifts with the sample's current: a different state.
  const RunResult idle = run(quoted(kSampleScene) + " --ticks 240");
  ASSERT_EQ(idle.exitCode, 0) << idle.err;
  EXPECT_NE(nlohmann::json::parse(idle.out)["hash"], result["hash"]);
  EXPECT_EQ(nlohmann::json::parse(idle.out)["counters"]["contacts"], 0);
}

TEST_F(SimulateDriftCli, TraceHasTheContactOfAPlacementNextToTheBoat) {
  // The sample boat starts at rest at the origin; a ripple placed 1 m to its left reaches the
  // hull (band 0.35 + 0.5 m) within a few ticks and pushes it along +x.
  const std::string inputs = write("inputs.json", R"([{"tick": 3, "place": [-1.0, 0.0]}])");
  const std::string trace = (dir_ / "trace.jsonl").string();
  const RunResult r = run(quoted(kSampleScene) + " --ticks 200 --inputs " + quoted(inputs) +
                          " --trace " + quoted(trace));
  ASSERT_EQ(r.exitCode, 0) << r.err;

  std::vector<nlohmann::json> events;
  std::istringstream lines(slurp(trace));
  for (std::string line; std::getline(lines, line);) events.push_back(nlohmann::json::parse(line));
  ASSERT_GE(events.size(), 2u);
  EXPECT_EQ(events[0]["event"], "placement");
  EXPECT_EQ(events[0]["tick"], 3);
  const auto ripple = events[0]["ripple"];
  bool sawContact = false;
  for (const auto& e : events) {
    if (e["event"] != "contact") continue;
    sawContact = true;
    EXPECT_EQ(e["ripple"], ripple);
    EXPECT_GE(e["tick"].get<int>(), 3);
    EXPECT_GE(e["fraction"].get<double>(), 0.0);
    EXPECT_LE(e["fraction"].get<double>(), 1.0);
    ASSERT_EQ(e["normal"].size(), 2u);
    EXPECT_GT(e["normal"][0].get<double>(), 0.9);  // Pointing from the ripple to the boat.
  }
  EXPECT_TRUE(sawContact);
  EXPECT_GT(nlohmann::json::parse(r.out)["nodes"]["boat"]["velocity"][0].get<double>(), 0.5);
}

TEST_F(SimulateDriftCli, ErrorsNameWhatAndWhereAndExitOne) {
  const RunResult noTicks = run(quoted(kSampleScene));
  EXPECT_EQ(noTicks.exitCode, 1);
  EXPECT_NE(noTicks.err.find("--ticks"), std::string::npos) << noTicks.err;

  const RunResult badTicks = run(quoted(kSampleScene) + " --ticks many");
  EXPECT_EQ(badTicks.exitCode, 1);
  EXPECT_NE(badTicks.err.find("--ticks"), std::string::npos) << badTicks.err;

  const RunResult missing = run(quoted((dir_ / "nope.json").string()) + " --ticks 3");
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_NE(missing.err.find("nope.json"), std::string::npos) << missing.err;

  const std::string badTuning = write("bad.json", R"({"format": "floptle.scene", "version": 1,
      "materials": [], "interactions": [],
      "nodes": [{"name": "boat", "drift": {"drag_rate": -2}}]})");
  const RunResult tuning = run(quoted(badTuning) + " --ticks 3");
  EXPECT_EQ(tuning.exitCode, 1);
  EXPECT_NE(tuning.err.find("/nodes/0/drift/drag_rate"), std::string::npos) << tuning.err;
  EXPECT_TRUE(tuning.out.empty());

  const std::string badInputs = write("inputs.json", R"([{"tick": 1, "place": [1]}])");
  const RunResult inputs = run(quoted(kSampleScene) + " --ticks 3 --inputs " + quoted(badInputs));
  EXPECT_EQ(inputs.exitCode, 1);
  EXPECT_NE(inputs.err.find("/0/place"), std::string::npos) << inputs.err;
}

}  // namespace
