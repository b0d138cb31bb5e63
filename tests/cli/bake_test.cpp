// `floptle bake ... --out FILE.vdb` and the scene's "baked_field" component: a cube OBJ
// baked to .vdb answers `floptle query` raycasts and closest points within half a cell of the
// cube; a scene node's sphere baked the same way; a node transform moves and scales the
// field; bad input is refused with a message naming what and where.
#include <gtest/gtest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>
#include <sstream>

#include "floptle/core/render/image.h"

#include "../unit/mesh_test_files.h"
#include "cli_test_support.h"

namespace floptle::cli_test {
namespace {

class CliBake : public CliTest {
 protected:
  CliBake() : CliTest("bake") {}

  /// Runs `floptle query SCENE` with `lines` on stdin; one parsed answer per line.
  std::vector<nlohmann::json> query(const std::string& scene,
                                    const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    const std::string input = write("queries.txt", text);
    const std::string command = std::string("'") + FLOPTLE_CLI + "' query '" + scene + "' < '" +
                                input + "' > '" + (dir_ / "answers.txt").string() + "' 2> '" +
                                (dir_ / "query_err.txt").string() + "'";
    const int status = std::system(command.c_str());
    queryExit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    queryErr = slurp(dir_ / "query_err.txt");
    std::vector<nlohmann::json> answers;
    std::istringstream in(slurp(dir_ / "answers.txt"));
    for (std::string line; std::getline(in, line);) answers.push_back(nlohmann::json::parse(line));
    return answers;
  }

  std::string scene(const std::string& name, const std::string& nodes) {
    return write(
        name,
        R"({"format": "floptle.scene", "version": 1, "materials": [], "interactions": [], "nodes": [)" +
            nodes + "]}");
  }

  int queryExit = -1;
  std::string queryErr;
};

constexpr double kCell = 0.05;

TEST_F(CliBake, MeshBakedToVdbAnswersQueriesThroughTheScene) {
  const auto obj = floptle::testing::writeTwoMaterialCubeObj(dir_);  // unit cube at the origin
  const auto vdb = (dir_ / "cube.vdb").string();
  const RunResult r = run("'" + obj.string() + "' --out '" + vdb + "' --cell 0.05 --band 3");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("%"), std::string::npos) << "progress on stderr";
  EXPECT_NE(r.out.find("cube.vdb"), std::string::npos) << r.out;
  ASSERT_TRUE(std::filesystem::is_regular_file(vdb));

  const std::string s =
      scene("scene.json", R"({"name": "crate", "baked_field": {"file": "cube.vdb"}})");
  const auto answers =
      query(s, {
                   R"({"op":"raycast","origin":[0.1,5,0.2],"dir":[0,-1,0],"max":10})",
                   R"({"op":"raycast","origin":[3,0.2,-0.1],"dir":[-2,0,0],"max":10})",
                   R"({"op":"raycast","origin":[3,3,3],"dir":[0,1,0],"max":10})",
                   R"({"op":"closest","p":[0.1,0.6,0]})",
                   R"({"op":"closest","p":[0.1,0.42,0]})",
                   R"({"op":"spherecast","origin":[0,0,4],"dir":[0,0,-1],"radius":0.1,"max":10})",
                   R"({"op":"closest","p":[0,1.5,0]})",
               });
  ASSERT_EQ(queryExit, 0) << queryErr;
  ASSERT_EQ(answers.size(), 7u);
  ASSERT_TRUE(answers[0]["hit"].get<bool>()) << answers[0];
  EXPECT_NEAR(answers[0]["distance"].get<double>(), 4.5, 0.5 * kCell);
  EXPECT_EQ(answers[0]["node"], "crate");
  EXPECT_NEAR(answers[0]["normal"][1].get<double>(), 1.0, 1e-3);
  EXPECT_TRUE(answers[0]["material"].is_null());
  ASSERT_TRUE(answers[1]["hit"].get<bool>()) << answers[1];
  EXPECT_NEAR(answers[1]["distance"].get<double>(), 2.5, 0.5 * kCell);
  EXPECT_NEAR(answers[1]["point"][0].get<double>(), 0.5, 0.5 * kCell);
  EXPECT_FALSE(answers[2]["hit"].get<bool>()) << answers[2];
  EXPECT_NEAR(answers[3]["distance"].get<double>(), 0.1, 0.5 * kCell);
  EXPECT_NEAR(answers[3]["normal"][1].get<double>(), 1.0, 1e-3);
  EXPECT_NEAR(answers[4]["distance"].get<double>(), -0.08, 0.5 * kCell) << "negative inside";
  ASSERT_TRUE(answers[5]["hit"].get<bool>()) << answers[5];
  EXPECT_NEAR(answers[5]["distance"].get<double>(), 4.0 - 0.5 - 0.1, 0.5 * kCell);
  // 1 m above the cube, far beyond the band (3 cells): a narrow-band file knows the side and
  // a lower bound there, not the distance.
  EXPECT_GE(answers[6]["distance"].get<double>(), 3 * kCell - 1e-6);
  EXPECT_LE(answers[6]["distance"].get<double>(), 1.0 + 1e-6);

