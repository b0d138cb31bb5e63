// Inspector sections for what a node carries besides its shape: material, collider and the
// components that have no inspector yet.
#include <algorithm>
#include <set>

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
  for (const char* known :
       {"name", "transform", "shape", "material", "children", "collider", "drift", "character",
        "vehicle", "gravity", "gravity_source", "matter", "script"})
    if (key == known) return true;
  return key.rfind('_', 0) == 0;  // "_..." keys are free-form notes
}

}  // namespace

QWidget* makeMaterialSection(InspectorContext& context, const NodePointers& nodes) {
  EditorDocument& document = context.document;
  auto* box = new QGroupBox(QObject::tr("Material"));
  auto* form = new QFormLayout(box);
  auto* picker = new QComboBox;
  picker->setObjectName("materialPicker");
  picker->addItem(QObject::tr("(none)"));
  for (const QString& id : document.materialIds()) picker->addItem(id);
  auto shown = [&document](const std::string& node) {
    const std::optional<Json> id = document.valueAt(node + "/material");
    if (!id) return QObject::tr("(none)");
    return QString::fromStdString(id->is_string() ? id->get<std::string>() : id->dump());
  };
  const QString first = shown(nodes.front());
  const bool mixed = std::any_of(nodes.begin(), nodes.end(),
                                 [&](const std::string& node) { return shown(node) != first; });
  if (mixed) {
    picker->setPlaceholderText(QObject::tr("mixed"));
    picker->setCurrentIndex(-1);
  } else {
    picker->setCurrentText(first);
  }
  QObject::connect(picker, &QComboBox::activated, picker, [&document, nodes, picker](int index) {
    const QString text = QObject::tr("Set material of %n node(s)", nullptr, int(nodes.size()));
    if (index == 0) {
      std::vector<std::string> pointers;
      for (const std::string& node : nodes) pointers.push_back(node + "/material");
      document.removeValues(pointers, text);
      return;
    }
    // Keep the id's JSON type: the material's own "id" value.
    const std::string materialPointer = document.materialPointer(picker->itemText(index));
    const Json id = *document.valueAt(materialPointer + "/id");
    std::vector<std::pair<std::string, Json>> writes;
    for (const std::string& node : nodes) writes.emplace_back(node + "/material", id);
    document.setValues(writes, text);
  });
  form->addRow(QObject::tr("Surface"), picker);
  return box;
}

QWidget* makeColliderSection(InspectorContext& context, const NodePointers& nodes) {
  EditorDocument& document = context.document;
  std::vector<std::optional<Json>> colliders;
  for (const std::string& node : nodes) colliders.push_back(document.valueAt(node + "/collider"));
  const bool all =
      std::all_of(colliders.begin(), colliders.end(), [](auto& c) { return c.has_value(); });
  const bool none =
      std::none_of(colliders.begin(), colliders.end(), [](auto& c) { return c.has_value(); });
  auto* box = new QGroupBox(QObject::tr("Collider"));
  box->setObjectName("colliderSection");
  box->setCheckable(true);
  box->setChecked(all);
  box->setToolTip(!all && !none
                      ? QObject::tr("Some of the selected nodes have a collider; "
                                    "checking adds one to the others")
                      : QObject::tr("Whether physics collides against this node's field"));
  const QString text = QObject::tr("Set collider of %n node(s)", nullptr, int(nodes.size()));
  QObject::connect(box, &QGroupBox::clicked, box, [&document, nodes, colliders, text](bool on) {
    if (!on) {
      std::vector<std::string> pointers;
      for (const std::string& node : nodes) pointers.push_back(node + "/collider");
      document.removeValues(pointers, text);
      return;
    }
    std::vector<std::pair<std::string, Json>> writes;  // nodes that have one keep theirs
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (!colliders[i])
        writes.emplace_back(nodes[i] + "/collider", Json{{"body", "static"}, {"collidable", true}});
    document.setValues(writes, text);
  });
  auto* form = new QFormLayout(box);
  auto* body = new QComboBox;
  body->setObjectName("colliderBody");
  body->addItems({"static", "dynamic", "kinematic"});
  body->setToolTip(
      QObject::tr("static: never moves; dynamic: simulated rigid body; "
                  "kinematic: moved by animation or script"));
  auto* collidable = new QCheckBox(QObject::tr("Collidable"));
  collidable->setObjectName("colliderCollidable");
  // Shown: the values the nodes with a collider agree on; "mixed" where they do not.
  std::set<std::string> bodies;
  std::set<bool> collidables;
  for (const auto& collider : colliders)
    if (collider) {
      bodies.insert(collider->value("body", std::string("static")));
      collidables.insert(collider->value("collidable", true));
    }
  if (bodies.size() > 1) {
    body->setPlaceholderText(QObject::tr("mixed"));
    body->setCurrentIndex(-1);
  } else if (bodies.size() == 1) {
    body->setCurrentText(QString::fromStdString(*bodies.begin()));
  }
  if (collidables.size() > 1) {
    collidable->setTristate(true);
    collidable->setCheckState(Qt::PartiallyChecked);
  } else {
    collidable->setChecked(collidables.empty() || *collidables.begin());
  }
  // Writes `key` on every node that has a collider (checking the box first adds the rest).
  auto writeAll = [&document, nodes, text](const char* key, const Json& value) {
    std::vector<std::pair<std::string, Json>> writes;
    for (const std::string& node : nodes)
      if (document.valueAt(node + "/collider"))
        writes.emplace_back(node + "/collider/" + key, value);
    document.setValues(writes, text);
  };
  QObject::connect(body, &QComboBox::textActivated, body,
                   [writeAll](const QString& value) { writeAll("body", value.toStdString()); });
  QObject::connect(collidable, &QCheckBox::clicked, collidable, [writeAll, collidable](bool on) {
    collidable->setTristate(false);
    writeAll("collidable", on);
  });
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
