// floptle simulate SCENE --session FILE: a recorded play session replayed and checked. The
// session here is put together from the CLI's own per-tick JSON trace (the state hash after
// every tick) of the same scene and inputs, so nothing in it is copied from the code under
// test; an edited scene must fail, naming the first tick whose hash differs from the trace.
// A Drift session's hashes (every 10 ticks) are the final hashes of plain `--ticks` runs.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_test_support.h"

namespace floptle::cli_test {
namespace {

// Ground, a ball dropped onto it and a character walking, jumping and turning.
const char* kScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [1, 0, 0], "density": 1000, "friction": 0.5,
                 "restitution": 0.3, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
     "material": "rock", "collider": {"body": "static"}},
    {"name": "ball", "transform": {"position": [3, 1.5, 0]}, "shape": {"type": "sphere", "radius": 0.5},
     "material": "rock", "collider": {"body": "dynamic"}},
    {"name": "player", "transform": {"position": [0, 0.9, 0]},
     "character": {"radius": 0.3, "height": 1.8, "speed": 4, "jump_speed": 5, "step_height": 0.3}}
  ]})";

const char* kInputs = R"([{"tick": 0, "node": "player", "move": [0, -1]},
  {"tick": 15, "node": "player", "jump": true},
  {"tick": 40, "node": "player", "move": [1, 0]}])";

constexpr int kTicks = 80;

class SimulateSession : public CliTest {
 protected:
  SimulateSession() : CliTest("simulate") {}

  /// The state hash after each tick of `scene` with the inputs, from the JSON trace.
  std::vector<std::string> traceHashes(const std::string& scene, const std::string& inputs) {
    const auto trace = dir_ / "trace.jsonl";
    const RunResult r = run("'" + scene + "' --ticks " + std::to_string(kTicks) + " --inputs '" +
                            inputs + "' --trace '" + trace.string() + "'");
    EXPECT_EQ(r.exitCode, 0) << r.err;
    std::vector<std::string> hashes;
    std::istringstream lines(slurp(trace));
    for (std::string line; std::getline(lines, line);)
      hashes.push_back(nlohmann::json::parse(line)["hash"]);
    EXPECT_EQ(hashes.size(), std::size_t(kTicks));
    return hashes;
  }

  /// A session file of the inputs with `hashes` (scene_hash is only reported, not required).
  std::string session(const std::vector<std::string>& hashes) {
    nlohmann::ordered_json s;
    s["format"] = "floptle.session";
    s["version"] = 1;
    s["scene"] = "walk.json";
    s["scene_hash"] = "0000000000000000";
    s["settings"] = {{"fixed_dt", 1.0 / 60.0}, {"hash_every", 1}};
    s["ticks"] = kTicks;
    s["inputs"] = nlohmann::ordered_json::parse(kInputs);
    s["tuning"] = nlohmann::ordered_json::array();
    s["hashes"] = hashes;
    s["final_hash"] = hashes.back();
    return write("walk.session.json", s.dump(2));
  }
};

TEST_F(SimulateSession, TheRecordedSceneReplaysAndExitsZero) {
  const std::string scene = write("walk.json", kScene);
  const std::string inputs = write("inputs.json", kInputs);
  const std::vector<std::string> hashes = traceHashes(scene, inputs);
  const RunResult r = run("'" + scene + "' --session '" + session(hashes) + "'");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["hash"], hashes.back());
  EXPECT_NE(r.err.find("the replay equals the recording: 80 ticks"), std::string::npos) << r.err;
}

TEST_F(SimulateSession, AnEditedSceneExitsOneNamingTheFirstDifferingTick) {
  const std::string scene = write("walk.json", kScene);
  const std::string inputs = write("inputs.json", kInputs);
  const std::vector<std::string> hashes = traceHashes(scene, inputs);
  const std::string file = session(hashes);
  // The player walks into a wall that was not there: the states part when it reaches it.
  nlohmann::ordered_json edited = nlohmann::ordered_json::parse(kScene);
  edited["nodes"].push_back(nlohmann::ordered_json::parse(
      R"({"name": "wall", "transform": {"position": [0, 1, -1.5]},
          "shape": {"type": "box", "half_extents": [2, 1, 0.1]}, "material": "rock",
          "collider": {"body": "static"}})"));
  const std::string editedScene = write("walk.json", edited.dump());
  const std::vector<std::string> editedHashes = traceHashes(editedScene, inputs);
  int first = 0;
  for (int t = 1; t <= kTicks && !first; ++t)
    if (editedHashes[std::size_t(t - 1)] != hashes[std::size_t(t - 1)]) first = t;
  ASSERT_GT(first, 0) << "the wall changes nothing";
  const RunResult r = run("'" + editedScene + "' --session '" + file + "'");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_NE(r.err.find("walk.session.json: the replay differs from the recording at tick " +
                       std::to_string(first) + " "),
            std::string::npos)
      << r.err;
}

