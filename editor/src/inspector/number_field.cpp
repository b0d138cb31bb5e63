#include "inspector/number_field.h"

#include <cassert>
#include <cmath>

#include <QLineEdit>

#include "floptle/core/scene/component_values.h"
#include "floptle/editor/editor_document.h"

namespace floptle::editor {

NumberFieldSpec numberFieldSpec(std::string_view table, std::string_view key, double step) {
  const scene::ComponentSpec* component = scene::componentSpec(table);
  const scene::ValueSpec* row = component ? component->find(key) : nullptr;
  assert(row && "a field of a key the component table has no row for");
  if (!row) return NumberFieldSpec{};
  return numberFieldSpec(*row, step);
}

NumberFieldSpec numberFieldSpec(const scene::ValueSpec& row, double step) {
  NumberFieldSpec spec;
  spec.min = row.min;
  spec.max = row.max;
  spec.minExclusive = row.minExclusive;
  spec.maxExclusive = row.maxExclusive;
  spec.unit = QString::fromUtf8(row.unit.data(), qsizetype(row.unit.size()));
  spec.help = QString::fromUtf8(row.help.data(), qsizetype(row.help.size()));
  spec.integer = row.kind == scene::ValueKind::Integer;
  spec.step = step;
  return spec;
}

NumberField::NumberField(EditorDocument& document, const NumberFieldSpec& spec, Reader read,
                         Writer write, QWidget* parent)
    : QDoubleSpinBox(parent),
      document_(document),
      read_(std::move(read)),
      write_(std::move(write)),
      integer_(spec.integer),
      minExclusive_(spec.minExclusive),
      maxExclusive_(spec.maxExclusive) {
  setDecimals(spec.integer ? 0 : 6);  // text comes from textFromValue; this is the precision
  setRange(spec.min, spec.max);
  setSingleStep(spec.integer ? 1.0 : spec.step);
  setKeyboardTracking(false);  // typed text is written on Enter / focus out, not per key
  setAccelerated(true);
  const QString range = QStringLiteral("%1%2, %3%4")
                            .arg(spec.minExclusive ? "(" : "[")
                            .arg(spec.min)
                            .arg(spec.max)
                            .arg(spec.maxExclusive ? ")" : "]");
  setToolTip(spec.help.isEmpty() ? QStringLiteral("(%1), %2").arg(spec.unit, range)
                                 : QStringLiteral("%1 (%2), %3").arg(spec.help, spec.unit, range));
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
  if (!inRange(value) || !write_(value)) refresh();  // refused: show what the document holds
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
  if (!inRange(value)) return QValidator::Intermediate;
  return QValidator::Acceptable;
}

bool NumberField::inRange(double value) const {
  if (value < minimum() || value > maximum()) return false;
  return !(minExclusive_ && value == minimum()) && !(maxExclusive_ && value == maximum());
}

}  // namespace floptle::editor
