// `floptle query SCENE`: one JSON answer per non-empty input line, in order, checked against
// closed forms; malformed lines answered with {"error"} without stopping; answers flushed
// line by line (an interactive session gets each answer before sending the next query).
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// ground: plane y = 0. ball: r 0.5 at (0, 2, 0). crate: half 0.5 at (4, 0.5, 0), turned 45
// degrees about Y. pillar: capsule (0,0,0)-(0,2,0) r 0.3 at (-4, 0, 0). ghost: not collidable.
constexpr const char* kScene = R"({
  "format": "floptle.scene",
  "version": 1,
  "materials": [],
  "interactions": [],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0}},
    {"name": "ball", "transform": {"position": [0, 2, 0]},
     "shape": {"type": "sphere", "radius": 0.5}},
    {"name": "crate", "transform": {"position": [4, 0.5, 0],
                                    "rotation": [0, 0.38268343236, 0, 0.92387953251]},
     "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}},
    {"name": "pillar", "transform": {"position": [-4, 0, 0]},
     "shape": {"type": "capsule", "a": [0, 0, 0], "b": [0, 2, 0], "radius": 0.3}},
    {"name": "ghost", "transform": {"position": [20, 5, 20]},
     "shape": {"type": "sphere", "radius": 1}, "collider": {"collidable": false}}
  ]
}
)";

class QueryCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("floptle_query_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / "scene.json") << kScene;
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Pipes `input` through `floptle query`, returns the output lines; exit code in `code`.
  std::vector<std::string> run(const std::string& input, int& code) {
    std::ofstream(dir_ / "in.txt") << input;
    const std::string command =
        std::string(FLOPTLE_CLI) + " query \"" + (dir_ / "scene.json").string() + "\" < \"" +
        (dir_ / "in.txt").string() + "\" > \"" + (dir_ / "out.txt").string() + "\" 2> \"" +
        (dir_ / "err.txt").string() + "\"";
    const int status = std::system(command.c_str());
    code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream out(dir_ / "out.txt");
    std::vector<std::string> lines;
    for (std::string line; std::getline(out, line);) lines.push_back(line);
    return lines;
  }
  fs::path dir_;
};

void expectVec(const json& v, double x, double y, double z, double tol = 1e-4) {
  ASSERT_TRUE(v.is_array() && v.size() == 3) << v;
  EXPECT_NEAR(v[0].get<double>(), x, tol) << v;
  EXPECT_NEAR(v[1].get<double>(), y, tol) << v;
  EXPECT_NEAR(v[2].get<double>(), z, tol) << v;
}

