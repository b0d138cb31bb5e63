#include "floptle/editor/preferences.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

#include "document/scene_backups.h"
#include "floptle/editor/editor_document.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/editor/recovery_file.h"

namespace floptle::editor {
namespace {

constexpr double kDegreesToRadians = 3.14159265358979323846 / 180.0;

// The accepted range of each number; the dialog's spin boxes use the same bounds.
struct Range {
  double min, max;
};
constexpr Range kAutosaveSeconds{5, 3600};
constexpr Range kBackupCount{0, kMaxBackups};
constexpr Range kSnapTranslate{0.001, 100.0};
constexpr Range kSnapRotateDegrees{0.1, 90.0};
constexpr Range kSnapScale{0.001, 10.0};

template <class T>
T readNumber(const QSettings& settings, const char* key, T fallback, Range range) {
  bool ok = false;
  const double value = settings.value(key).toDouble(&ok);
  if (!ok || !std::isfinite(value) || value < range.min || value > range.max) return fallback;
  return static_cast<T>(value);
}

bool readBool(const QSettings& settings, const char* key, bool fallback) {
  const QVariant value = settings.value(key);
  return value.isValid() ? value.toBool() : fallback;
}

QDoubleSpinBox* numberBox(Range range, double value, int decimals, const QString& suffix,
                          const QString& tip) {
  auto* box = new QDoubleSpinBox;
  box->setRange(range.min, range.max);
  box->setDecimals(decimals);
  box->setValue(value);
  box->setSuffix(suffix);
  box->setToolTip(tip);
  return box;
}

}  // namespace

Preferences Preferences::load() {
  const QSettings settings;
  Preferences p;
  p.autosaveSeconds =
      readNumber(settings, "preferences/autosaveSeconds", p.autosaveSeconds, kAutosaveSeconds);
  p.backupCount = readNumber(settings, "preferences/backupCount", p.backupCount, kBackupCount);
  p.adaptiveResolution = readBool(settings, "preferences/adaptiveResolution", p.adaptiveResolution);
  p.showGrid = readBool(settings, "preferences/showGrid", p.showGrid);
  p.snapEnabled = readBool(settings, "preferences/snapEnabled", p.snapEnabled);
  p.snapTranslate =
      readNumber(settings, "preferences/snapTranslate", p.snapTranslate, kSnapTranslate);
  p.snapRotateDegrees = readNumber(settings, "preferences/snapRotateDegrees", p.snapRotateDegrees,
                                   kSnapRotateDegrees);
  p.snapScale = readNumber(settings, "preferences/snapScale", p.snapScale, kSnapScale);
  return p;
}

void Preferences::save() const {
  QSettings settings;
  settings.setValue("preferences/autosaveSeconds", autosaveSeconds);
  settings.setValue("preferences/backupCount", backupCount);
  settings.setValue("preferences/adaptiveResolution", adaptiveResolution);
  settings.setValue("preferences/showGrid", showGrid);
  settings.setValue("preferences/snapEnabled", snapEnabled);
  settings.setValue("preferences/snapTranslate", snapTranslate);
  settings.setValue("preferences/snapRotateDegrees", snapRotateDegrees);
  settings.setValue("preferences/snapScale", snapScale);
}

void applyPreferences(const Preferences& preferences, MainWindow& window) {
  window.recovery().setIntervalMs(preferences.autosaveSeconds * 1000);
  window.document().setBackupCount(preferences.backupCount);
  RaymarchView* view = window.viewport();
  view->setAdaptiveResolution(preferences.adaptiveResolution);
  view->setGridVisible(preferences.showGrid);
  GizmoSnap snap;
  snap.enabled = preferences.snapEnabled;
  snap.translate = float(preferences.snapTranslate);
  snap.rotate = float(preferences.snapRotateDegrees * kDegreesToRadians);
  snap.scale = float(preferences.snapScale);
  view->setGizmoSnap(snap);
}

PreferencesDialog::PreferencesDialog(const Preferences& p, QWidget* parent) : QDialog(parent) {
  setObjectName("preferencesDialog");
  setWindowTitle(tr("Preferences"));
  auto* layout = new QVBoxLayout(this);

  auto* general = new QGroupBox(tr("General"));
  auto* generalForm = new QFormLayout(general);
  autosave_ = new QSpinBox;
  autosave_->setObjectName("autosaveSeconds");
  autosave_->setRange(int(kAutosaveSeconds.min), int(kAutosaveSeconds.max));
  autosave_->setValue(p.autosaveSeconds);
  autosave_->setSuffix(tr(" s"));
  autosave_->setToolTip(tr("Unsaved changes are written to a recovery file this often (s)."));
  generalForm->addRow(tr("Autosave every"), autosave_);
  backups_ = new QSpinBox;
  backups_->setObjectName("backupCount");
  backups_->setRange(int(kBackupCount.min), int(kBackupCount.max));
  backups_->setValue(p.backupCount);
  backups_->setToolTip(
      tr("Each save first copies the file it replaces to the scene's backups "
         "folder; this many of the newest copies are kept (0 keeps none)."));
  generalForm->addRow(tr("Backups kept"), backups_);
  layout->addWidget(general);

  auto* viewport = new QGroupBox(tr("Viewport"));
  auto* viewportForm = new QFormLayout(viewport);
  adaptive_ = new QCheckBox(tr("Lower resolution while moving"));
  adaptive_->setObjectName("adaptiveResolution");
  adaptive_->setChecked(p.adaptiveResolution);
  adaptive_->setToolTip(tr("Keeps the viewport fluid on slow GPUs; refines when still."));
  grid_ = new QCheckBox(tr("Show ground grid"));
  grid_->setObjectName("showGrid");
  grid_->setChecked(p.showGrid);
  viewportForm->addRow(adaptive_);
  viewportForm->addRow(grid_);
  layout->addWidget(viewport);

  auto* gizmo = new QGroupBox(tr("Gizmo snapping"));
  auto* gizmoForm = new QFormLayout(gizmo);
  snap_ = new QCheckBox(tr("Snap while dragging"));
  snap_->setObjectName("snapEnabled");
  snap_->setChecked(p.snapEnabled);
  snapTranslate_ = numberBox(kSnapTranslate, p.snapTranslate, 3, tr(" m"), tr("Move step (m)."));
  snapTranslate_->setObjectName("snapTranslate");
  snapRotate_ = numberBox(kSnapRotateDegrees, p.snapRotateDegrees, 1, tr(" °"),
                          tr("Rotation step (degrees)."));
  snapRotate_->setObjectName("snapRotateDegrees");
  snapScale_ = numberBox(kSnapScale, p.snapScale, 3, QString(), tr("Scale factor step (-)."));
  snapScale_->setObjectName("snapScale");
  gizmoForm->addRow(snap_);
  gizmoForm->addRow(tr("Move"), snapTranslate_);
  gizmoForm->addRow(tr("Rotate"), snapRotate_);
  gizmoForm->addRow(tr("Scale"), snapScale_);
  layout->addWidget(gizmo);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel |
                                       QDialogButtonBox::RestoreDefaults);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, [this] {
    const Preferences defaults;
    autosave_->setValue(defaults.autosaveSeconds);
    backups_->setValue(defaults.backupCount);
    adaptive_->setChecked(defaults.adaptiveResolution);
    grid_->setChecked(defaults.showGrid);
    snap_->setChecked(defaults.snapEnabled);
    snapTranslate_->setValue(defaults.snapTranslate);
    snapRotate_->setValue(defaults.snapRotateDegrees);
    snapScale_->setValue(defaults.snapScale);
  });
  layout->addWidget(buttons);
}

Preferences PreferencesDialog::preferences() const {
  Preferences p;
  p.autosaveSeconds = autosave_->value();
  p.backupCount = backups_->value();
  p.adaptiveResolution = adaptive_->isChecked();
  p.showGrid = grid_->isChecked();
  p.snapEnabled = snap_->isChecked();
  p.snapTranslate = snapTranslate_->value();
  p.snapRotateDegrees = snapRotate_->value();
  p.snapScale = snapScale_->value();
  return p;
}

void PreferencesDialog::editFor(MainWindow& window) {
  PreferencesDialog dialog(Preferences::load(), &window);
  if (dialog.exec() != QDialog::Accepted) return;
  const Preferences chosen = dialog.preferences();
  chosen.save();
  applyPreferences(chosen, window);
}

}  // namespace floptle::editor
