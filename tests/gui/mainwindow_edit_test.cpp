// Editing through the window: an inspector parameter, undo / redo, dirty title, save and
// reload equal, a refused material deletion, the interaction grid.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QTemporaryDir>

#include "floptle/editor/interaction_matrix_panel.h"
#include "floptle/editor/materials_panel.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

QDoubleSpinBox* radiusField(MainWindow& window, const std::string& nodePointer) {
  return window.findChild<QDoubleSpinBox*>(QString::fromStdString(nodePointer + "/shape/radius"));
}

TEST_F(WindowTest, InspectorEditUndoRedoAndDirtyTitle) {
  const std::string pointer = document().nodePointer("rubber_ball");
  const Json before = document().json();
  const double radius = document().valueAt(pointer + "/shape/radius")->get<double>();
  document().setSelection({"rubber_ball"});
  ASSERT_TRUE(waitFor([&] { return radiusField(window(), pointer) != nullptr; }, 2000));
  QDoubleSpinBox* field = radiusField(window(), pointer);
  EXPECT_EQ(field->value(), radius);
  EXPECT_FALSE(window().isWindowModified());

  // Type a new value and press Enter, as a user would.
  field->setFocus();
  field->selectAll();
  QTest::keyClicks(field, "0.75");
  QTest::keyClick(field, Qt::Key_Return);
  EXPECT_EQ(document().valueAt(pointer + "/shape/radius")->get<double>(), 0.75);
  EXPECT_TRUE(window().isWindowModified());
  EXPECT_TRUE(window().windowTitle().contains("[*]"));

  window().action("actionUndo")->trigger();
  EXPECT_EQ(document().json(), before);
  EXPECT_FALSE(window().isWindowModified());
  EXPECT_EQ(radiusField(window(), pointer)->value(), radius);  // the field follows undo
  window().action("actionRedo")->trigger();
  EXPECT_EQ(document().valueAt(pointer + "/shape/radius")->get<double>(), 0.75);
}

TEST_F(WindowTest, OutOfRangeTypingIsRefusedInTheField) {
  const std::string pointer = document().nodePointer("rubber_ball");
  document().setSelection({"rubber_ball"});
  ASSERT_TRUE(waitFor([&] { return radiusField(window(), pointer) != nullptr; }, 2000));
  QDoubleSpinBox* field = radiusField(window(), pointer);
  const Json before = document().json();
  field->setFocus();
  field->selectAll();
  QTest::keyClicks(field, "-3");
  QTest::keyClick(field, Qt::Key_Return);
  field->clearFocus();
  EXPECT_EQ(document().json(), before);
  EXPECT_EQ(document().undoStack()->count(), 0);
}

TEST_F(WindowTest, SaveAndReloadAreEqual) {
  QTemporaryDir dir;
  ASSERT_TRUE(document().setValue(document().nodePointer("planet") + "/shape/radius", 9.5).ok());
  ASSERT_TRUE(document().renameNode("ramp", "big_ramp").ok());
  ASSERT_TRUE(document().saveAs(dir.filePath("edited.json")).ok());
  EXPECT_FALSE(window().isWindowModified());
  EXPECT_TRUE(window().windowTitle().startsWith("edited.json"));
  MainWindow reloaded;
  ASSERT_TRUE(reloaded.openFile(dir.filePath("edited.json")));
  EXPECT_EQ(reloaded.document().json(), document().json());
}

TEST_F(WindowTest, DeletingAMaterialInUseIsRefusedNamingItsUsers) {
  MaterialsPanel* panel = window().materials();
  const QList<QListWidgetItem*> rock = panel->list()->findItems("rock", Qt::MatchExactly);
  ASSERT_EQ(rock.size(), 1);
  panel->list()->setCurrentItem(rock.front());
  const Json before = document().json();
  EXPECT_FALSE(panel->deleteCurrent());
  EXPECT_TRUE(panel->lastRefusal().contains("ramp")) << panel->lastRefusal().toStdString();
  EXPECT_TRUE(panel->lastRefusal().contains("stairs")) << panel->lastRefusal().toStdString();
  EXPECT_EQ(document().json(), before);
}

TEST_F(WindowTest, InteractionGridCellSetsTheRule) {
  InteractionMatrixPanel* grid = window().interactionMatrix();
  auto* cell = grid->findChild<QWidget*>("cell:ice:rubber");
  ASSERT_NE(cell, nullptr);
  auto* rule = cell->findChild<QComboBox*>("rule");
  ASSERT_NE(rule, nullptr);
  rule->setCurrentText("carve");
  emit rule->activated(rule->currentIndex());
  const std::string pointer = document().interactionPointer("ice", "rubber");
  ASSERT_FALSE(pointer.empty());
  EXPECT_EQ(document().valueAt(pointer + "/rule")->get<std::string>(), "carve");
  window().action("actionUndo")->trigger();
  EXPECT_TRUE(document().interactionPointer("ice", "rubber").empty());
}

TEST_F(WindowTest, DuplicateAndDeleteActions) {
  document().setSelection({"rubber_ball"});
  window().action("actionDuplicate")->trigger();
  EXPECT_FALSE(document().nodePointer("rubber_ball_2").empty());
  EXPECT_EQ(document().selection(), QStringList{"rubber_ball_2"});
  window().action("actionDelete")->trigger();
  EXPECT_TRUE(document().nodePointer("rubber_ball_2").empty());
  EXPECT_EQ(window().action("actionDuplicate")->shortcut(), QKeySequence("Ctrl+D"));
  EXPECT_EQ(window().action("actionFrameSelected")->shortcut(), QKeySequence("F"));
}

}  // namespace
}  // namespace floptle::editor::test