TEST_F(QueryCli, AnswersEveryOpAgainstClosedForms) {
  const std::string input =
      // 0: straight down onto the ball; dir not normalized, distance along the unit dir.
      R"({"op":"raycast","origin":[0,10,0],"dir":[0,-3,0],"max":20,"t":0})"
      "\n"
      // 1: onto the crate's top face (t omitted: defaults to 0).
      R"({"op":"raycast","origin":[4,5,0.1],"dir":[0,-1,0],"max":20})"
      "\n"
      // 2: horizontally at the crate's vertical edge, 0.5 sqrt(2) from its centre.
      R"({"op":"raycast","origin":[10,0.5,0],"dir":[-1,0,0],"max":20})"
      "\n"
      // 3: up past the non-collidable ghost into the sky: miss.
      R"({"op":"raycast","origin":[20,1,20],"dir":[0,1,0],"max":50})"
      "\n"
      // 4: a 0.2 m sphere at the pillar (radius 0.3): contact when the centre is at x = -4.5.
      R"({"op":"spherecast","origin":[-10,1,0],"dir":[2,0,0],"radius":0.2,"max":20})"
      "\n"
      // 5: inside the ball, 0.3 m deep.
      R"({"op":"closest","p":[0,2.2,0]})"
      "\n"
      // 6: above the ground, nearer to it than to the ball.
      R"({"op":"closest","p":[0,0.7,3],"t":0})"
      "\n"
      // 7: sphere sunk 0.3 into the ground.
      R"({"op":"sphere_overlap","center":[0,0.2,3],"radius":0.5})"
      "\n"
      // 8: sphere in the air.
      R"({"op":"sphere_overlap","center":[0,10,10],"radius":1})"
      "\n"
      // 9: capsule through the pillar at its middle (ends clear), axis 0.2 from the pillar's.
      R"({"op":"capsule_overlap","a":[-5,1,0.2],"b":[-3,1,0.2],"radius":0.1})"
      "\n"
      // 10: a sphere swept down onto the ground.
      R"({"op":"sweep","shape":"sphere","center":[0,5,3],"radius":0.5,"motion":[0,-10,0]})"
      "\n"
      // 11: a ray starting inside the crate.
      R"({"op":"raycast","origin":[4,0.5,0],"dir":[0,0,1],"max":5})"
      "\n";
  int code = -1;
  auto lines = run(input, code);
  EXPECT_EQ(code, 0);
  ASSERT_EQ(lines.size(), 12u);
  std::vector<json> a;
  for (const auto& l : lines) a.push_back(json::parse(l));

  EXPECT_EQ(a[0]["hit"], true);
  EXPECT_NEAR(a[0]["distance"].get<double>(), 7.5, 1e-4);
  expectVec(a[0]["point"], 0, 2.5, 0);
  expectVec(a[0]["normal"], 0, 1, 0);
  EXPECT_EQ(a[0]["node"], "ball");
  EXPECT_TRUE(a[0].contains("material") && a[0]["material"].is_null());

  EXPECT_NEAR(a[1]["distance"].get<double>(), 4.0, 1e-4);
  EXPECT_EQ(a[1]["node"], "crate");
  expectVec(a[1]["normal"], 0, 1, 0);

  EXPECT_NEAR(a[2]["distance"].get<double>(), 6.0 - 0.5 * std::sqrt(2.0), 1e-4);
  EXPECT_EQ(a[2]["node"], "crate");

  EXPECT_EQ(a[3], json({{"hit", false}}));

  EXPECT_EQ(a[4]["hit"], true);
  EXPECT_NEAR(a[4]["distance"].get<double>(), 5.5, 1e-4);
  expectVec(a[4]["point"], -4.3, 1, 0);
  expectVec(a[4]["normal"], -1, 0, 0);
  EXPECT_EQ(a[4]["node"], "pillar");

  EXPECT_NEAR(a[5]["distance"].get<double>(), -0.3, 1e-5);
  expectVec(a[5]["point"], 0, 2.5, 0);
  expectVec(a[5]["normal"], 0, 1, 0);
  EXPECT_EQ(a[5]["node"], "ball");

  EXPECT_NEAR(a[6]["distance"].get<double>(), 0.7, 1e-5);
  expectVec(a[6]["point"], 0, 0, 3);
  EXPECT_EQ(a[6]["node"], "ground");

  EXPECT_EQ(a[7]["hit"], true);
  EXPECT_NEAR(a[7]["penetration"].get<double>(), 0.3, 1e-5);
  expectVec(a[7]["normal"], 0, 1, 0);
  expectVec(a[7]["point"], 0, -0.3, 3);
  EXPECT_EQ(a[7]["node"], "ground");

  EXPECT_EQ(a[8], json({{"hit", false}}));

  EXPECT_EQ(a[9]["hit"], true);
  EXPECT_NEAR(a[9]["penetration"].get<double>(), 0.2, 1e-4);
  expectVec(a[9]["normal"], 0, 0, 1);
  EXPECT_EQ(a[9]["node"], "pillar");

  EXPECT_EQ(a[10]["hit"], true);
  EXPECT_NEAR(a[10]["toi"].get<double>(), 0.45, 1e-5);
  EXPECT_NEAR(a[10]["distance"].get<double>(), 4.5, 1e-4);
  EXPECT_EQ(a[10]["node"], "ground");

  EXPECT_EQ(a[11]["hit"], true);
  EXPECT_EQ(a[11]["distance"].get<double>(), 0.0);
  EXPECT_EQ(a[11]["inside"], true);
  EXPECT_EQ(a[11]["node"], "crate");
}

