#include "inspector/number_field.h"

#include <cmath>

#include <QLineEdit>

#include "floptle/editor/editor_document.h"

namespace floptle::editor {

NumberField::NumberField(EditorDocument& document, const NumberFieldSpec& spec, Reader read,
                         Writer write, QWidget* parent)
    : QDoubleSpinBox(parent),
      document_(document),
      read_(std::move(read)),
      write_(std::move(write)),
      integer_(spec.integer) {
  setDecimals(spec.integer ? 0 : 6);  // text comes from textFromValue; this is the precision
  setRange(spec.min, spec.max);
  setSingleStep(spec.integer ? 1.0 : spec.step);
  setKeyboardTracking(false);  // typed text is written on Enter / focus out, not per key
  setAccelerated(true);
  setToolTip(spec.help.isEmpty()
                 ? QStringLiteral("(%1), %2 .. %3").arg(spec.unit).arg(spec.min).arg(spec.max)
                 : QStringLiteral("%1 (%2), %3 .. %4")
                       .arg(spec.help, spec.unit)
                       .arg(spec.min)
                       .arg(spec.max));
  unitSuffix_ = spec.unit == "-" ? QString() : QStringLiteral(" ") + spec.unit;
  setSuffix(unitSuffix_);
  refresh();
  connect(this, &QDoubleSpinBox::valueChanged, this, &NumberField::commit);
  connect(this, &QDoubleSpinBox::editingFinished, this, [this] { document_.closeMergeWindow(); });
}

void NumberField::refresh() {
  refreshing_ = true;
  mixed_ = mixedProbe_ && mixedProbe_();
  setSuffix(mixed_ ? QString() : unitSuffix_);  // a lone unit would hide the placeholder
  setValue(read_());
  if (mixed_) lineEdit()->clear();  // the placeholder says "mixed"
  refreshing_ = false;
}

void NumberField::setMixedProbe(std::function<bool()> probe) {
  mixedProbe_ = std::move(probe);
  lineEdit()->setPlaceholderText(tr("mixed"));
  refresh();
}

void NumberField::commit(double value) {
  if (refreshing_) return;
  if (mixed_) {
    mixed_ = false;
    setSuffix(unitSuffix_);
  }
  if (!write_(value)) refresh();  // refused: show what the document holds
}

QString NumberField::textFromValue(double value) const {
  if (mixed_) return QString();
  if (integer_) return QString::number(std::llround(value));
  return locale().toString(value, 'g', 7);
}

double NumberField::valueFromText(const QString& text) const {
  QString bare = text;
  if (!suffix().isEmpty() && bare.endsWith(suffix())) bare.chop(suffix().size());
  bool ok = false;
  const double value = locale().toDouble(bare.trimmed(), &ok);
  return ok ? value : this->value();
}

QValidator::State NumberField::validate(QString& text, int& /*pos*/) const {
  QString bare = text;
  if (!suffix().isEmpty() && bare.endsWith(suffix())) bare.chop(suffix().size());
  bare = bare.trimmed();
  if (bare.isEmpty() || bare == "-" || bare == "+" || bare.endsWith('e') || bare.endsWith('E') ||
      bare.endsWith("e-") || bare.endsWith("E-") || bare.endsWith('.'))
    return QValidator::Intermediate;
  bool ok = false;
  const double value = locale().toDouble(bare, &ok);
  if (!ok || !std::isfinite(value)) return QValidator::Invalid;
  if (integer_ && value != std::floor(value)) return QValidator::Invalid;
  // Outside the range: still typing (1 on the way to 10) or simply wrong; never accepted.
  if (value < minimum() || value > maximum()) return QValidator::Intermediate;
  return QValidator::Acceptable;
}

}  // namespace floptle::editor
