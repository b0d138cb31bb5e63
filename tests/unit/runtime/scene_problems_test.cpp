// findSceneProblems: each kind found where it is and not where it is not, with its node and fix.
#include <gtest/gtest.h>

#include <filesystem>

#include "floptle/core/scene/scene.h"
#include "floptle/runtime/scene_problems.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;

/// A scene of `nodes` over a ground plane, with materials rock and ice and `interactions`.
std::vector<SceneProblem> problemsOf(const std::string& nodes,
                                     const std::string& interactions = "[]") {
  const Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "rock", "color": [1, 1, 1]}, {"id": "ice", "color": [1, 1, 1]}],
    "interactions": )" + interactions +
                               R"(,
    "nodes": [{"name": "ground", "material": "rock", "collider": {"body": "static"},
               "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0}})" +
                               (nodes.empty() ? "" : ", " + nodes) + "]}");
  auto sc = scene::buildScene(doc);
  EXPECT_TRUE(sc.ok()) << (sc.ok() ? "" : sc.error().message());
  if (!sc.ok()) return {};
  return findSceneProblems(*sc, std::filesystem::temp_directory_path());
}

std::vector<SceneProblem> ofKind(const std::vector<SceneProblem>& all, ProblemKind kind) {
  std::vector<SceneProblem> out;
  for (const SceneProblem& p : all) {
    if (p.kind == kind) out.push_back(p);
  }
  return out;
}

// Uses ice, so only the kind under test is reported.
const std::string kIceBall =
    R"({"name": "ice_ball", "material": "ice", "shape": {"type": "sphere", "radius": 1},
        "transform": {"position": [10, 5, 0]}})";

TEST(SceneProblems, AGoodSceneHasNone) {
  EXPECT_TRUE(problemsOf(kIceBall).empty());
}

TEST(SceneProblems, AMissingFileNamesItsMember) {
  const auto p =
      ofKind(problemsOf(kIceBall + R"(, {"name": "house", "mesh": {"file": "no-such-house.glb"}})"),
             ProblemKind::MissingFile);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pointer, "/nodes/2/mesh/file");
  EXPECT_NE(p[0].fix.find("locate"), std::string::npos);
  EXPECT_EQ(p[0].node, "house");
  EXPECT_EQ(p[0].action, FixAction::LocateFile);
}

TEST(SceneProblems, AnUnusedMaterialAndItsRule) {
  const auto all = problemsOf("", R"([{"a": "rock", "b": "ice", "rule": "merge", "k": 0.1}])");
  const auto materials = ofKind(all, ProblemKind::UnusedMaterial);
  ASSERT_EQ(materials.size(), 1u);
  EXPECT_EQ(materials[0].pointer, "/materials/1");
  EXPECT_NE(materials[0].what.find("ice"), std::string::npos);
  EXPECT_EQ(materials[0].fix, "delete it and the rules naming it");
  const auto rules = ofKind(all, ProblemKind::UnusedRule);
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].pointer, "/interactions/0");
  EXPECT_EQ(rules[0].fix, "delete the rule");
  EXPECT_EQ(materials[0].action, FixAction::DeleteMaterial);
  EXPECT_EQ(rules[0].action, FixAction::DeleteRule);
  EXPECT_TRUE(materials[0].node.empty());
  // A material used only inside a shape is used.
  EXPECT_TRUE(
      ofKind(
          problemsOf(R"({"name": "b", "shape": {"type": "sphere", "radius": 1, "material": "ice"},
                                    "transform": {"position": [10, 5, 0]}})"),
          ProblemKind::UnusedMaterial)
          .empty());
}

TEST(SceneProblems, ACharacterSpawnedInTheGroundIsToldHowFarUp) {
  // Capsule radius 0.3, height 1.8: its centre must be 0.9 above the ground; at 0.5 it is
  // 0.4 in, and the search (steps of half the radius, 0.15 m) finds 0.45 m.
  const auto sunk =
      ofKind(problemsOf(kIceBall + R"(, {"name": "player", "transform": {"position": [0, 0.5, 0]},
                                       "character": {"radius": 0.3, "height": 1.8}})"),
             ProblemKind::SpawnInsideGeometry);
  ASSERT_EQ(sunk.size(), 1u);
  EXPECT_EQ(sunk[0].pointer, "/nodes/2");
  EXPECT_EQ(sunk[0].fix, "move it up 0.45 m to the surface");
  EXPECT_EQ(sunk[0].node, "player");
  EXPECT_EQ(sunk[0].action, FixAction::MoveNode);
  // The move is the rise the text names, along -g (gravity is the default, straight down).
  EXPECT_FLOAT_EQ(sunk[0].move.x, 0.0f);
  EXPECT_NEAR(sunk[0].move.y, 0.45f, 1e-5f);
  EXPECT_FLOAT_EQ(sunk[0].move.z, 0.0f);
  // Standing on the ground, or just above it: fine.
  for (const char* y : {"0.9", "1.5"}) {
    EXPECT_TRUE(
        ofKind(problemsOf(kIceBall + R"(, {"name": "player", "transform": {"position": [0, )" + y +
                          R"(, 0]}, "character": {"radius": 0.3, "height": 1.8}})"),
               ProblemKind::SpawnInsideGeometry)
            .empty())
        << y;
  }
}

