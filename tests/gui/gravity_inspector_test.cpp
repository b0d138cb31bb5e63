// The Gravity section (nothing selected: the scene's settings.gravity) and the node gravity
// sections: sources and regions added and removed, tiers switched on and off, the vector form
// converted keeping its meaning, receiver and emitter edits; every edit one undo step that
// undo and redo replay exactly.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QPushButton>

#include "floptle/editor/gravity_tools.h"
#include "floptle/editor/inspector_panel.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

QString gravityScenePath() {
  return QStringLiteral(FLOPTLE_SOURCE_DIR "/scenes/gravity.json");
}

class GravityWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    application();
    window_ = std::make_unique<MainWindow>();
    window_->resize(1000, 650);
    ASSERT_TRUE(window_->openFile(gravityScenePath()));
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    QTest::qWait(50);
  }
  void TearDown() override {
    if (window_) window_->document().undoStack()->setClean();
    window_.reset();
  }
  MainWindow& window() { return *window_; }
  EditorDocument& document() { return window_->document(); }
  Json gravity() { return document().valueAt("/settings/gravity").value_or(Json()); }
  /// The inspector's widget `name` after the queued rebuild.
  template <class T>
  T* widget(const QString& name) {
    QTest::qWait(10);
    return waitForChild<T>(window_->inspector(), name);
  }
  /// Checks or unchecks a checkable section as a click on its title does.
  void clickCheck(QGroupBox* box, bool on) {
    ASSERT_NE(box, nullptr);
    box->setChecked(on);
    emit box->clicked(on);
    QTest::qWait(10);
  }

 private:
  std::unique_ptr<MainWindow> window_;
};

TEST_F(GravityWindowTest, AddingAndRemovingSourcesAndRegionsUndoesAndRedoesExactly) {
  const Json original = document().json();
  clickCheck(widget<QGroupBox>("gravityTier:sources"), true);
  clickCheck(widget<QGroupBox>("gravityTier:regions"), true);
  EXPECT_EQ(gravity()["sources"], Json::array());
  const Json tiersOn = document().json();
  auto* kind = widget<QComboBox>("gravityAddKind:sources");
  ASSERT_NE(kind, nullptr);
  kind->setCurrentText("point");
  auto* add = widget<QPushButton>("gravityAdd:sources");
  ASSERT_NE(add, nullptr);
  QTest::mouseClick(add, Qt::LeftButton);
  Json g = gravity();
  ASSERT_TRUE(g.contains("sources"));
  ASSERT_EQ(g["sources"].size(), 1u);
  EXPECT_EQ(g["sources"][0]["type"], "point");
  EXPECT_GT(g["sources"][0]["mass"].get<double>(), 0.0);
  // Placed at the viewport's focus, and selected for the gizmo.
  const Vec3 focus = window().viewport()->camera().lookAt;
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(g["sources"][0]["center"][i].get<double>(), focus[i], 1e-4);
  EXPECT_EQ(window().gravityTools()->selected(), "/settings/gravity/sources/0");
  const Json withSource = document().json();

  widget<QComboBox>("gravityAddKind:regions")->setCurrentText("box");
  QTest::mouseClick(widget<QPushButton>("gravityAdd:regions"), Qt::LeftButton);
  g = gravity();
  ASSERT_EQ(g["regions"].size(), 1u);
  EXPECT_EQ(g["regions"][0]["shape"], "box");
  const Json withBoth = document().json();

  auto* remove = widget<QPushButton>("gravityRemove:/settings/gravity/sources/0");
  ASSERT_NE(remove, nullptr);
  QTest::mouseClick(remove, Qt::LeftButton);
  EXPECT_TRUE(gravity()["sources"].empty());

  QUndoStack& undo = *document().undoStack();
  undo.undo();
  EXPECT_EQ(document().json(), withBoth);
  undo.undo();
  EXPECT_EQ(document().json(), withSource);
  undo.undo();
  EXPECT_EQ(document().json(), tiersOn);
  undo.undo();
  undo.undo();
  EXPECT_EQ(document().json(), original);
  undo.redo();
  undo.redo();
  undo.redo();
  EXPECT_EQ(document().json(), withSource);
  undo.redo();
  EXPECT_EQ(document().json(), withBoth);
}

