// The Matter section: a tier drop-down listing every tier (those without a table in core
// disabled), below it only the chosen tier's knobs; changing tier is one undo step that
// writes the tier's defaults, rigid removes the component.
#include <QComboBox>
#include <QStandardItemModel>

#include "floptle/core/scene/component_values.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

/// Picks `text` in the combo as a user's click does.
void choose(QComboBox* combo, const QString& text) {
  const int index = combo->findText(text);
  ASSERT_GE(index, 0) << text.toStdString();
  combo->setCurrentIndex(index);
  emit combo->activated(index);
  QTest::qWait(10);
}

TEST_F(WindowTest, MatterTierIsOneUndoStepAndShowsOnlyThatTiersKnobs) {
  const std::string node = document().nodePointer("rubber_ball");
  ASSERT_FALSE(document().valueAt(node + "/matter").has_value());
  document().setSelection({"rubber_ball"});
  auto* tier = waitForChild<QComboBox>(&window(), "matterTier");
  ASSERT_NE(tier, nullptr);
  EXPECT_EQ(tier->currentText(), "rigid");
  EXPECT_EQ(window().findChild<QWidget*>("matter:stiffness"), nullptr) << "rigid has no knobs";
  // Every tier of the scene format is listed; those core cannot read yet are not selectable.
  const scene::ComponentSpec* spec = scene::componentSpec("matter");
  ASSERT_NE(spec, nullptr);
  ASSERT_EQ(tier->count(), int(spec->find("tier")->choices.size()));
  auto* model = qobject_cast<QStandardItemModel*>(tier->model());
  ASSERT_NE(model, nullptr);
  for (int i = 0; i < tier->count(); ++i) {
    const std::string name = tier->itemText(i).toStdString();
    const bool readable = name == "rigid" || scene::componentSpec("matter_" + name) != nullptr;
    EXPECT_EQ(model->item(i)->isEnabled(), readable) << name;
  }

  const Json before = document().json();
  choose(tier, "soft_body");
  const std::optional<Json> matter = document().valueAt(node + "/matter");
  ASSERT_TRUE(matter.has_value());
  EXPECT_EQ((*matter)["tier"], "soft_body");
  // The table's defaults, each knob present.
  for (const scene::ValueSpec& row : scene::componentSpec("matter_soft_body")->values) {
    if (row.key == "tier") continue;
    ASSERT_TRUE(matter->contains(std::string(row.key))) << row.key;
    EXPECT_DOUBLE_EQ((*matter)[std::string(row.key)].get<double>(), row.defaultValue[0]) << row.key;
  }
  EXPECT_EQ(document().undoStack()->count(), 1);
  const Json soft = document().json();
  // Only that tier's knobs, with their tooltips.
  QWidget* stiffness = waitForChild<QWidget>(&window(), "matter:stiffness");
  ASSERT_NE(stiffness, nullptr);
  document().undoStack()->undo();
  EXPECT_EQ(document().json(), before);
  document().undoStack()->redo();
  EXPECT_EQ(document().json(), soft);

  tier = waitForChild<QComboBox>(&window(), "matterTier");
  ASSERT_NE(tier, nullptr);
  EXPECT_EQ(tier->currentText(), "soft_body");
  choose(tier, "rigid");
  EXPECT_FALSE(document().valueAt(node + "/matter").has_value());
  EXPECT_EQ(document().undoStack()->count(), 2);
}

}  // namespace
}  // namespace floptle::editor::test
