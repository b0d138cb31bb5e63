// Inspector: a shape's parameters, generated from core's node_spec table, and its children.
#include <array>
#include <memory>

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include "floptle/core/field/field_json.h"
#include "floptle/core/math.h"
#include "floptle/editor/editor_document.h"
#include "inspector/driver_editor.h"
#include "inspector/inspector_sections.h"
#include "inspector/number_field.h"

namespace floptle::editor {
namespace {

QString text(std::string_view view) {
  return QString::fromUtf8(view.data(), qsizetype(view.size()));
}

NumberFieldSpec fieldSpec(const field::ParamSpec& spec) {
  NumberFieldSpec out;
  out.min = spec.min;
  out.max = spec.max;
  out.unit = text(spec.unit);
  out.help = text(spec.help);
  out.integer = spec.integer;
  const double span = double(spec.max) - double(spec.min);
  out.step = spec.integer ? 1.0 : (span > 0 && span < 10 ? span / 100.0 : 0.1);
  return out;
}

// The default JSON of a parameter, as core writes a default node of the shape's type (some
// defaults differ per component, e.g. a capsule's ends); else from the spec row.
Json defaultJson(const EditorDocument& document, const std::string& shapePointer,
                 const field::ParamSpec& spec) {
  const std::optional<Json> type = document.valueAt(shapePointer + "/type");
  if (type && type->is_string()) {
    if (std::optional<field::NodeType> t = field::nodeTypeFromName(type->get<std::string>())) {
      const Json written = field::shapeToJson(field::makeDefaultNode(*t),
                                              [](field::MaterialIndex) { return Json(); });
      const std::string key(spec.key);
      if (written.contains(key)) return written[key];
    }
  }
  if (spec.components == 1) return spec.defaultValue;
  if (spec.components == 4) return Json{0.0, 0.0, 0.0, 1.0};
  return Json(std::vector<double>(std::size_t(spec.components), spec.defaultValue));
}

// A quaternion parameter shown as Euler XYZ degrees; writes the whole [x, y, z, w].
QWidget* makeQuaternionEditor(InspectorContext& context, const std::string& pointer) {
  EditorDocument& document = context.document;
  auto* row = new QWidget;
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  auto read = [&document, pointer] {
    std::optional<Json> q = document.valueAt(pointer);
    if (!q || !q->is_array() || q->size() != 4 || !(*q)[0].is_number()) return Vec3(0.0f);
    return glm::degrees(eulerXYZFromQuat(glm::normalize(Quat(
        (*q)[3].get<float>(), (*q)[0].get<float>(), (*q)[1].get<float>(), (*q)[2].get<float>()))));
  };
  auto fields = std::make_shared<std::array<NumberField*, 3>>();
  for (int axis = 0; axis < 3; ++axis) {
    NumberFieldSpec spec{-360,  360, "deg", QObject::tr("Euler angle, applied X then Y then Z"),
                         false, 5.0};
    auto* field = new NumberField(
        document, spec, [read, axis] { return double(read()[axis]); },
        [&document, pointer, axis, fields](double value) {
          Vec3 degrees;
          for (int i = 0; i < 3; ++i) degrees[i] = float(i == axis ? value : (*fields)[i]->value());
          const Quat q = quatFromEulerXYZ(glm::radians(degrees));
          return document.setValue(pointer, Json{q.x, q.y, q.z, q.w}, kMergeValueDrag);
        });
    (*fields)[axis] = field;
    layout->addWidget(field);
    context.refreshers.push_back([field] { field->refresh(); });
  }
  return row;
}

}  // namespace

void addParameterRow(InspectorContext& context, QFormLayout* form, const std::string& shapePointer,
                     const field::ParamSpec& spec) {
  EditorDocument& document = context.document;
  const std::string pointer = shapePointer + "/" + std::string(spec.key);
  const std::optional<Json> value = document.valueAt(pointer);
  auto* row = new QWidget;
  row->setObjectName(QStringLiteral("param:%1").arg(QString::fromStdString(pointer)));
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  const NumberFieldSpec numberSpec = fieldSpec(spec);

  if (spec.components == 4) {
    layout->addWidget(makeQuaternionEditor(context, pointer));
  } else if (spec.components == 1) {
    layout->addWidget(makeScalarEditor(context, pointer, numberSpec, spec.defaultValue), 1);
  } else if (value && value->is_array()) {
    for (int i = 0; i < spec.components; ++i)
      layout->addWidget(makeScalarEditor(context, pointer + "/" + std::to_string(i), numberSpec,
                                         spec.defaultValue));
  } else {
    // Absent vector: show the defaults; the first edit writes the whole vector.
    for (int i = 0; i < spec.components; ++i) {
      auto* field = new NumberField(
          document, numberSpec,
          [&document, shapePointer, i, &spec] {
            const Json whole = defaultJson(document, shapePointer, spec);
            return whole.is_array() && whole[std::size_t(i)].is_number()
                       ? whole[std::size_t(i)].get<double>()
                       : double(spec.defaultValue);
          },
          [&document, shapePointer, pointer, i, &spec](double v) {
            Json whole = defaultJson(document, shapePointer, spec);
            whole[std::size_t(i)] = v;
            return document.setValue(pointer, whole);
          });
      layout->addWidget(field);
    }
  }

  if (spec.components == 1) {
    auto* animate = new QToolButton;
    animate->setText(QStringLiteral("~"));
    animate->setObjectName("animate");
    animate->setCheckable(true);
    animate->setChecked(value && value->is_object());
    animate->setToolTip(QObject::tr("Animate this parameter with a driver (sine or keys)"));
    QObject::connect(animate, &QToolButton::clicked, animate, [&document, pointer, &spec](bool on) {
      std::optional<Json> now = document.valueAt(pointer);
      if (on) {
        document.setValue(pointer, sineDriverFor(now && now->is_number() ? now->get<double>()
                                                                         : spec.defaultValue));
      } else {
        document.setValue(pointer, now && now->is_object()
                                       ? now->value("base", double(spec.defaultValue))
                                       : double(spec.defaultValue));
      }
    });
    layout->addWidget(animate);
  }
  auto* reset = new QToolButton;
  reset->setText(QStringLiteral("\u21ba"));
  reset->setObjectName("reset");
  reset->setToolTip(QObject::tr("Reset to default"));
  QObject::connect(reset, &QToolButton::clicked, reset, [&document, shapePointer, pointer, &spec] {
    document.setValue(pointer, defaultJson(document, shapePointer, spec));
  });
  layout->addWidget(reset);

  QLabel* label = new QLabel(text(spec.key));
  label->setToolTip(QStringLiteral("%1 (%2)").arg(text(spec.help), text(spec.unit)));
  form->addRow(label, row);
}

QWidget* makeShapeSection(InspectorContext& context, const std::string& shapePointer) {
  EditorDocument& document = context.document;
  const Json shape = document.valueAt(shapePointer).value_or(Json::object());
  const std::string typeName = shape.value("type", std::string());
  auto* box = new QGroupBox(QObject::tr("Shape: %1").arg(QString::fromStdString(typeName)));
  box->setObjectName(QStringLiteral("shape:%1").arg(QString::fromStdString(shapePointer)));
  auto* outer = new QVBoxLayout(box);
  auto* form = new QFormLayout;
  outer->addLayout(form);
  const std::optional<field::NodeType> type = field::nodeTypeFromName(typeName);
  if (!type) {
    form->addRow(
        new QLabel(QObject::tr("Unknown shape type '%1'").arg(QString::fromStdString(typeName))));
    return box;
  }
  // ParamSpec lives in core's static table, so the rows may keep references to it.
  for (const field::ParamSpec& spec : field::nodeSpec(*type).params)
    addParameterRow(context, form, shapePointer, spec);
  if (shape.contains("children") && shape["children"].is_array()) {
    for (std::size_t i = 0; i < shape["children"].size(); ++i)
      outer->addWidget(makeShapeSection(context, shapePointer + "/children/" + std::to_string(i)));
  }
  return box;
}

}  // namespace floptle::editor
