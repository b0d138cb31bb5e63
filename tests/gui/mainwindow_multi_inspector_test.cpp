// The inspector with several nodes selected: shared fields show "mixed" where the nodes
// disagree; an edit goes to each node (keeping each one's other values) as one undo step.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>

#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

/// The inspector rebuilds from the event loop: wait until the multi-selection page is shown.
void selectAndWait(MainWindow& window, EditorDocument& document, const QStringList& names) {
  document.setSelection(names);
  ASSERT_TRUE(waitFor(
      [&] {
        auto* summary = window.findChild<QLabel*>("multiSelectionSummary");
        return summary && summary->text().contains(names.join(", "));
      },
      2000));
}

/// A field whose nodes disagree shows no number, only its "mixed" placeholder.
bool showsMixed(QDoubleSpinBox* field) {
  auto* edit = field->findChild<QLineEdit*>();
  return edit && edit->text().isEmpty() && edit->placeholderText() == "mixed";
}

Json position(EditorDocument& document, const QString& node) {
  return *document.valueAt(document.nodePointer(node) + "/transform/position");
}

TEST_F(WindowTest, MultiSelectionPositionAxisEditsEachNodeAsOneStep) {
  // ramp at (-7, 0.75, 4), stairs at (-8, 0, -3) in the showcase.
  selectAndWait(window(), document(), {"ramp", "stairs"});
  auto* x = waitForChild<QDoubleSpinBox>(&window(), "positionx");
  auto* y = waitForChild<QDoubleSpinBox>(&window(), "positiony");
  ASSERT_TRUE(x && y);
  EXPECT_TRUE(showsMixed(x));
  EXPECT_TRUE(showsMixed(y));
  const int before = document().undoStack()->count();
  y->setValue(2.0);
  EXPECT_EQ(position(document(), "ramp"), Json({-7, 2.0, 4}));
  EXPECT_EQ(position(document(), "stairs"), Json({-8, 2.0, -3}));
  EXPECT_EQ(document().undoStack()->count(), before + 1);
  EXPECT_FALSE(showsMixed(y));
  document().undoStack()->undo();
  EXPECT_EQ(position(document(), "ramp"), Json({-7, 0.75, 4}));
  EXPECT_EQ(position(document(), "stairs"), Json({-8, 0, -3}));
}

TEST_F(WindowTest, MultiSelectionScaleCreatesMissingTransforms) {
  // ground has no transform at all; ramp has one without a scale.
  selectAndWait(window(), document(), {"ground", "ramp"});
  auto* scale = waitForChild<QDoubleSpinBox>(&window(), "scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_FALSE(showsMixed(scale));  // both are 1 by default
  EXPECT_DOUBLE_EQ(scale->value(), 1.0);
  const int before = document().undoStack()->count();
  scale->setValue(1.5);
  EXPECT_EQ(*document().valueAt(document().nodePointer("ground") + "/transform"),
            Json({{"scale", 1.5}}));
  EXPECT_EQ(document().valueAt(document().nodePointer("ramp") + "/transform/scale")->get<double>(),
            1.5);
  EXPECT_EQ(position(document(), "ramp"), Json({-7, 0.75, 4}));  // untouched
  EXPECT_EQ(document().undoStack()->count(), before + 1);
}

TEST_F(WindowTest, MultiSelectionMaterialAndColliderApplyToEach) {
  // ramp: rock, static collider; rubber_ball: rubber, dynamic collider.
  selectAndWait(window(), document(), {"ramp", "rubber_ball"});
  auto* material = waitForChild<QComboBox>(&window(), "materialPicker");
  auto* body = waitForChild<QComboBox>(&window(), "colliderBody");
  ASSERT_TRUE(material && body);
  EXPECT_EQ(material->currentIndex(), -1);  // mixed
  EXPECT_EQ(body->currentIndex(), -1);      // mixed
  const int before = document().undoStack()->count();
  const int ice = material->findText("ice");
  ASSERT_GE(ice, 0);
  emit material->activated(ice);
  for (const char* node : {"ramp", "rubber_ball"})
    EXPECT_EQ(document().valueAt(document().nodePointer(node) + "/material")->get<std::string>(),
              "ice");
  EXPECT_EQ(document().undoStack()->count(), before + 1);

  selectAndWait(window(), document(), {"rubber_ball", "ramp"});  // a fresh page
  body = waitForChild<QComboBox>(&window(), "colliderBody");
  ASSERT_NE(body, nullptr);
  emit body->textActivated("kinematic");
  for (const char* node : {"ramp", "rubber_ball"})
    EXPECT_EQ(
        document().valueAt(document().nodePointer(node) + "/collider/body")->get<std::string>(),
        "kinematic");

  auto* section = waitForChild<QGroupBox>(&window(), "colliderSection");
  ASSERT_NE(section, nullptr);
  EXPECT_TRUE(section->isChecked());
  emit section->clicked(false);
  for (const char* node : {"ramp", "rubber_ball"})
    EXPECT_FALSE(document().valueAt(document().nodePointer(node) + "/collider").has_value())
        << node;
  EXPECT_EQ(document().undoStack()->count(), before + 3);
  document().undoStack()->undo();  // both colliders come back in one step
  for (const char* node : {"ramp", "rubber_ball"})
    EXPECT_TRUE(document().valueAt(document().nodePointer(node) + "/collider").has_value()) << node;
}

}  // namespace
}  // namespace floptle::editor::test