TEST_F(QueryCli, MalformedLinesGetAnErrorAndTheNextLineIsStillAnswered) {
  const std::string valid = R"({"op":"raycast","origin":[0,10,0],"dir":[0,-1,0],"max":20})";
  const std::vector<std::string> bad = {
      "this is not json",
      R"([1, 2, 3])",
      R"({"origin":[0,1,0]})",
      R"({"op":"teleport"})",
      R"({"op":"raycast","dir":[0,-1,0]})",
      R"({"op":"raycast","origin":[0,1],"dir":[0,-1,0]})",
      R"({"op":"raycast","origin":[0,1,0],"dir":[0,0,0]})",
      R"({"op":"raycast","origin":[0,1e39,0],"dir":[0,-1,0]})",
      R"({"op":"raycast","origin":[0,1,0],"dir":[0,-1,0],"t":"soon"})",
      R"({"op":"spherecast","origin":[0,10,0],"dir":[0,-1,0],"radius":-1})",
      R"({"op":"sphere_overlap","center":[0,1,0],"radius":-0.5})",
      R"({"op":"capsule_overlap","a":[0,1,0],"b":[0,"x",0],"radius":0.5})",
      R"({"op":"sweep","shape":"cube","center":[0,1,0],"radius":0.5,"motion":[1,0,0]})",
      R"({"op":"sweep","shape":"sphere","center":[0,1,0],"radius":0.5,"motion":[0,0,0]})",
      R"({"op":"closest","p":[0,1,0])",
      R"({"op":"closest","p":[0,NaN,0]})",
      R"({"op":"closest","p":[0,1e999,0]})",
  };
  std::string input;
  for (const auto& b : bad) input += b + "\n" + valid + "\n\n";  // empty lines are skipped
  int code = -1;
  auto lines = run(input, code);
  EXPECT_EQ(code, 0);
  ASSERT_EQ(lines.size(), 2 * bad.size());
  for (std::size_t i = 0; i < bad.size(); ++i) {
    const json err = json::parse(lines[2 * i]);
    ASSERT_TRUE(err.is_object() && err.size() == 1 && err.contains("error")) << bad[i];
    EXPECT_TRUE(err["error"].is_string() && !err["error"].get<std::string>().empty());
    const json ok = json::parse(lines[2 * i + 1]);
    EXPECT_EQ(ok["hit"], true) << "after " << bad[i];
    EXPECT_NEAR(ok["distance"].get<double>(), 7.5, 1e-4);
  }
  // The error says what is wrong.
  EXPECT_NE(json::parse(lines[2 * 6])["error"].get<std::string>().find("dir"), std::string::npos);
  EXPECT_NE(json::parse(lines[2 * 9])["error"].get<std::string>().find("radius"),
            std::string::npos);
  // JSON that does not parse says where or what: NaN is no JSON literal, 1e999 is past a double.
  const std::string notANumber =
      json::parse(lines[2 * (bad.size() - 2)])["error"].get<std::string>();
  EXPECT_NE(notANumber.find("not valid JSON"), std::string::npos) << notANumber;
  EXPECT_NE(notANumber.find("column 24"), std::string::npos) << notANumber;
  const std::string overflow = json::parse(lines[2 * (bad.size() - 1)])["error"].get<std::string>();
  EXPECT_NE(overflow.find("1e999"), std::string::npos) << overflow;
}

TEST_F(QueryCli, ACapsuleLongerThanAnIntCountsIsSweptAndAnswered) {
  // Found by fuzz_query_line: the sweep's axis sampling counted intervals in an int (UBSan:
  // 2.4e16 is outside the range of int). A 3e16 m capsule is odd but valid: it is answered.
  const std::string line =
      R"({"op":"sweep","shape":"capsule","a":[0,30,0],"b":[0,31444444444444444,0],)"
      R"("radius":1.3,"motion":[0,-20,0],"t":3})";
  int code = -1;
  auto lines = run(line + "\n", code);
  EXPECT_EQ(code, 0);
  ASSERT_EQ(lines.size(), 1u);
  const json answer = json::parse(lines[0]);
  EXPECT_TRUE(answer.contains("hit")) << lines[0];
}

