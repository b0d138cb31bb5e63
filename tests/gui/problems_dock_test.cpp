// The Problems dock: lists live what runtime::findSceneProblems finds (what `floptle validate
// --warnings` prints), selecting a problem selects its node, and each quick fix removes its
// problem as one undo step that Undo takes back.
#include <filesystem>
#include <fstream>

#include <QAction>
#include <QSignalSpy>
#include <QTreeWidget>

#include "../unit/editor/problem_scene.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/problems_panel.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

using runtime::ProblemKind;

class ProblemsDock : public ::testing::Test {
 protected:
  void SetUp() override {
    application();
    folder_ = std::filesystem::temp_directory_path() /
              ("floptle-problems-dock-" +
               std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
    const std::filesystem::path scene = folder_ / "problems.json";
    std::ofstream(scene) << problemScene().dump(2);
    window_ = std::make_unique<MainWindow>();
    window_->resize(1000, 650);
    ASSERT_TRUE(window_->openFile(QString::fromStdString(scene.string())));
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    ASSERT_TRUE(window_->findChild<ProblemsPanel*>("problemsPanel"));
    ASSERT_TRUE(settle());
  }
  void TearDown() override {
    if (window_) window_->document().undoStack()->setClean();  // close without asking
    window_.reset();
    std::filesystem::remove_all(folder_);
  }

  ProblemsPanel& panel() { return *window_->findChild<ProblemsPanel*>("problemsPanel"); }
  /// Waits (up to 30 s: a bake, software GL) for the list to show the document as it is.
  bool settle() {
    return waitFor([&] { return panel().upToDate(); }, 30000);
  }
  int count(ProblemKind kind) { return int(problemsOfKind(panel().problems(), kind).size()); }
  int rowOf(ProblemKind kind) {
    for (std::size_t i = 0; i < panel().problems().size(); ++i) {
      if (panel().problems()[i].kind == kind) return int(i);
    }
    return -1;
  }

  std::filesystem::path folder_;
  std::unique_ptr<MainWindow> window_;
};

TEST_F(ProblemsDock, ListsWhatValidateFindsWithEachNode) {
  const auto expected = runtime::findSceneProblems(window_->document().derived().scene(), folder_);
  ASSERT_EQ(panel().problems().size(), expected.size());
  QTreeWidget* list = panel().list();
  ASSERT_EQ(list->topLevelItemCount(), int(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(list->topLevelItem(int(i))->text(0).toStdString(), expected[i].what);
    EXPECT_EQ(list->topLevelItem(int(i))->text(1).toStdString(), expected[i].node);
  }
  // Every kind of the list, on its node.
  const struct {
    ProblemKind kind;
    const char* node;
  } kinds[] = {{ProblemKind::MissingFile, "prop"},
               {ProblemKind::SpawnInsideGeometry, "player"},
               {ProblemKind::EmptyCollider, "nothing"},
               {ProblemKind::DynamicWithoutShape, "ghost"},
               {ProblemKind::UnbakedWarp, "screw"},
               {ProblemKind::UnusedMaterial, ""},
               {ProblemKind::UnusedRule, ""}};
  for (const auto& k : kinds) {
    const int row = rowOf(k.kind);
    ASSERT_GE(row, 0) << runtime::problemKindName(k.kind);
    EXPECT_EQ(panel().problems()[std::size_t(row)].node, k.node);
  }
}

TEST_F(ProblemsDock, SelectingAProblemSelectsItsNode) {
  const int row = rowOf(ProblemKind::DynamicWithoutShape);
  ASSERT_GE(row, 0);
  panel().list()->setCurrentItem(panel().list()->topLevelItem(row));
  EXPECT_EQ(window_->document().selection(), QStringList{"ghost"});
  panel().list()->setCurrentItem(panel().list()->topLevelItem(rowOf(ProblemKind::UnbakedWarp)));
  EXPECT_EQ(window_->document().selection(), QStringList{"screw"});
}

TEST_F(ProblemsDock, EachFixRemovesItsProblemAndUndoBringsItBack) {
  // "locate..." is answered with a real level set in a folder beside the scene.
  std::filesystem::create_directories(folder_ / "assets");
  const std::filesystem::path found = folder_ / "assets" / "found.vdb";
  panel().setFilePicker([&](const runtime::SceneProblem&) {
    std::filesystem::copy_file(folder_ / "screw.vdb", found,
                               std::filesystem::copy_options::overwrite_existing);
    return QString::fromStdString(found.string());
  });
  QAction* undo = window_->action("actionUndo");
  ASSERT_TRUE(undo);
  // The bake first: its file then stands in for the missing one.
  for (ProblemKind kind :
       {ProblemKind::UnbakedWarp, ProblemKind::MissingFile, ProblemKind::SpawnInsideGeometry,
        ProblemKind::DynamicWithoutShape, ProblemKind::EmptyCollider, ProblemKind::UnusedRule,
        ProblemKind::UnusedMaterial}) {
    SCOPED_TRACE(std::string(runtime::problemKindName(kind)));
    const int before = count(kind);
    ASSERT_GE(before, 1);
    const int steps = window_->document().undoStack()->index();
    QSignalSpy applied(&panel(), &ProblemsPanel::fixApplied);
    ASSERT_TRUE(panel().applyFix(rowOf(kind)));
    ASSERT_TRUE(waitFor([&] { return applied.count() == 1; }, 30000)) << "the fix did not end";
    ASSERT_TRUE(settle());
    EXPECT_EQ(window_->document().undoStack()->index(), steps + 1) << "not one undo step";
    EXPECT_EQ(count(kind), before - 1);
    undo->trigger();
    ASSERT_TRUE(settle());
    EXPECT_EQ(count(kind), before) << "undo did not bring it back";
  }
  EXPECT_TRUE(std::filesystem::exists(folder_ / "screw.vdb"));
}

TEST_F(ProblemsDock, AnEditIsCheckedAgainLive) {
  const int before = count(ProblemKind::DynamicWithoutShape);
  ASSERT_EQ(before, 1);
  ASSERT_TRUE(window_->document().setValue("/nodes/2/collider/body", "kinematic").ok());
  ASSERT_TRUE(settle());
  EXPECT_EQ(count(ProblemKind::DynamicWithoutShape), 0);
  // And comes back the same way.
  ASSERT_TRUE(window_->document().setValue("/nodes/2/collider/body", "dynamic").ok());
  ASSERT_TRUE(settle());
  EXPECT_EQ(count(ProblemKind::DynamicWithoutShape), 1);
}

}  // namespace
}  // namespace floptle::editor::test