TEST_F(GravityWindowTest, TierTogglesWriteAndRemoveTheirKeys) {
  const Json original = document().json();
  clickCheck(widget<QGroupBox>("gravityTier:sdf"), true);
  ASSERT_TRUE(gravity().contains("sdf"));
  EXPECT_DOUBLE_EQ(gravity()["sdf"]["strength"].get<double>(), 9.81);
  EXPECT_TRUE(gravity()["sdf"]["smoothing"].contains("epsilon"));
  // The tier's values are editable once it is on.
  auto* range = widget<QDoubleSpinBox>("gravity:sdf.range");
  ASSERT_NE(range, nullptr);
  range->setValue(7.5);
  EXPECT_DOUBLE_EQ(gravity()["sdf"]["range"].get<double>(), 7.5);
  document().closeMergeWindow();
  clickCheck(widget<QGroupBox>("gravityTier:sdf"), false);
  EXPECT_FALSE(gravity().contains("sdf"));
  clickCheck(widget<QGroupBox>("gravityTier:global"), true);
  EXPECT_EQ(gravity()["global"], Json::array({0.0, -9.81, 0.0}));
  document().undoStack()->undo();  // global off
  document().undoStack()->undo();  // sdf on again
  EXPECT_DOUBLE_EQ(gravity()["sdf"]["range"].get<double>(), 7.5);
  document().undoStack()->undo();
  document().undoStack()->undo();
  EXPECT_EQ(document().json(), original);

  // Density (tier 3): written in its documented form, and removed again.
  clickCheck(widget<QGroupBox>("gravityTier:density"), true);
  ASSERT_TRUE(gravity().contains("density"));
  EXPECT_GT(gravity()["density"]["cell"].get<double>(), 0.0);
  EXPECT_GE(gravity()["density"]["cadence"].get<int>(), 1);
  clickCheck(widget<QGroupBox>("gravityTier:density"), false);
  EXPECT_FALSE(gravity().contains("density"));
  document().undoStack()->undo();
  document().undoStack()->undo();
  EXPECT_EQ(document().json(), original);
}

TEST_F(GravityWindowTest, EditingTheVectorFormConvertsItKeepingItsMeaning) {
  ASSERT_TRUE(document().setValue("/settings/gravity", Json::array({1.0, -2.0, 3.0})));
  QTest::qWait(20);
  EXPECT_NE(widget<QWidget>("gravityVectorFormNote"), nullptr);
  clickCheck(widget<QGroupBox>("gravityTier:regions"), true);
  EXPECT_EQ(gravity(), (Json{{"global", {1.0, -2.0, 3.0}}, {"regions", Json::array()}}));
  document().undoStack()->undo();
  EXPECT_EQ(gravity(), Json::array({1.0, -2.0, 3.0}));
  // A refused value (G must be > 0) loses nothing: the field refuses it, the document keeps 1.
  auto* G = widget<QDoubleSpinBox>("gravity:G");
  ASSERT_NE(G, nullptr);
  int pos = 0;
  QString text = "0";
  EXPECT_NE(G->validate(text, pos), QValidator::Acceptable);
}

TEST_F(GravityWindowTest, ReceiverAndEmitterSectionsEditAddAndRemoveTheirComponents) {
  const Json original = document().json();
  document().setSelection({"moon"});  // a dynamic body with "gravity": {"response": 1}
  auto* response = widget<QDoubleSpinBox>("gravityReceiver:response");
  ASSERT_NE(response, nullptr);
  response->setValue(0.5);
  EXPECT_DOUBLE_EQ(document().valueAt("/nodes/1/gravity/response")->get<double>(), 0.5);
  document().closeMergeWindow();
  auto* align = widget<QDoubleSpinBox>("gravityReceiver:align_rate");
  ASSERT_NE(align, nullptr);
  align->setValue(4.0);
  EXPECT_DOUBLE_EQ(document().valueAt("/nodes/1/gravity/align_rate")->get<double>(), 4.0);
  document().closeMergeWindow();
  clickCheck(widget<QGroupBox>("gravityReceiverSection"), false);
  EXPECT_FALSE(document().valueAt("/nodes/1/gravity"));

  document().setSelection({"ship"});
  clickCheck(widget<QGroupBox>("gravityEmitterSection"), true);
  ASSERT_TRUE(document().valueAt("/nodes/2/gravity_source"));
  EXPECT_EQ(*document().valueAt("/nodes/2/gravity_source/type"), "planet");
  auto* type = widget<QComboBox>("gravityEmitter:type");
  ASSERT_NE(type, nullptr);
  type->setCurrentText("newtonian");
  emit type->textActivated("newtonian");
  EXPECT_EQ(*document().valueAt("/nodes/2/gravity_source/type"), "newtonian");
  auto* rOuter = widget<QDoubleSpinBox>("gravityEmitter:r_outer");
  ASSERT_NE(rOuter, nullptr);
  rOuter->setValue(30.0);
  EXPECT_DOUBLE_EQ(document().valueAt("/nodes/2/gravity_source/r_outer")->get<double>(), 30.0);
  document().closeMergeWindow();

  QUndoStack& undo = *document().undoStack();
  while (undo.canUndo()) undo.undo();
  EXPECT_EQ(document().json(), original);
  while (undo.canRedo()) undo.redo();
  EXPECT_FALSE(document().valueAt("/nodes/1/gravity"));
  EXPECT_EQ(*document().valueAt("/nodes/2/gravity_source/type"), "newtonian");
}

}  // namespace
}  // namespace floptle::editor::test