TEST_F(QueryCli, DirectionsOfAnyMagnitudeAreUnitAndAReachPastTheFloatsMeansNoLimit) {
  // The ball's top is 7.5 m under (0, 10, 0) whatever the length of the direction written.
  const std::string input =
      R"({"op":"raycast","origin":[0,10,0],"dir":[0,-1e-30,0],"max":20})"
      "\n"
      R"({"op":"raycast","origin":[0,10,0],"dir":[0,-1e39,0],"max":20})"
      "\n"
      R"({"op":"spherecast","origin":[0,10,0],"dir":[0,-3e-42,0],"radius":0.5,"max":20})"
      "\n"
      R"({"op":"raycast","origin":[0,10,0],"dir":[0,-1,0],"max":1e300})"
      "\n"
      R"({"op":"raycast","origin":[0,10,0],"dir":[0,-1,0],"max":-1})"
      "\n"
      R"({"op":"raycast","origin":[0,10,0],"dir":[0,-0.0,0]})"
      "\n";
  int code = -1;
  auto lines = run(input, code);
  EXPECT_EQ(code, 0);
  ASSERT_EQ(lines.size(), 6u);
  for (int i : {0, 1, 3}) {
    const json a = json::parse(lines[i]);
    ASSERT_EQ(a["hit"], true) << lines[i];
    EXPECT_NEAR(a["distance"].get<double>(), 7.5, 1e-4) << lines[i];
    EXPECT_NEAR(a["normal"][1].get<double>(), 1.0, 1e-5) << lines[i];
  }
  const json sphere = json::parse(lines[2]);
  ASSERT_EQ(sphere["hit"], true) << lines[2];
  EXPECT_NEAR(sphere["distance"].get<double>(), 7.0, 1e-4);
  EXPECT_NE(json::parse(lines[4])["error"].get<std::string>().find("max"), std::string::npos)
      << lines[4];
  EXPECT_NE(json::parse(lines[5])["error"].get<std::string>().find("dir"), std::string::npos)
      << lines[5];
}

