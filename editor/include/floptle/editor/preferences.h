#pragma once
// Preferences: the user's editor settings that are not part of any scene (autosave interval,
// viewport and gizmo behaviour). They persist with QSettings under "preferences/"; a value
// missing or out of range there falls back to its default, so a hand-edited or stale settings
// file can never put the editor in a state the dialog could not produce.
//
// PreferencesDialog edits a copy; OK validates (each spin box already holds its range), saves
// and applies to the window. Edit > Preferences... (Ctrl+,) opens it.
#include <QDialog>

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;

namespace floptle::editor {

class MainWindow;

struct Preferences {
  /// Autosave to the recovery file every this many seconds while there are unsaved changes
  /// (s), 5..3600.
  int autosaveSeconds = 30;
  /// Rotating backups a save keeps in the scene's `backups` folder, 0..50.
  int backupCount = 10;
  /// Lower the raymarch resolution while the camera or a value moves (see RaymarchView).
  bool adaptiveResolution = true;
  bool showGrid = true;
  bool snapEnabled = true;
  /// Gizmo snapping steps: translation (m) 0.001..100, rotation (degrees) 0.1..90, scale
  /// factor (-) 0.001..10.
  double snapTranslate = 0.25;
  double snapRotateDegrees = 15.0;
  double snapScale = 0.1;

  /// Reads QSettings; values missing or out of range keep their defaults.
  static Preferences load();
  void save() const;
  bool operator==(const Preferences&) const = default;
};

/// Applies `preferences` to a window's viewport (adaptive resolution, grid, gizmo snap) and
/// recovery file (autosave interval) and document (backups kept).
void applyPreferences(const Preferences& preferences, MainWindow& window);

class PreferencesDialog : public QDialog {
  Q_OBJECT

 public:
  explicit PreferencesDialog(const Preferences& preferences, QWidget* parent = nullptr);
  /// The values shown now.
  Preferences preferences() const;

  /// Opens the dialog for `window`; on OK saves the preferences and applies them.
  static void editFor(MainWindow& window);

 private:
  QSpinBox* autosave_ = nullptr;
  QSpinBox* backups_ = nullptr;
  QCheckBox* adaptive_ = nullptr;
  QCheckBox* grid_ = nullptr;
  QCheckBox* snap_ = nullptr;
  QDoubleSpinBox* snapTranslate_ = nullptr;
  QDoubleSpinBox* snapRotate_ = nullptr;
  QDoubleSpinBox* snapScale_ = nullptr;
};

}  // namespace floptle::editor
