// floptle simulate on a scene without a "drift" component: the play simulation (physics/).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

struct CliRun {
  int code = -1;
  std::string out;
};

CliRun simulate(const std::string& arguments) {
  const std::string command = std::string(FLOPTLE_CLI) + " simulate " + arguments + " 2>&1";
  CliRun r;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) r.out += buffer;
  r.code = WEXITSTATUS(pclose(pipe));
  return r;
}

fs::path writeFile(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "floptle_simulate_play_test";
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return dir / name;
}

const char* kScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "rubber", "color": [1, 0, 0], "density": 1000, "friction": 0.9, "restitution": 0.5,
                 "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
     "material": "rubber", "collider": {"body": "static"}},
    {"name": "ball", "transform": {"position": [3, 2, 0]}, "shape": {"type": "sphere", "radius": 0.5},
     "material": "rubber", "collider": {"body": "dynamic"}},
    {"name": "player", "transform": {"position": [0, 0.9, 0]},
     "character": {"radius": 0.3, "height": 1.8, "speed": 4, "jump_speed": 5}}
  ]})";

TEST(SimulatePlay, WalksTheCharacterAndPrintsTheState) {
  const fs::path scene = writeFile("walk.json", kScene);
  const fs::path inputs =
      writeFile("inputs.json", R"([{"tick": 0, "node": "player", "move": [0, 1]},
                                                        {"tick": 30, "node": "player", "move": [0, 0]}])");
  const CliRun r = simulate(scene.string() + " --ticks 60 --inputs " + inputs.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["tick"], 60);
  EXPECT_EQ(j["hash"].get<std::string>().size(), 16u);
  const auto& p = j["nodes"]["player"];
  EXPECT_TRUE(p["grounded"].get<bool>());
  EXPECT_NEAR(p["position"][2].get<double>(), 30.0 / 60.0 * 4.0, 1e-3);  // 30 ticks at 4 m/s
  EXPECT_NEAR(p["ground_normal"][1].get<double>(), 1.0, 1e-6);
  EXPECT_EQ(j["nodes"]["ball"]["rotation"].size(), 4u);
  // Same scene, same inputs: same hash.
  EXPECT_EQ(nlohmann::json::parse(
                simulate(scene.string() + " --ticks 60 --inputs " + inputs.string()).out)["hash"],
            j["hash"]);
}

TEST(SimulatePlay, BadInputsNameTheFileAndElement) {
  const fs::path scene = writeFile("walk2.json", kScene);
  const fs::path inputs =
      writeFile("bad.json", R"([{"tick": 0, "node": "player", "move": [2, 0]}])");
  const CliRun r = simulate(scene.string() + " --ticks 5 --inputs " + inputs.string());
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("/0/move"), std::string::npos) << r.out;
}

TEST(SimulatePlay, AnInputForANodeThatIsNoCharacterNamesTheInputsFile) {
  const fs::path scene = writeFile("walk3.json", kScene);
  const fs::path inputs =
      writeFile("ghost.json", R"([{"tick": 0, "node": "ghost", "move": [0, 1]}])");
  const CliRun r = simulate(scene.string() + " --ticks 5 --inputs " + inputs.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(inputs.string() + ": /0/node"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(scene.string() + ":"), std::string::npos) << r.out;
}

}  // namespace
