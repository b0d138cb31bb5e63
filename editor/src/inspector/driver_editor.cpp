#include "inspector/driver_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QRegularExpression>

#include <glm/gtc/constants.hpp>

#include "floptle/editor/editor_document.h"

namespace floptle::editor {
namespace {

double numberAt(const EditorDocument& document, const std::string& pointer, double fallback) {
  std::optional<Json> value = document.valueAt(pointer);
  return value && value->is_number() ? value->get<double>() : fallback;
}

// "t:v, t:v" <-> [[t, v], ...]
QString keysText(const Json& keys) {
  QStringList pairs;
  for (const Json& key : keys)
    if (key.is_array() && key.size() == 2)
      pairs << QStringLiteral("%1:%2").arg(key[0].get<double>()).arg(key[1].get<double>());
  return pairs.join(", ");
}

std::optional<Json> parseKeys(const QString& text) {
  Json keys = Json::array();
  for (const QString& pair : text.split(QRegularExpression("[,;]"), Qt::SkipEmptyParts)) {
    const QStringList parts = pair.split(':');
    bool okTime = false, okValue = false;
    if (parts.size() != 2) return std::nullopt;
    const double time = parts[0].trimmed().toDouble(&okTime);
    const double value = parts[1].trimmed().toDouble(&okValue);
    if (!okTime || !okValue) return std::nullopt;
    keys.push_back({time, value});
  }
  if (keys.empty()) return std::nullopt;
  return keys;
}

}  // namespace

Json sineDriverFor(double value) {
  return Json{{"base", value}, {"sine", {{"amplitude", 0.0}, {"frequency", 0.5}, {"phase", 0.0}}}};
}

DriverEditor::DriverEditor(InspectorContext& context, const std::string& pointer,
                           const NumberFieldSpec& spec, QWidget* parent)
    : QWidget(parent) {
  EditorDocument& document = context.document;
  setObjectName(QStringLiteral("driver:%1").arg(QString::fromStdString(pointer)));
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  const Json driver = document.valueAt(pointer).value_or(Json::object());

  auto* kind = new QComboBox;
  kind->addItems({tr("Constant"), tr("Sine"), tr("Keys")});
  kind->setCurrentIndex(driver.contains("keys") ? 2 : 1);
  form->addRow(tr("Driver"), kind);
  connect(kind, &QComboBox::activated, this, [&document, pointer, driver](int index) {
    const double base = driver.contains("keys") && !driver["keys"].empty()
                            ? driver["keys"][0][1].get<double>()
                            : driver.value("base", 0.0);
    if (index == 0) document.setValue(pointer, base);
    if (index == 1) document.setValue(pointer, sineDriverFor(base));
    if (index == 2)
      document.setValue(pointer, Json{{"keys", {{0.0, base}, {1.0, base}}},
                                      {"interpolation", "smoothstep"},
                                      {"loop", true}});
  });

  auto addNumber = [&](const QString& label, const std::string& sub, NumberFieldSpec fieldSpec,
                       double fallback) {
    auto* field = new NumberField(
        document, fieldSpec,
        [&document, pointer, sub, fallback] { return numberAt(document, pointer + sub, fallback); },
        [&document, pointer, sub](double value) {
          return document.setValue(pointer + sub, value, kMergeValueDrag);
        });
    field->setObjectName(QString::fromStdString(sub));
    context.refreshers.push_back([field] { field->refresh(); });
    form->addRow(label, field);
  };

  if (!driver.contains("keys")) {
    addNumber(tr("Base"), "/base", spec, spec.min > 0 ? spec.min : 0.0);
    addNumber(tr("Amplitude"), "/sine/amplitude",
              {0.0, spec.max - spec.min, spec.unit, tr("Swing either side of the base"), false,
               spec.step},
              0.0);
    addNumber(tr("Frequency"), "/sine/frequency",
              {0.0, 100.0, "Hz", tr("Cycles per second"), false, 0.05}, 0.0);
    addNumber(tr("Phase"), "/sine/phase",
              {-2 * glm::pi<double>(), 2 * glm::pi<double>(), "rad", tr("Offset of the cycle"),
               false, 0.1},
              0.0);
    return;
  }
  auto* keys = new QLineEdit(keysText(driver["keys"]));
  keys->setObjectName("keys");
  keys->setToolTip(tr("time (s) : value pairs, e.g. 0:1, 2:1.5, 4:1"));
  connect(keys, &QLineEdit::editingFinished, this, [&document, pointer, keys, driver] {
    std::optional<Json> parsed = parseKeys(keys->text());
    if (!parsed || !document.setValue(pointer + "/keys", *parsed))
      keys->setText(keysText(driver["keys"]));
  });
  form->addRow(tr("Keys"), keys);
  auto* interpolation = new QComboBox;
  interpolation->addItems({"linear", "smoothstep"});
  interpolation->setCurrentText(QString::fromStdString(driver.value("interpolation", "linear")));
  connect(interpolation, &QComboBox::textActivated, this,
          [&document, pointer](const QString& text) {
            document.setValue(pointer + "/interpolation", text.toStdString());
          });
  form->addRow(tr("Interpolation"), interpolation);
  auto* loop = new QCheckBox(tr("Loop over the keys' span"));
  loop->setChecked(driver.value("loop", false));
  connect(loop, &QCheckBox::toggled, this,
          [&document, pointer](bool on) { document.setValue(pointer + "/loop", on); });
  form->addRow(QString(), loop);
}

QWidget* makeScalarEditor(InspectorContext& context, const std::string& pointer,
                          const NumberFieldSpec& spec, double fallback) {
  EditorDocument& document = context.document;
  std::optional<Json> value = document.valueAt(pointer);
  if (value && value->is_object()) return new DriverEditor(context, pointer, spec);
  auto* field = new NumberField(
      document, spec,
      [&document, pointer, fallback] { return numberAt(document, pointer, fallback); },
      [&document, pointer](double v) { return document.setValue(pointer, v, kMergeValueDrag); });
  field->setObjectName(QString::fromStdString(pointer));
  context.refreshers.push_back([field] { field->refresh(); });
  return field;
}

}  // namespace floptle::editor
