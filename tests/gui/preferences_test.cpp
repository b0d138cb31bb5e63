// Preferences: persisted with QSettings (test-mode location), out-of-range stored values fall
// back to defaults, the dialog's fields hold their ranges, and OK applies to the window.
// Run under xvfb-run.
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTimer>

#include "floptle/editor/preferences.h"
#include "floptle/editor/recovery_file.h"
#include "gui_fixture.h"

using namespace floptle;
using namespace floptle::editor;
using floptle::editor::test::WindowTest;

namespace {

void clearPreferences() {
  QSettings settings;
  settings.remove("preferences");
}

}  // namespace

TEST(PreferencesStore, SaveThenLoadGivesTheSameValues) {
  test::application();
  clearPreferences();
  EXPECT_EQ(Preferences::load(), Preferences{});  // nothing stored: the defaults
  Preferences p;
  p.autosaveSeconds = 75;
  p.adaptiveResolution = false;
  p.showGrid = false;
  p.snapEnabled = false;
  p.snapTranslate = 0.5;
  p.snapRotateDegrees = 22.5;
  p.snapScale = 0.25;
  p.save();
  EXPECT_EQ(Preferences::load(), p);
  clearPreferences();
}

TEST(PreferencesStore, OutOfRangeOrGarbageStoredValuesFallBackToDefaults) {
  test::application();
  clearPreferences();
  {
    QSettings settings;
    settings.setValue("preferences/autosaveSeconds", 0);         // below 5 s
    settings.setValue("preferences/snapTranslate", "lots");      // not a number
    settings.setValue("preferences/snapRotateDegrees", 1000.0);  // above 90
    settings.setValue("preferences/snapScale", 0.2);             // fine
  }
  const Preferences loaded = Preferences::load();
  const Preferences defaults;
  EXPECT_EQ(loaded.autosaveSeconds, defaults.autosaveSeconds);
  EXPECT_EQ(loaded.snapTranslate, defaults.snapTranslate);
  EXPECT_EQ(loaded.snapRotateDegrees, defaults.snapRotateDegrees);
  EXPECT_EQ(loaded.snapScale, 0.2);
  clearPreferences();
}

TEST(PreferencesDialogFields, HoldTheirRangesAndRestoreDefaults) {
  test::application();
  Preferences p;
  p.autosaveSeconds = 100;
  p.snapTranslate = 2.0;
  PreferencesDialog dialog(p);
  EXPECT_EQ(dialog.preferences(), p);
  auto* autosave = dialog.findChild<QSpinBox*>("autosaveSeconds");
  auto* translate = dialog.findChild<QDoubleSpinBox*>("snapTranslate");
  ASSERT_NE(autosave, nullptr);
  ASSERT_NE(translate, nullptr);
  autosave->setValue(1);  // clamped to the minimum, never stored below it
  EXPECT_EQ(dialog.preferences().autosaveSeconds, 5);
  translate->setValue(-3.0);
  EXPECT_GT(dialog.preferences().snapTranslate, 0.0);
  auto* buttons = dialog.findChild<QDialogButtonBox*>();
  ASSERT_NE(buttons, nullptr);
  buttons->button(QDialogButtonBox::RestoreDefaults)->click();
  EXPECT_EQ(dialog.preferences(), Preferences{});
}

TEST_F(WindowTest, StoredPreferencesApplyToANewWindow) {
  Preferences p;
  p.autosaveSeconds = 120;
  p.showGrid = false;
  p.adaptiveResolution = false;
  p.snapScale = 0.5;
  p.save();
  MainWindow fresh;
  EXPECT_EQ(fresh.recovery().intervalMs(), 120'000);
  EXPECT_FALSE(fresh.viewport()->gridVisible());
  EXPECT_FALSE(fresh.viewport()->adaptiveResolution());
  EXPECT_FLOAT_EQ(fresh.viewport()->gizmoSnap().scale, 0.5f);
  clearPreferences();
}

TEST_F(WindowTest, PreferencesActionIsInTheEditMenu) {
  QAction* action = window().action("actionPreferences");
  ASSERT_NE(action, nullptr);
  EXPECT_EQ(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+,")));
}

TEST_F(WindowTest, PreferencesDialogOkSavesAndAppliesToTheWindow) {
  clearPreferences();
  // Answer the modal dialog: change two values and press OK.
  QTimer::singleShot(200, [] {
    auto* dialog = QApplication::activeModalWidget();
    ASSERT_NE(dialog, nullptr);
    dialog->findChild<QSpinBox*>("autosaveSeconds")->setValue(45);
    dialog->findChild<QDoubleSpinBox*>("snapTranslate")->setValue(0.5);
    dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
  });
  PreferencesDialog::editFor(window());
  const Preferences stored = Preferences::load();
  EXPECT_EQ(stored.autosaveSeconds, 45);
  EXPECT_EQ(stored.snapTranslate, 0.5);
  EXPECT_EQ(window().recovery().intervalMs(), 45'000);
  EXPECT_FLOAT_EQ(window().viewport()->gizmoSnap().translate, 0.5f);
  EXPECT_TRUE(window().viewport()->gizmoSnap().enabled);
  EXPECT_NEAR(window().viewport()->gizmoSnap().rotate, 15.0f * 3.14159265f / 180.0f, 1e-6f);
  clearPreferences();
}
