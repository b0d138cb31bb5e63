// Inspector sections for what a node carries besides its shape: material, collider and the
// components that have no inspector yet.
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>

#include "floptle/editor/editor_document.h"
#include "inspector/inspector_sections.h"

namespace floptle::editor {
namespace {

// Components with a section of their own (or that are not components at all).
bool hasOwnSection(const std::string& key) {
  for (const char* known : {"name", "transform", "shape", "material", "children", "collider", "drift", "character",
                            "vehicle"})
    if (key == known) return true;
  return key.rfind('_', 0) == 0;  // "_..." keys are free-form notes
}

}  // namespace

QWidget* makeMaterialSection(InspectorContext& context, const std::string& nodePointer) {
  EditorDocument& document = context.document;
  auto* box = new QGroupBox(QObject::tr("Material"));
  auto* form = new QFormLayout(box);
  auto* picker = new QComboBox;
  picker->setObjectName("materialPicker");
  picker->addItem(QObject::tr("(none)"));
  for (const QString& id : document.materialIds()) picker->addItem(id);
  const std::optional<Json> current = document.valueAt(nodePointer + "/material");
  if (current)
    picker->setCurrentText(QString::fromStdString(current->is_string() ? current->get<std::string>()
                                                                       : current->dump()));
  QObject::connect(picker, &QComboBox::activated, picker, [&document, nodePointer, picker](int index) {
    if (index == 0) {
      document.removeValue(nodePointer + "/material");
      return;
    }
    // Keep the id's JSON type: the material's own "id" value.
    const std::string materialPointer = document.materialPointer(picker->itemText(index));
    document.setValue(nodePointer + "/material", *document.valueAt(materialPointer + "/id"));
  });
  form->addRow(QObject::tr("Surface"), picker);
  return box;
}

QWidget* makeColliderSection(InspectorContext& context, const std::string& nodePointer) {
  EditorDocument& document = context.document;
  const std::string pointer = nodePointer + "/collider";
  const std::optional<Json> collider = document.valueAt(pointer);
  auto* box = new QGroupBox(QObject::tr("Collider"));
  box->setObjectName("colliderSection");
  box->setCheckable(true);
  box->setChecked(collider.has_value());
  box->setToolTip(QObject::tr("Whether physics collides against this node's field"));
  QObject::connect(box, &QGroupBox::clicked, box, [&document, pointer](bool on) {
    if (on) {
      document.setValue(pointer, Json{{"body", "static"}, {"collidable", true}});
    } else {
      document.removeValue(pointer);
    }
  });
  auto* form = new QFormLayout(box);
  auto* body = new QComboBox;
  body->setObjectName("colliderBody");
  body->addItems({"static", "dynamic", "kinematic"});
  body->setToolTip(QObject::tr("static: never moves; dynamic: simulated rigid body; "
                               "kinematic: moved by animation or script"));
  auto* collidable = new QCheckBox(QObject::tr("Collidable"));
  collidable->setObjectName("colliderCollidable");
  if (collider) {
    body->setCurrentText(QString::fromStdString(collider->value("body", std::string("static"))));
    collidable->setChecked(collider->value("collidable", true));
  }
  QObject::connect(body, &QComboBox::textActivated, body, [&document, pointer](const QString& text) {
    document.setValue(pointer + "/body", text.toStdString());
  });
  QObject::connect(collidable, &QCheckBox::clicked, collidable,
                   [&document, pointer](bool on) { document.setValue(pointer + "/collidable", on); });
  form->addRow(QObject::tr("Body"), body);
  form->addRow(QString(), collidable);
  return box;
}

QWidget* makeOtherComponentsSection(InspectorContext& context, const std::string& nodePointer) {
  const Json node = context.document.valueAt(nodePointer).value_or(Json::object());
  QGroupBox* box = nullptr;
  QFormLayout* form = nullptr;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (hasOwnSection(it.key())) continue;
    if (!box) {
      box = new QGroupBox(QObject::tr("Other components"));
      box->setToolTip(QObject::tr("Kept as written; their systems bring their own inspectors"));
      form = new QFormLayout(box);
    }
    auto* value = new QLabel(QString::fromStdString(it.value().dump()));
    value->setWordWrap(true);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(QString::fromStdString(it.key()), value);
  }
  return box;
}

}  // namespace floptle::editor
