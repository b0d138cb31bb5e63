// Inspector sections about the node itself: its name and its transform.
#include <array>
#include <cmath>
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
  return glm::normalize(
      Quat(q[3].get<float>(), q[0].get<float>(), q[1].get<float>(), q[2].get<float>()));
}

// The write of one transform key on one node: into the existing transform object, or a new
// transform object holding just that key.
std::pair<std::string, Json> transformKeyWrite(const EditorDocument& document,
                                               const std::string& nodePointer, const char* key,
                                               const Json& value) {
  if (!document.valueAt(nodePointer + "/transform"))
    return {nodePointer + "/transform", Json{{key, value}}};
  return {nodePointer + "/transform/" + key, value};
}

// Writes one transform key on every node as one undo step; `valueFor(nodePointer)` gives each
// node its own value (a position keeps each node's other axes).
template <typename ValueFor>
Expected<void> writeTransformKeys(EditorDocument& document, const NodePointers& nodes,
                                  const char* key, ValueFor valueFor) {
  std::vector<std::pair<std::string, Json>> writes;
  for (const std::string& node : nodes)
    writes.push_back(transformKeyWrite(document, node, key, valueFor(node)));
  const QString text =
      nodes.size() == 1
          ? QStringLiteral("Set %1 %2").arg(QString::fromStdString(nodes.front()), key)
          : QObject::tr("Set %1 of %2 nodes").arg(key).arg(nodes.size());
  return document.setValues(writes, text, kMergeValueDrag);
}

// Whether `read(node)` differs between the nodes (beyond float noise).
template <typename Read>
bool differs(const NodePointers& nodes, Read read) {
  for (const std::string& node : nodes)
    if (std::abs(read(node) - read(nodes.front())) > 1e-6) return true;
  return false;
}

}  // namespace

QWidget* makeNameSection(InspectorContext& context, const std::string& nodePointer) {
  EditorDocument& document = context.document;
  auto* box = new QGroupBox(QObject::tr("Node"));
  auto* form = new QFormLayout(box);
  auto* name = new QLineEdit;
  name->setObjectName("nodeName");
  const QString current = QString::fromStdString(
      document.valueAt(nodePointer + "/name").value_or("").get<std::string>());
  name->setText(current);
  QObject::connect(name, &QLineEdit::editingFinished, name, [&document, name, current] {
    if (name->text() == current) return;
    if (!document.renameNode(current, name->text())) name->setText(current);
  });
  form->addRow(QObject::tr("Name"), name);
  return box;
}

QWidget* makeTransformSection(InspectorContext& context, const NodePointers& nodes) {
  EditorDocument& document = context.document;
  auto* box = new QGroupBox(nodes.size() == 1
                                ? QObject::tr("Transform")
                                : QObject::tr("Transform (each of %1 nodes)").arg(nodes.size()));
  box->setObjectName("transformSection");
  auto* form = new QFormLayout(box);
  // Shown values are the first node's; a field whose nodes disagree reads "mixed".
  auto bind = [&context, &nodes](NumberField* field, auto read) {
    if (nodes.size() > 1) field->setMixedProbe([nodes, read] { return differs(nodes, read); });
    context.refreshers.push_back([field] { field->refresh(); });
  };

  auto* positionRow = new QHBoxLayout;
  for (int axis = 0; axis < 3; ++axis) {
    NumberFieldSpec spec{-1e6,  1e6, "m", QObject::tr("Position relative to the parent"),
                         false, 0.1};
    auto read = [&document, axis](const std::string& node) {
      return transformComponent(document, node, "position", axis, 0.0);
    };
    auto* field = new NumberField(
        document, spec, [nodes, read] { return read(nodes.front()); },
        [&document, nodes, axis](double value) {
          return writeTransformKeys(document, nodes, "position", [&](const std::string& node) {
            Json xyz = Json::array();
            for (int i = 0; i < 3; ++i)
              xyz.push_back(i == axis ? value
                                      : transformComponent(document, node, "position", i, 0.0));
            return xyz;
          });
        });
    field->setObjectName(QStringLiteral("position%1").arg("xyz"[axis]));
    positionRow->addWidget(field);
    bind(field, read);
  }
  form->addRow(QObject::tr("Position"), positionRow);

  // Rotation is stored as a quaternion [x, y, z, w] and shown as Euler XYZ angles (deg). An
  // edited angle replaces that angle of each node's own Euler angles.
  auto* rotationRow = new QHBoxLayout;
  auto fields = std::make_shared<std::array<NumberField*, 3>>();
  for (int axis = 0; axis < 3; ++axis) {
    NumberFieldSpec spec{-360,  360, "deg", QObject::tr("Euler angle, applied X then Y then Z"),
                         false, 5.0};
    auto read = [&document, axis](const std::string& node) {
      return double(glm::degrees(eulerXYZFromQuat(nodeRotation(document, node))[axis]));
    };
    auto* field = new NumberField(
        document, spec, [nodes, read] { return read(nodes.front()); },
        [&document, nodes, axis, fields](double value) {
          return writeTransformKeys(document, nodes, "rotation", [&](const std::string& node) {
            Vec3 degrees = glm::degrees(eulerXYZFromQuat(nodeRotation(document, node)));
            // With one node, the other two angles are the ones shown (no round-trip drift).
            if (nodes.size() == 1)
              for (int i = 0; i < 3; ++i) degrees[i] = static_cast<float>((*fields)[i]->value());
            degrees[axis] = static_cast<float>(value);
            const Quat q = quatFromEulerXYZ(glm::radians(degrees));
            return Json{q.x, q.y, q.z, q.w};
          });
        });
    (*fields)[axis] = field;
    field->setObjectName(QStringLiteral("rotation%1").arg("xyz"[axis]));
    rotationRow->addWidget(field);
    bind(field, read);
  }
  form->addRow(QObject::tr("Rotation"), rotationRow);

  NumberFieldSpec scaleSpec{1e-4, 1e6, "-", QObject::tr("Uniform scale"), false, 0.05};
  auto readScale = [&document](const std::string& node) {
    std::optional<Json> value = document.valueAt(node + "/transform/scale");
    return value && value->is_number() ? value->get<double>() : 1.0;
  };
  auto* scale = new NumberField(
      document, scaleSpec, [nodes, readScale] { return readScale(nodes.front()); },
      [&document, nodes](double value) {
        return writeTransformKeys(document, nodes, "scale",
                                  [value](const std::string&) { return Json(value); });
      });
  scale->setObjectName("scale");
  bind(scale, readScale);
  form->addRow(QObject::tr("Scale"), scale);
  return box;
}

}  // namespace floptle::editor
