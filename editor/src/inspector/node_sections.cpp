// Inspector sections about the node itself: its name and its transform.
#include <array>
#include <memory>

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>

#include <glm/gtc/constants.hpp>

#include "floptle/core/math.h"
#include "floptle/editor/editor_document.h"
#include "inspector/inspector_sections.h"
#include "inspector/number_field.h"

namespace floptle::editor {
namespace {

// Reads a vec3 component of the node's transform, `fallback` when absent.
double transformComponent(const EditorDocument& document, const std::string& nodePointer,
                          const char* key, int component, double fallback) {
  std::optional<Json> value = document.valueAt(nodePointer + "/transform/" + key);
  if (!value || !value->is_array() || static_cast<int>(value->size()) <= component ||
      !(*value)[component].is_number())
    return fallback;
  return (*value)[component].get<double>();
}

Quat nodeRotation(const EditorDocument& document, const std::string& nodePointer) {
  std::optional<Json> value = document.valueAt(nodePointer + "/transform/rotation");
  if (!value || !value->is_array() || value->size() != 4) return Quat(1, 0, 0, 0);
  const Json& q = *value;  // stored [x, y, z, w]
  return glm::normalize(Quat(q[3].get<float>(), q[0].get<float>(), q[1].get<float>(),
                             q[2].get<float>()));
}

// Writes one key of the node's transform, creating the transform object when it is absent.
Expected<void> writeTransformKey(EditorDocument& document, const std::string& nodePointer,
                                 const char* key, const Json& value) {
  if (!document.valueAt(nodePointer + "/transform"))
    return document.setValue(nodePointer + "/transform", Json{{key, value}});
  return document.setValue(nodePointer + "/transform/" + key, value, kMergeValueDrag);
}

}  // namespace

QWidget* makeNameSection(InspectorContext& context, const std::string& nodePointer) {
  EditorDocument& document = context.document;
  auto* box = new QGroupBox(QObject::tr("Node"));
  auto* form = new QFormLayout(box);
  auto* name = new QLineEdit;
  name->setObjectName("nodeName");
  const QString current =
      QString::fromStdString(document.valueAt(nodePointer + "/name").value_or("").get<std::string>());
  name->setText(current);
  QObject::connect(name, &QLineEdit::editingFinished, name, [&document, name, current] {
    if (name->text() == current) return;
    if (!document.renameNode(current, name->text())) name->setText(current);
  });
  form->addRow(QObject::tr("Name"), name);
  return box;
}

QWidget* makeTransformSection(InspectorContext& context, const std::string& nodePointer) {
  EditorDocument& document = context.document;
  auto* box = new QGroupBox(QObject::tr("Transform"));
  box->setObjectName("transformSection");
  auto* form = new QFormLayout(box);

  auto* positionRow = new QHBoxLayout;
  std::vector<NumberField*> position;
  for (int axis = 0; axis < 3; ++axis) {
    NumberFieldSpec spec{-1e6, 1e6, "m", QObject::tr("Position relative to the parent"), false, 0.1};
    auto* field = new NumberField(
        document, spec,
        [&document, nodePointer, axis] {
          return transformComponent(document, nodePointer, "position", axis, 0.0);
        },
        [&document, nodePointer, axis](double value) {
          Json xyz = Json::array();
          for (int i = 0; i < 3; ++i)
            xyz.push_back(i == axis ? value
                                    : transformComponent(document, nodePointer, "position", i, 0.0));
          return writeTransformKey(document, nodePointer, "position", xyz);
        });
    field->setObjectName(QStringLiteral("position%1").arg("xyz"[axis]));
    positionRow->addWidget(field);
    context.refreshers.push_back([field] { field->refresh(); });
  }
  form->addRow(QObject::tr("Position"), positionRow);

  // Rotation is stored as a quaternion [x, y, z, w] and shown as Euler XYZ angles (deg).
  auto* rotationRow = new QHBoxLayout;
  auto fields = std::make_shared<std::array<NumberField*, 3>>();
  for (int axis = 0; axis < 3; ++axis) {
    NumberFieldSpec spec{-360, 360, "deg", QObject::tr("Euler angle, applied X then Y then Z"),
                         false, 5.0};
    auto* field = new NumberField(
        document, spec,
        [&document, nodePointer, axis] {
          return glm::degrees(eulerXYZFromQuat(nodeRotation(document, nodePointer))[axis]);
        },
        [&document, nodePointer, axis, fields](double value) {
          Vec3 degrees;
          for (int i = 0; i < 3; ++i)
            degrees[i] = i == axis ? static_cast<float>(value)
                                   : static_cast<float>((*fields)[i]->value());
          const Quat q = quatFromEulerXYZ(glm::radians(degrees));
          return writeTransformKey(document, nodePointer, "rotation", Json{q.x, q.y, q.z, q.w});
        });
    (*fields)[axis] = field;
    field->setObjectName(QStringLiteral("rotation%1").arg("xyz"[axis]));
    rotationRow->addWidget(field);
    context.refreshers.push_back([field] { field->refresh(); });
  }
  form->addRow(QObject::tr("Rotation"), rotationRow);

  NumberFieldSpec scaleSpec{1e-4, 1e6, "-", QObject::tr("Uniform scale"), false, 0.05};
  auto* scale = new NumberField(
      document, scaleSpec,
      [&document, nodePointer] {
        std::optional<Json> value = document.valueAt(nodePointer + "/transform/scale");
        return value && value->is_number() ? value->get<double>() : 1.0;
      },
      [&document, nodePointer](double value) {
        return writeTransformKey(document, nodePointer, "scale", value);
      });
  scale->setObjectName("scale");
  context.refreshers.push_back([scale] { scale->refresh(); });
  form->addRow(QObject::tr("Scale"), scale);
  return box;
}

}  // namespace floptle::editor