TEST_F(SimulateSession, BadUseIsRefusedNamingWhat) {
  const std::string scene = write("walk.json", kScene);
  const RunResult both = run("'" + scene + "' --ticks 5 --session x.session.json");
  EXPECT_EQ(both.exitCode, 1);
  EXPECT_NE(both.err.find("--session: "), std::string::npos) << both.err;
  nlohmann::ordered_json bad = nlohmann::ordered_json::parse(
      slurp(session(std::vector<std::string>(kTicks, "00000000000000zz"))));
  const std::string file = write("bad.session.json", bad.dump());
  const RunResult r = run("'" + scene + "' --session '" + file + "'");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("bad.session.json: /final_hash"), std::string::npos) << r.err;
}

// The boat of scenes/drift.json; two ripples and a drag change, in Drift's inputs format.
const char* kDriftScene = R"({
  "format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
  "nodes": [{"name": "boat", "drift": {"boat_radius": 0.5, "water_velocity": [0.3, 0]}}]})";
const char* kDriftInputs = R"([{"tick": 5, "place": [1.5, 0.2]},
  {"tick": 30, "tuning": {"drag_rate": 1.5}}, {"tick": 40, "place": [-1.0, -1.2]}])";

TEST_F(SimulateSession, ADriftSessionReplaysAndATamperedHashIsNamedByItsTick) {
  const std::string scene = write("drift.json", kDriftScene);
  const std::string inputs = write("drift.inputs.json", kDriftInputs);
  std::vector<std::string> hashes;  // after ticks 10, 20, ..., 60
  for (int ticks = 10; ticks <= 60; ticks += 10) {
    const RunResult r =
        run("'" + scene + "' --ticks " + std::to_string(ticks) + " --inputs '" + inputs + "'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    hashes.push_back(nlohmann::json::parse(r.out)["hash"]);
  }
  nlohmann::ordered_json s;
  s["format"] = "floptle.session";
  s["version"] = 1;
  s["scene"] = "drift.json";
  s["scene_hash"] = "0000000000000000";
  s["simulation"] = "drift";
  s["settings"] = {{"fixed_dt", 1.0 / 60.0}, {"hash_every", 10}};
  s["ticks"] = 60;
  s["inputs"] = nlohmann::ordered_json::parse(kDriftInputs);
  s["tuning"] = nlohmann::ordered_json::array();
  s["hashes"] = hashes;
  s["final_hash"] = hashes.back();
  const RunResult good =
      run("'" + scene + "' --session '" + write("drift.session.json", s.dump()) + "'");
  EXPECT_EQ(good.exitCode, 0) << good.err;
  EXPECT_EQ(nlohmann::json::parse(good.out)["hash"], hashes.back());
  EXPECT_NE(good.err.find("the replay equals the recording: 60 ticks"), std::string::npos)
      << good.err;

  s["hashes"][2] = hashes[1];  // the hash kept after tick 30 is tick 20's
  const RunResult bad =
      run("'" + scene + "' --session '" + write("drift.session.json", s.dump()) + "'");
  EXPECT_EQ(bad.exitCode, 1) << bad.err;
  EXPECT_NE(bad.err.find("drift.session.json: the replay differs from the recording at tick 30 "),
            std::string::npos)
      << bad.err;

  // A physics session on the Drift scene is refused, naming both.
  s["simulation"] = "physics";
  s["inputs"] = nlohmann::ordered_json::array();
  const RunResult kind =
      run("'" + scene + "' --session '" + write("drift.session.json", s.dump()) + "'");
  EXPECT_EQ(kind.exitCode, 1);
  EXPECT_NE(kind.err.find("drift.session.json: /simulation: the session was recorded on a physics "
                          "scene"),
            std::string::npos)
      << kind.err;
}

}  // namespace
}  // namespace floptle::cli_test
