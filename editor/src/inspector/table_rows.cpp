// Form rows generated from value-table rows, bound to the keys of one JSON object.
#include "inspector/table_rows.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>

#include "inspector/inspector_sections.h"
#include "inspector/number_field.h"

namespace floptle::editor {
namespace {

int componentsOf(scene::ValueKind kind) {
  switch (kind) {
    case scene::ValueKind::Vec2:
      return 2;
    case scene::ValueKind::Vec3:
      return 3;
    case scene::ValueKind::Quat:
      return 4;
    default:
      return 1;
  }
}

/// The value of `row` as stored, or its default; vectors as arrays of `components` numbers.
Json currentOrDefault(const JsonBinding& binding, const scene::ValueSpec& row, int components) {
  std::optional<Json> value = binding.read(std::string(row.key));
  if (components == 1) {
    if (value && value->is_number()) return *value;
    return row.defaultValue[0];
  }
  if (value && value->is_array() && int(value->size()) == components) return *value;
  Json fallback = Json::array();
  for (int c = 0; c < components; ++c) fallback.push_back(row.defaultValue[std::size_t(c)]);
  return fallback;
}

void addNumberRow(InspectorContext& context, QFormLayout* form, const scene::ValueSpec& row,
                  const JsonBinding& binding, const QString& name) {
  const int components = componentsOf(row.kind);
  const std::string key(row.key);
  auto* line = new QWidget;
  auto* layout = new QHBoxLayout(line);
  layout->setContentsMargins(0, 0, 0, 0);
  const char* suffix[] = {".x", ".y", ".z", ".w"};
  for (int c = 0; c < components; ++c) {
    const NumberFieldSpec spec =
        numberFieldSpec(row, row.kind == scene::ValueKind::Quat ? 0.05 : 0.1);
    auto* field = new NumberField(
        context.document, spec,
        [binding, &row, components, c] {
          const Json value = currentOrDefault(binding, row, components);
          const Json& number = components == 1 ? value : value[std::size_t(c)];
          return number.is_number() ? number.get<double>() : 0.0;
        },
        [binding, &row, key, components, c](double value) -> Expected<void> {
          Json next = currentOrDefault(binding, row, components);
          if (components == 1) {
            next = row.kind == scene::ValueKind::Integer ? Json(std::llround(value)) : Json(value);
          } else {
            next[std::size_t(c)] = value;
          }
          return binding.write(key, next, kMergeValueDrag);
        });
    field->setObjectName(components == 1 ? name : name + suffix[c]);
    layout->addWidget(field);
    context.refreshers.push_back([field] { field->refresh(); });
  }
  form->addRow(QString::fromUtf8(row.key.data(), qsizetype(row.key.size())), line);
}

void addChoiceRow(InspectorContext& context, QFormLayout* form, const scene::ValueSpec& row,
                  const JsonBinding& binding, const QString& name) {
  auto* combo = new QComboBox;
  combo->setObjectName(name);
  combo->setToolTip(QString::fromUtf8(row.help.data(), qsizetype(row.help.size())));
  for (std::string_view choice : row.choices)
    combo->addItem(QString::fromUtf8(choice.data(), qsizetype(choice.size())));
  const std::optional<Json> value = binding.read(std::string(row.key));
  const std::size_t fallback = std::size_t(row.defaultValue[0]);
  combo->setCurrentText(value && value->is_string()
                            ? QString::fromStdString(value->get<std::string>())
                            : combo->itemText(int(std::min(fallback, row.choices.size() - 1))));
  const std::string key(row.key);
  const QString shown = combo->currentText();
  QObject::connect(combo, &QComboBox::textActivated, combo,
                   [binding, key, combo, shown](const QString& text) {
                     if (!binding.write(key, text.toStdString(), kNoMerge))
                       combo->setCurrentText(shown);
                   });
  (void)context;
  form->addRow(QString::fromUtf8(row.key.data(), qsizetype(row.key.size())), combo);
}

void addFlagRow(QFormLayout* form, const scene::ValueSpec& row, const JsonBinding& binding,
                const QString& name) {
  auto* box = new QCheckBox(QString::fromUtf8(row.key.data(), qsizetype(row.key.size())));
  box->setObjectName(name);
  box->setToolTip(QString::fromUtf8(row.help.data(), qsizetype(row.help.size())));
  const std::optional<Json> value = binding.read(std::string(row.key));
  box->setChecked(value && value->is_boolean() ? value->get<bool>() : row.defaultValue[0] != 0.0);
  const std::string key(row.key);
  QObject::connect(box, &QCheckBox::clicked, box, [binding, key, box](bool on) {
    if (!binding.write(key, on, kNoMerge)) box->setChecked(!on);  // refused: the log says why
  });
  form->addRow(QString(), box);
}

}  // namespace

std::span<const scene::ValueSpec> tableRows(std::string_view table) {
  const scene::ComponentSpec* spec = scene::componentSpec(table);
  return spec ? spec->values : std::span<const scene::ValueSpec>();
}

void addTableRows(InspectorContext& context, QFormLayout* form,
                  std::span<const scene::ValueSpec> rows, const JsonBinding& binding,
                  const QString& namePrefix, std::vector<std::string_view> skip) {
  for (const scene::ValueSpec& row : rows) {
    if (std::find(skip.begin(), skip.end(), row.key) != skip.end()) continue;
    const QString name = namePrefix + QString::fromUtf8(row.key.data(), qsizetype(row.key.size()));
    switch (row.kind) {
      case scene::ValueKind::Number:
      case scene::ValueKind::Integer:
      case scene::ValueKind::Vec2:
      case scene::ValueKind::Vec3:
      case scene::ValueKind::Quat:
        addNumberRow(context, form, row, binding, name);
        break;
      case scene::ValueKind::Enum:
        if (row.choices.size() > 1) addChoiceRow(context, form, row, binding, name);
        break;  // a one-choice key names the kind (a region's "shape"): not editable
      case scene::ValueKind::Bool:
        addFlagRow(form, row, binding, name);
        break;
      default:
        break;  // strings and object lists have editors of their own
    }
  }
}

}  // namespace floptle::editor
