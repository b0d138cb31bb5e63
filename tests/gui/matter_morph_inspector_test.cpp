// The Matter section's Morph tier: the displacement list editor. Adding a sine or a noise
// term, editing one of its numbers and removing a term are one undo step each; the rows carry
// core's ranges (a value outside them never validates, and the document refuses it naming the
// key); every change reaches the viewport.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QPushButton>
#include <QSignalSpy>

#include "floptle/core/field/node_spec.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

void choose(QComboBox* combo, const QString& text) {
  const int index = combo->findText(text);
  ASSERT_GE(index, 0) << text.toStdString();
  combo->setCurrentIndex(index);
  emit combo->activated(index);
  QTest::qWait(10);
}

/// What the viewport has been given so far (a new program or new scene data).
std::uint64_t viewportUpdates(RaymarchView* view) {
  return view->shaderCompiles() + view->sceneDataUploads();
}

/// Clicks the button `name` under `root` once it is there.
void click(QWidget* root, const QString& name) {
  auto* button = waitForChild<QPushButton>(root, name);
  ASSERT_NE(button, nullptr) << name.toStdString();
  button->click();
  QTest::qWait(10);
}

/// The number field bound to JSON pointer `pointer` (the inspector names it so).
QDoubleSpinBox* fieldAt(QWidget* root, const std::string& pointer) {
  return waitForChild<QDoubleSpinBox>(root, QString::fromStdString(pointer));
}

TEST_F(WindowTest, MorphTermsAreAddedEditedAndRemovedOneUndoStepEach) {
  const std::string node = document().nodePointer("rubber_ball");
  const std::string list = node + "/matter/displacement";
  document().setSelection({"rubber_ball"});
  auto* tier = waitForChild<QComboBox>(&window(), "matterTier");
  ASSERT_NE(tier, nullptr);
  choose(tier, "morph");
  ASSERT_EQ(document().valueAt(node + "/matter/tier"), Json("morph"));
  QUndoStack* undo = document().undoStack();
  ASSERT_EQ(undo->count(), 1);

  // Add a sine term: one step, every displace_sine parameter present, the viewport updated.
  RaymarchView* view = window().viewport();
  std::uint64_t seen = viewportUpdates(view);
  click(&window(), "morph:add_sine");
  std::optional<Json> terms = document().valueAt(list);
  ASSERT_TRUE(terms && terms->size() == 1u);
  EXPECT_EQ((*terms)[0]["type"], "sine");
  for (const field::ParamSpec& row : field::nodeSpec(field::NodeType::DisplaceSine).params)
    EXPECT_TRUE((*terms)[0].contains(std::string(row.key))) << row.key;
  EXPECT_EQ(undo->count(), 2);
  EXPECT_TRUE(waitFor([&] { return viewportUpdates(view) > seen; }, 2000));

  // A noise term after it: its "amplitude" is displace_noise's "magnitude".
  click(&window(), "morph:add_noise");
  terms = document().valueAt(list);
  ASSERT_TRUE(terms && terms->size() == 2u);
  EXPECT_EQ((*terms)[1]["type"], "noise");
  for (const char* key : {"amplitude", "frequency", "speed", "seed"})
    EXPECT_TRUE((*terms)[1].contains(key)) << key;
  EXPECT_EQ(undo->count(), 3);

  // Editing a number is one step and redraws.
  seen = viewportUpdates(view);
  QDoubleSpinBox* speed = fieldAt(&window(), list + "/0/speed");
  ASSERT_NE(speed, nullptr);
  speed->setValue(3.0);
  emit speed->editingFinished();
  EXPECT_EQ(document().valueAt(list + "/0/speed"), Json(3.0));
  EXPECT_EQ(undo->count(), 4);
  EXPECT_TRUE(waitFor([&] { return viewportUpdates(view) > seen; }, 2000));
  QDoubleSpinBox* wave = fieldAt(&window(), list + "/0/wave/2");
  ASSERT_NE(wave, nullptr);
  wave->setValue(0.5);
  emit wave->editingFinished();
  EXPECT_EQ(document().valueAt(list + "/0/wave"), Json({2.0, 0.0, 0.5}));
  EXPECT_EQ(undo->count(), 5);

  // Out of range: the field carries core's range (frequency >= 0), so "-1" never validates,
  // and a write that gets past it is refused naming the key; nothing changes.
  QDoubleSpinBox* frequency = fieldAt(&window(), list + "/1/frequency");
  ASSERT_NE(frequency, nullptr);
  const field::ParamSpec& frequencyRow = field::nodeSpec(field::NodeType::DisplaceNoise).params[1];
  ASSERT_EQ(frequencyRow.key, "frequency");
  EXPECT_EQ(frequency->minimum(), double(frequencyRow.min));
  QString typed = QStringLiteral("-1");
  int at = 2;
  EXPECT_NE(frequency->validate(typed, at), QValidator::Acceptable);
  const Json before = document().json();
  QSignalSpy messages(&document(), &EditorDocument::message);
  const Expected<void> refused = document().setValue(list + "/1/frequency", -1.0);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, list + "/1/frequency");
  ASSERT_EQ(messages.count(), 1);
  EXPECT_TRUE(messages[0][0].toString().contains(QString::fromStdString(list + "/1/frequency")))
      << messages[0][0].toString().toStdString();
  EXPECT_EQ(document().json(), before);
  EXPECT_EQ(undo->count(), 5);

  // Remove the first term: the noise term is left, one step.
  auto* first = waitForChild<QGroupBox>(&window(), "morph:term:0");
  ASSERT_NE(first, nullptr);
  click(first, "morph:remove");
  terms = document().valueAt(list);
  ASSERT_TRUE(terms && terms->size() == 1u);
  EXPECT_EQ((*terms)[0]["type"], "noise");
  EXPECT_EQ(undo->count(), 6);

  // Every step undoes back to the rigid ball.
  while (undo->canUndo()) undo->undo();
  EXPECT_FALSE(document().valueAt(node + "/matter").has_value());
}

TEST_F(WindowTest, TheMorphBakeCellIsRefusedAtZero) {
  const std::string node = document().nodePointer("rubber_ball");
  document().setSelection({"rubber_ball"});
  auto* tier = waitForChild<QComboBox>(&window(), "matterTier");
  ASSERT_NE(tier, nullptr);
  choose(tier, "morph");
  auto* cell = waitForChild<QDoubleSpinBox>(&window(), "morph:bake_cell");
  ASSERT_NE(cell, nullptr);
  QString zero = QStringLiteral("0");
  int at = 1;
  EXPECT_NE(cell->validate(zero, at), QValidator::Acceptable) << "(0, 100] m";
  cell->setValue(0.05);
  emit cell->editingFinished();
  EXPECT_EQ(document().valueAt(node + "/matter/bake/cell"), Json(0.05));
  const Expected<void> refused = document().setValue(node + "/matter/bake/cell", 0.0);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, node + "/matter/bake/cell");
}

}  // namespace
}  // namespace floptle::editor::test