TEST_F(QueryCli, AnswersAreFlushedLineByLine) {
  int toChild[2], fromChild[2];
  ASSERT_EQ(pipe(toChild), 0);
  ASSERT_EQ(pipe(fromChild), 0);
  const std::string scene = (dir_ / "scene.json").string();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(toChild[0], 0);
    dup2(fromChild[1], 1);
    close(toChild[1]);
    close(fromChild[0]);
    execl(FLOPTLE_CLI, FLOPTLE_CLI, "query", scene.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(toChild[0]);
  close(fromChild[1]);
  // Send one query at a time and wait for its answer while stdin stays open.
  std::string buffer;
  for (int i = 0; i < 3; ++i) {
    const std::string q = R"({"op":"closest","p":[0,)" + std::to_string(3 + i) +
                          R"(,0]})"
                          "\n";
    ASSERT_EQ(write(toChild[1], q.data(), q.size()), static_cast<ssize_t>(q.size()));
    std::string line;
    while (line.empty()) {
      pollfd p{fromChild[0], POLLIN, 0};
      ASSERT_GT(poll(&p, 1, 20000), 0) << "no answer within 20 s: output not flushed";
      char chunk[512];
      const ssize_t n = read(fromChild[0], chunk, sizeof chunk);
      ASSERT_GT(n, 0);
      buffer.append(chunk, static_cast<std::size_t>(n));
      const auto eol = buffer.find('\n');
      if (eol != std::string::npos) {
        line = buffer.substr(0, eol);
        buffer.erase(0, eol + 1);
      }
    }
    const json a = json::parse(line);
    EXPECT_NEAR(a["distance"].get<double>(), 3 + i - 2.5, 1e-5);  // above the ball's top
    EXPECT_EQ(a["node"], "ball");
  }
  close(toChild[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  close(fromChild[0]);
}

TEST_F(QueryCli, BadSceneAndUsageAreRefused) {
  std::ofstream(dir_ / "broken.json") << "{ not a scene";
  const std::string base = std::string(FLOPTLE_CLI) + " query ";
  int status = std::system(
      (base + "\"" + (dir_ / "broken.json").string() + "\" < /dev/null 2>/dev/null").c_str());
  EXPECT_EQ(WEXITSTATUS(status), 1);
  status = std::system((base + "< /dev/null 2>/dev/null").c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
}

}  // namespace

namespace {

TEST_F(QueryCli, GravityIsTheScenesFieldAtThePoint) {
  // kScene has no "gravity": the default (0, -9.81, 0) everywhere.
  int code = -1;
  auto lines = run(R"({"op":"gravity","p":[3,4,5]})"
                   "\n",
                   code);
  ASSERT_EQ(code, 0);
  ASSERT_EQ(lines.size(), 1u);
  expectVec(json::parse(lines[0])["g"], 0, -9.81, 0, 1e-6);
  // A field of a point mass (G 2, M 50 at the origin) and a planet emitter node.
  json scene = json::parse(kScene);
  scene["settings"]["gravity"] = json::parse(R"({"G": 2, "global": [0, -1, 0],
      "sources": [{"type": "point", "center": [0, 0, 0], "mass": 50}]})");
  scene["nodes"].push_back(json::parse(R"({"name": "moon", "transform": {"position": [100, 0, 0]},
      "shape": {"type": "sphere", "radius": 5},
      "gravity_source": {"type": "planet", "strength": 3, "r_outer": 20}})"));
  std::ofstream(dir_ / "scene.json") << scene.dump();
  lines = run(R"({"op":"gravity","p":[0,10,0],"t":1.5})"
              "\n"
              R"({"op":"gravity","p":[110,0,0]})"
              "\n"
              R"({"op":"gravity","p":[0,0]})"
              "\n",
              code);
  ASSERT_EQ(code, 0);
  ASSERT_EQ(lines.size(), 3u);
  // -G M / r^2 along -y at r = 10, plus the global -1.
  expectVec(json::parse(lines[0])["g"], 0, -1 - 2.0 * 50 / 100, 0, 1e-5);
  // Beside the moon: its planet pull (3 towards it) + the global + the point mass.
  expectVec(json::parse(lines[1])["g"], -3 - 2.0 * 50 / (110.0 * 110.0), -1, 0, 1e-5);
  EXPECT_TRUE(json::parse(lines[2]).contains("error")) << lines[2];
}

TEST_F(QueryCli, AnswersTheComposedBlendAtTimeT) {
  // Two unit spheres centred 1.2 m apart whose materials merge with k from 0 to 0.8 over
  // 2 s: on the mid plane both distances are d, and the seed's smin(d, d, k) = d - k / 4.
  std::ofstream(dir_ / "scene.json") << R"({
    "format": "floptle.scene", "version": 1,
    "materials": [
      {"id": "goo", "color": [0.2, 0.8, 0.3], "density": 1100, "friction": 0.9,
       "restitution": 0.1, "bulk_modulus": 2e9, "yield_strength": 1e5},
      {"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2600, "friction": 0.8,
       "restitution": 0.1, "bulk_modulus": 5e10, "yield_strength": 1e8}],
    "interactions": [{"a": "goo", "b": "rock", "rule": "merge", "k": {"keys": [[0, 0], [2, 0.8]]}}],
    "nodes": [
      {"name": "a", "transform": {"position": [-0.6, 0, 0]},
       "shape": {"type": "sphere", "radius": 1}, "material": "goo"},
      {"name": "b", "transform": {"position": [0.6, 0, 0]},
       "shape": {"type": "sphere", "radius": 1}, "material": "rock"}]})";
  int code = -1;
  auto lines = run(R"({"op":"closest","p":[0,1,0],"t":0})"
                   "\n"
                   R"({"op":"closest","p":[0,1,0],"t":1})"
                   "\n"
                   R"({"op":"closest","p":[0,1,0],"t":2})"
                   "\n"
                   R"({"op":"raycast","origin":[5,0.3,0],"dir":[-1,0,0],"t":2})"
                   "\n",
                   code);
  ASSERT_EQ(code, 0);
  ASSERT_EQ(lines.size(), 4u);
  const double d = std::sqrt(0.36 + 1.0) - 1.0;
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(json::parse(lines[i])["distance"].get<double>(), d - 0.1 * i, 1e-6) << lines[i];
  const json hit = json::parse(lines[3]);
  EXPECT_EQ(hit["node"], "b") << lines[3];
  EXPECT_EQ(hit["material"], "rock") << lines[3];
}

TEST_F(QueryCli, AnswersAMorphMergedWithASphereAtTimeT) {
  // A slab whose top face y = 0 is morphed by A sin(k x + w t) (baked, cell h = 0.05 m) merges
  // (k_b = 0.4) with a ball of radius 0.5 at (0.4, 0.3, 0): the answer is the seed's smin of
  // the two closed forms within h / 2: sea = (y + A sin(k x + w t)) / (1 + A k) (the displaced
  // field over its Lipschitz bound, as the composition holds it) and ball = |p - c| - r.
  std::ofstream(dir_ / "scene.json") << R"({
    "format": "floptle.scene", "version": 1,
    "materials": [
      {"id": "water", "color": [0.2, 0.3, 0.8], "density": 1000, "friction": 0.1,
       "restitution": 0.1, "bulk_modulus": 2e9, "yield_strength": 1e5},
      {"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2600, "friction": 0.8,
       "restitution": 0.1, "bulk_modulus": 5e10, "yield_strength": 1e8}],
    "interactions": [{"a": "water", "b": "rock", "rule": "merge", "k": 0.4}],
    "nodes": [
      {"name": "sea", "material": "water", "transform": {"position": [0, -0.5, 0]},
       "shape": {"type": "box", "half_extents": [3, 0.5, 3]},
       "matter": {"tier": "morph", "bake": {"cell": 0.05}, "displacement": [
         {"type": "sine", "amplitude": [0, 0.25, 0], "wave": [1.5, 0, 0], "speed": 2,
          "phase": 0}]}},
      {"name": "ball", "material": "rock", "transform": {"position": [0.4, 0.3, 0]},
       "shape": {"type": "sphere", "radius": 0.5}}]})";
  const double A = 0.25, k = 1.5, w = 2.0, kb = 0.4, h = 0.05;
  auto smin = [](double a, double b, double r) {
    const double m = std::max(r - std::abs(a - b), 0.0) / r;
    return std::min(a, b) - m * m * r / 4.0;
  };
  struct Sample {
    double x, y, t;
  };
  const Sample samples[] = {{0.4, -0.175, 0.0}, {-1.0, 0.2, 0.5}, {0.9, 0.1, 1.3}, {0.2, 0.5, 2.0}};
  std::string input;
  for (const Sample& s : samples)
    input += "{\"op\":\"closest\",\"p\":[" + std::to_string(s.x) + "," + std::to_string(s.y) +
             ",0],\"t\":" + std::to_string(s.t) + "}\n";
  int code = -1;
  auto lines = run(input, code);
  ASSERT_EQ(code, 0);
  ASSERT_EQ(lines.size(), std::size(samples));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Sample& s = samples[i];
    const double sea = (s.y + A * std::sin(k * s.x + w * s.t)) / (1.0 + A * k);
    const double ball = std::hypot(s.x - 0.4, s.y - 0.3) - 0.5;
    EXPECT_NEAR(json::parse(lines[i])["distance"].get<double>(), smin(sea, ball, kb), 0.5 * h)
        << lines[i];
  }
}

}  // namespace
