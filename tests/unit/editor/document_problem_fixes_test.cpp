// applyProblemFix: each quick fix of runtime::findSceneProblems is one undo step that
// removes its problem (and only changes what the fix says); undo brings the problem back.
#include <filesystem>

#include <gtest/gtest.h>

#include "document/problem_fixes.h"
#include "document/shape_bake.h"
#include "document_fixture.h"
#include "floptle/editor/derived_scene.h"
#include "problem_scene.h"

namespace floptle::editor::test {
namespace {

using runtime::FixAction;
using runtime::ProblemKind;

class ProblemFixes : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("floptle-problem-fixes-" +
               std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
    ASSERT_TRUE(
        document_.openJson(problemScene(), QString::fromStdString((folder_ / "s.json").string()))
            .ok());
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  std::vector<runtime::SceneProblem> problems(ProblemKind kind) const {
    return problemsOfKind(runtime::findSceneProblems(document_.derived().scene(), folder_), kind);
  }

  /// Applies the one problem of `kind`'s fix (with `file`) through expectDoUndoRedo, and checks
  /// the problem is gone after it and back after an undo. Returns the problem.
  runtime::SceneProblem fixOne(ProblemKind kind, const std::filesystem::path& file = {}) {
    const auto before = problems(kind);
    EXPECT_EQ(before.size(), 1u) << runtime::problemKindName(kind);
    if (before.size() != 1) return {};
    expectDoUndoRedo(document_,
                     [&] { EXPECT_TRUE(applyProblemFix(document_, before[0], file).ok()); });
    EXPECT_TRUE(problems(kind).empty()) << runtime::problemKindName(kind) << " still there";
    document_.undoStack()->undo();
    EXPECT_EQ(problems(kind).size(), 1u) << runtime::problemKindName(kind) << " not back";
    document_.undoStack()->redo();
    return before[0];
  }

  std::filesystem::path folder_;
  EditorDocument document_;
};

TEST_F(ProblemFixes, EveryKindIsFound) {
  const auto all = runtime::findSceneProblems(document_.derived().scene(), folder_);
  for (ProblemKind kind :
       {ProblemKind::MissingFile, ProblemKind::UnusedMaterial, ProblemKind::SpawnInsideGeometry,
        ProblemKind::EmptyCollider, ProblemKind::DynamicWithoutShape, ProblemKind::UnusedRule,
        ProblemKind::UnbakedWarp}) {
    EXPECT_FALSE(problemsOfKind(all, kind).empty()) << runtime::problemKindName(kind);
  }
}

TEST_F(ProblemFixes, MoveTheSpawnUpToTheSurface) {
  const runtime::SceneProblem p = fixOne(ProblemKind::SpawnInsideGeometry);
  // 0.5 m + the rise the problem names (0.45 m: steps of half the 0.3 m radius).
  EXPECT_EQ(p.action, FixAction::MoveNode);
  const Json position = *document_.valueAt("/nodes/1/transform/position");
  EXPECT_FLOAT_EQ(position[0].get<float>(), 0.0f);
  EXPECT_NEAR(position[1].get<double>(), 0.5 + 0.45, 1e-5);
  EXPECT_FLOAT_EQ(position[2].get<float>(), 0.0f);
}

TEST_F(ProblemFixes, MakeTheShapelessBodyStatic) {
  fixOne(ProblemKind::DynamicWithoutShape);
  EXPECT_EQ(*document_.valueAt("/nodes/2/collider/body"), "static");
}

TEST_F(ProblemFixes, RemoveTheColliderWithNoVolume) {
  // Not through expectDoUndoRedo: undoing the removal of an object key puts the key back at
  // the end of its object (JsonPatch), so the document is the same by content, not by order.
  const auto before = problems(ProblemKind::EmptyCollider);
  ASSERT_EQ(before.size(), 1u);
  const Json original = document_.json();
  const int steps = document_.undoStack()->count();
  ASSERT_TRUE(applyProblemFix(document_, before[0]).ok());
  EXPECT_EQ(document_.undoStack()->count(), steps + 1);
  EXPECT_FALSE(document_.valueAt("/nodes/3/collider"));
  EXPECT_TRUE(document_.valueAt("/nodes/3/shape"));
  EXPECT_TRUE(problems(ProblemKind::EmptyCollider).empty());
  const Json fixed = document_.json();
  document_.undoStack()->undo();
  EXPECT_EQ(nlohmann::json(document_.json()), nlohmann::json(original));
  EXPECT_EQ(problems(ProblemKind::EmptyCollider).size(), 1u);
  document_.undoStack()->redo();
  EXPECT_EQ(document_.json(), fixed);
}

TEST_F(ProblemFixes, DeleteTheUnusedRule) {
  fixOne(ProblemKind::UnusedRule);
  EXPECT_TRUE(document_.json()["interactions"].empty());
  EXPECT_EQ(document_.materialIds(), (QStringList{"rock", "ice", "spare", "moss"}));
}

TEST_F(ProblemFixes, DeleteTheUnusedMaterials) {
  // Two unused: spare, and moss with its rule. Each fix is its own step.
  auto unused = problems(ProblemKind::UnusedMaterial);
  ASSERT_EQ(unused.size(), 2u);
  const int steps = document_.undoStack()->count();
  ASSERT_TRUE(applyProblemFix(document_, unused[1]).ok());  // moss, and the rule naming it
  EXPECT_EQ(document_.materialIds(), (QStringList{"rock", "ice", "spare"}));
  EXPECT_TRUE(document_.json()["interactions"].empty());
  fixOne(ProblemKind::UnusedMaterial);  // spare
  EXPECT_EQ(document_.materialIds(), (QStringList{"rock", "ice"}));
  EXPECT_EQ(document_.undoStack()->count(), steps + 2);
}

TEST_F(ProblemFixes, LocateTheMissingFile) {
  // A real level set to point at: a bake of a sphere, in a sub-folder of the scene's.
  std::filesystem::create_directories(folder_ / "assets");
  field::FieldNode sphere;
  sphere.type = field::NodeType::Sphere;
  sphere.params = {0.5f};
  ASSERT_TRUE(bakeShapeFile(sphere, 0.1f, folder_ / "assets" / "found.vdb").ok());
  fixOne(ProblemKind::MissingFile, folder_ / "assets" / "found.vdb");
  // Stored relative to the scene's folder.
  EXPECT_EQ(*document_.valueAt("/nodes/5/baked_field/file"), "assets/found.vdb");
}

TEST_F(ProblemFixes, BakeTheTwistedCollider) {
  const auto p = problems(ProblemKind::UnbakedWarp);
  ASSERT_EQ(p.size(), 1u);
  const std::filesystem::path file = freeBakePath(folder_, p[0].node);
  EXPECT_EQ(file, folder_ / "screw.vdb");
  ASSERT_TRUE(bakeShapeFile(*document_.derived().scene().nodes[4].shape, p[0].bakeCell, file).ok());
  fixOne(ProblemKind::UnbakedWarp, file);
  EXPECT_EQ(*document_.valueAt("/nodes/4/baked_field"), (Json{{"file", "screw.vdb"}}));
  // The file is there (the one missing file is still prop's), and the next free name moves on.
  const auto missing = problemsOfKind(
      runtime::findSceneProblems(document_.derived().scene(), folder_), ProblemKind::MissingFile);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0].node, "prop");
  EXPECT_EQ(freeBakePath(folder_, "screw"), folder_ / "screw_2.vdb");
}

TEST_F(ProblemFixes, AStaleProblemIsRefused) {
  auto p = problems(ProblemKind::DynamicWithoutShape);
  ASSERT_EQ(p.size(), 1u);
  ASSERT_TRUE(document_.removeNodes({"player"}).ok());  // ghost moves to /nodes/1
  const int steps = document_.undoStack()->count();
  const Json before = document_.json();
  EXPECT_FALSE(applyProblemFix(document_, p[0]).ok());
  EXPECT_EQ(document_.json(), before);
  EXPECT_EQ(document_.undoStack()->count(), steps);
}

}  // namespace
}  // namespace floptle::editor::test