  // The node's transform places the field: moved by (10, 0, 0) and scaled by 2.
  const std::string moved = scene(
      "moved.json",
      R"({"name": "big", "transform": {"position": [10, 0, 0], "scale": 2}, "baked_field": {"file": "cube.vdb"}})");
  const auto m = query(moved, {R"({"op":"raycast","origin":[10.2,5,0],"dir":[0,-1,0],"max":10})",
                               R"({"op":"closest","p":[11.2,0,0]})"});
  ASSERT_EQ(queryExit, 0) << queryErr;
  ASSERT_EQ(m.size(), 2u);
  ASSERT_TRUE(m[0]["hit"].get<bool>()) << m[0];
  EXPECT_NEAR(m[0]["distance"].get<double>(), 4.0, kCell);
  EXPECT_NEAR(m[1]["distance"].get<double>(), 0.2, kCell);
}

TEST_F(CliBake, SceneNodeBakedToVdb) {
  const std::string s =
      scene("source.json",
            R"({"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0]}},
         {"name": "ball", "transform": {"position": [0, 2, 0]}, "shape": {"type": "sphere", "radius": 1}})");
  const RunResult ambiguous = run("'" + s + "' --out '" + (dir_ / "x.vdb").string() + "'");
  EXPECT_EQ(ambiguous.exitCode, 1);
  EXPECT_NE(ambiguous.err.find("ground, ball"), std::string::npos) << ambiguous.err;
  const RunResult plane =
      run("'" + s + "' --node ground --out '" + (dir_ / "x.vdb").string() + "'");
  EXPECT_EQ(plane.exitCode, 1);
  EXPECT_NE(plane.err.find("unbounded"), std::string::npos) << plane.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "x.vdb"));

  const RunResult r =
      run("'" + s + "' --node ball --cell 0.05 --out '" + (dir_ / "ball.vdb").string() + "'");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string use =
      scene("use.json", R"({"name": "baked_ball", "baked_field": {"file": "ball.vdb"}})");
  const auto a = query(use, {R"({"op":"raycast","origin":[0,6,0],"dir":[0,-1,0],"max":10})",
                             R"({"op":"closest","p":[0.6,2.8,0]})"});
  ASSERT_EQ(queryExit, 0) << queryErr;
  ASSERT_EQ(a.size(), 2u);
  ASSERT_TRUE(a[0]["hit"].get<bool>()) << a[0];
  EXPECT_NEAR(a[0]["distance"].get<double>(), 3.0, 0.5 * kCell);
  EXPECT_NEAR(a[1]["distance"].get<double>(), 0.0, 0.5 * kCell);
}

