#pragma once
// NumberField: a spin box bound to one number of the document through a read and a write
// function. Typing outside [min, max] is refused by the field itself (the text never
// validates, nothing is written); dragging or stepping writes through the document with a
// merge id, so one drag is one undo step; editingFinished closes the merge window.
// Bound to several nodes at once, a field whose nodes disagree shows "mixed" (empty text, a
// placeholder) until a value is typed or stepped, which then goes to all of them.
#include <functional>
#include <string_view>

#include <QDoubleSpinBox>

#include "floptle/core/expected.h"

namespace floptle::scene {
struct ValueSpec;
}

namespace floptle::editor {

class EditorDocument;

struct NumberFieldSpec {
  double min = -1e6;
  double max = 1e6;
  /// Unit as the project spells it ("m", "rad", "deg", "-", "kg/m^3").
  QString unit = QStringLiteral("-");
  QString help;
  bool integer = false;
  double step = 0.1;
  /// The bound itself is refused: (min, max] for minExclusive.
  bool minExclusive = false;
  bool maxExclusive = false;
};

/// The field of one row of core's component table (component_values.h): its range, unit and
/// help, so the inspector refuses exactly what loading the scene refuses. `step` is the
/// spin box's step in the row's unit.
NumberFieldSpec numberFieldSpec(std::string_view table, std::string_view key, double step);
/// The field of one row (a table's, or one the editor holds until core's table has it).
NumberFieldSpec numberFieldSpec(const scene::ValueSpec& row, double step);

class NumberField : public QDoubleSpinBox {
  Q_OBJECT

 public:
  using Reader = std::function<double()>;
  using Writer = std::function<Expected<void>(double value)>;

  /// Does not own `document`; it must outlive the field.
  NumberField(EditorDocument& document, const NumberFieldSpec& spec, Reader read, Writer write,
              QWidget* parent = nullptr);

  /// Shows the document's value without writing it back.
  void refresh();
  /// `probe` says whether the bound values differ (multi-selection); checked on refresh.
  void setMixedProbe(std::function<bool()> probe);
  bool isMixed() const { return mixed_; }

 protected:
  QString textFromValue(double value) const override;
  double valueFromText(const QString& text) const override;
  QValidator::State validate(QString& text, int& pos) const override;

 private:
  void commit(double value);
  /// Within [minimum, maximum], and not on an exclusive bound.
  bool inRange(double value) const;

  EditorDocument& document_;
  Reader read_;
  Writer write_;
  bool integer_ = false;
  bool minExclusive_ = false;
  bool maxExclusive_ = false;
  bool refreshing_ = false;
  QString unitSuffix_;  ///< " m", " deg"; empty for "-"
  std::function<bool()> mixedProbe_;
  bool mixed_ = false;
};

}  // namespace floptle::editor