TEST(SceneProblems, AColliderWithNoInside) {
  const std::string apart =
      R"({"name": "nothing", "material": "ice", "collider": {"body": "static"},
    "transform": {"position": [0, 5, 0]},
    "shape": {"type": "intersection", "children": [
      {"type": "transform", "position": [-3, 0, 0], "children": [{"type": "sphere", "radius": 1}]},
      {"type": "transform", "position": [3, 0, 0], "children": [{"type": "sphere", "radius": 1}]}]}})";
  const auto p = ofKind(problemsOf(apart), ProblemKind::EmptyCollider);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pointer, "/nodes/1");
  EXPECT_EQ(p[0].action, FixAction::RemoveCollider);
  // Overlapping spheres have an inside.
  std::string overlapping = apart;
  overlapping.replace(overlapping.find("[-3, 0, 0]"), 10, "[-0.5, 0, 0]");
  overlapping.replace(overlapping.find("[3, 0, 0]"), 9, "[0.5, 0, 0]");
  EXPECT_TRUE(ofKind(problemsOf(overlapping), ProblemKind::EmptyCollider).empty());
  // A whole sphere carved away by a bigger one.
  const std::string carved =
      R"({"name": "carved", "material": "ice", "collider": {"body": "static"},
    "transform": {"position": [0, 5, 0]},
    "shape": {"type": "subtraction", "children": [{"type": "sphere", "radius": 1}, {"type": "sphere", "radius": 3}]}})";
  EXPECT_EQ(ofKind(problemsOf(carved), ProblemKind::EmptyCollider).size(), 1u);
}

TEST(SceneProblems, ADynamicBodyWithNothingToCollideAs) {
  const auto p =
      ofKind(problemsOf(kIceBall + R"(, {"name": "ghost", "collider": {"body": "dynamic"}})"),
             ProblemKind::DynamicWithoutShape);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pointer, "/nodes/2");
  EXPECT_NE(p[0].fix.find("add a shape"), std::string::npos);
  EXPECT_EQ(p[0].action, FixAction::MakeStatic);
  // With a shape it is a body.
  EXPECT_TRUE(
      ofKind(problemsOf(R"({"name": "ball", "material": "ice", "collider": {"body": "dynamic"},
                                    "shape": {"type": "sphere", "radius": 1}, "transform": {"position": [0, 3, 0]}})"),
             ProblemKind::DynamicWithoutShape)
          .empty());
}

TEST(SceneProblems, ATwistedColliderWithoutABake) {
  // A 2 x 4 x 2 m box twisted 1 rad/m: its bake's cell is the largest extent / 64, 4/64 m.
  const std::string twisted =
      R"({"name": "screw", "material": "ice", "collider": {"body": "static"},
    "transform": {"position": [0, 5, 0]},
    "shape": {"type": "twist", "rate": 1, "children": [{"type": "box", "half_extents": [1, 2, 1]}]})";
  const auto p = ofKind(problemsOf(twisted + "}"), ProblemKind::UnbakedWarp);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].pointer, "/nodes/1");
  EXPECT_EQ(p[0].node, "screw");
  EXPECT_EQ(p[0].action, FixAction::BakeCollider);
  EXPECT_NE(p[0].what.find("twist"), std::string::npos);
  // The twist's bounds are those of the box turned about Y: at least the box's 4 m height.
  EXPECT_GE(p[0].bakeCell, 4.0f / 64.0f);
  EXPECT_LE(p[0].bakeCell, 0.25f);
  // Baked: no problem. Not a collider, a rate of 0, or not collidable: no problem.
  EXPECT_TRUE(ofKind(problemsOf(twisted + R"(, "baked_field": {"file": "screw.vdb"}})"),
                     ProblemKind::UnbakedWarp)
                  .empty());
  std::string still = twisted + "}";
  still.replace(still.find("\"rate\": 1"), 9, "\"rate\": 0");
  EXPECT_TRUE(ofKind(problemsOf(still), ProblemKind::UnbakedWarp).empty());
  std::string drawnOnly = twisted + "}";
  drawnOnly.replace(drawnOnly.find("\"collider\": {\"body\": \"static\"},"), 31, "");
  EXPECT_TRUE(ofKind(problemsOf(drawnOnly), ProblemKind::UnbakedWarp).empty());
  std::string ghost = twisted + "}";
  ghost.replace(ghost.find("\"body\": \"static\""), 16, "\"collidable\": false");
  EXPECT_TRUE(ofKind(problemsOf(ghost), ProblemKind::UnbakedWarp).empty());
  // A twist deep inside the tree counts too.
  EXPECT_EQ(ofKind(problemsOf(R"({"name": "deep", "material": "ice", "collider": {"body": "static"},
    "transform": {"position": [0, 5, 0]},
    "shape": {"type": "union", "children": [{"type": "sphere", "radius": 1},
      {"type": "transform", "position": [3, 0, 0], "children": [
        {"type": "twist", "rate": 2, "children": [{"type": "box"}]}]}]}})"),
                   ProblemKind::UnbakedWarp)
                .size(),
            1u);
}

}  // namespace
}  // namespace floptle::runtime