TEST_F(CliBake, RenderDrawsABakedFieldWhereTheSourceShapeIs) {
  // A unit sphere at (0, 2, 0) baked to .vdb; `floptle render` of the baked node and of the
  // analytic sphere, from the same camera, see the sphere in the same pixels.
  const std::string source = scene(
      "source.json",
      R"({"name": "ball", "transform": {"position": [0, 2, 0]}, "shape": {"type": "sphere", "radius": 1}})");
  const RunResult baked =
      run("'" + source + "' --node ball --cell 0.05 --out '" + (dir_ / "ball.vdb").string() + "'");
  ASSERT_EQ(baked.exitCode, 0) << baked.err;
  const std::string use =
      scene("use.json", R"({"name": "baked_ball", "baked_field": {"file": "ball.vdb"}})");
  auto render = [&](const std::string& sceneFile, const char* png) {
    const std::string command = std::string("'") + FLOPTLE_CLI + "' render '" + sceneFile +
                                "' --out '" + (dir_ / png).string() +
                                "' --width 48 --height 48 --look-from 0,2,6 --look-at 0,2,0 "
                                "--fov 40 >/dev/null 2>'" +
                                (dir_ / "render_err.txt").string() + "'";
    const int status = std::system(command.c_str());
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0) << slurp(dir_ / "render_err.txt");
    auto image = floptle::render::readPng((dir_ / png).string());
    EXPECT_TRUE(image) << png;
    return image ? *image : floptle::render::Image{};
  };
  const floptle::render::Image analytic = render(source, "analytic.png");
  const floptle::render::Image fromBricks = render(use, "baked.png");
  ASSERT_EQ(analytic.width, 48);
  ASSERT_EQ(fromBricks.width, 48);
  // The sphere spans tan^-1(1 / 6) = 9.5 deg of the 20 deg half-view: pixels within 18 of the
  // centre see it, the corners see sky. A pixel differs from the corner's sky when the ray hit.
  auto hit = [](const floptle::render::Image& im, int x, int y) {
    const std::uint8_t* p = im.pixel(x, y);
    const std::uint8_t* sky = im.pixel(0, 0);
    return std::abs(int(p[0]) - sky[0]) + std::abs(int(p[1]) - sky[1]) +
               std::abs(int(p[2]) - sky[2]) >
           30;
  };
  int agree = 0, sphere = 0;
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 48; ++x) {
      sphere += hit(analytic, x, y);
      agree += hit(analytic, x, y) == hit(fromBricks, x, y);
    }
  EXPECT_GT(sphere, 300);  // pi 10.9^2 pixels: the analytic sphere is there
  EXPECT_GE(agree, 48 * 48 - 48) << "the baked field is not drawn where the sphere is";
  EXPECT_TRUE(hit(fromBricks, 24, 24));
}

TEST_F(CliBake, BadInputIsRefusedByName) {
  EXPECT_EQ(run("").exitCode, 2);
  const RunResult badCell = run("x.obj --out y.vdb --cell -1");
  EXPECT_EQ(badCell.exitCode, 1);
  EXPECT_NE(badCell.err.find("--cell"), std::string::npos);
  const RunResult missing =
      run("'" + (dir_ / "nothing.obj").string() + "' --out '" + (dir_ / "y.vdb").string() + "'");
  EXPECT_EQ(missing.exitCode, 1);
  EXPECT_NE(missing.err.find("nothing.obj"), std::string::npos) << missing.err;

  const std::string s =
      scene("bad.json", R"({"name": "rock", "baked_field": {"file": "absent.vdb"}})");
  const auto answers = query(s, {R"({"op":"closest","p":[0,0,0]})"});
  EXPECT_EQ(queryExit, 1);
  EXPECT_TRUE(answers.empty());
  EXPECT_NE(queryErr.find("/nodes/0/baked_field/file"), std::string::npos) << queryErr;
  EXPECT_NE(queryErr.find("absent.vdb"), std::string::npos) << queryErr;
  write("not.vdb", "not a vdb file");
  const std::string corrupt =
      scene("corrupt.json", R"({"name": "rock", "baked_field": {"file": "not.vdb"}})");
  query(corrupt, {R"({"op":"closest","p":[0,0,0]})"});
  EXPECT_EQ(queryExit, 1);
  EXPECT_NE(queryErr.find("not a readable OpenVDB file"), std::string::npos) << queryErr;
}

}  // namespace
}  // namespace floptle::cli_test
