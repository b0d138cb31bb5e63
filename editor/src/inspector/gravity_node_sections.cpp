// Inspector sections of a node's gravity components: the receiver ("gravity": how much of g
// the body obeys and how fast a character's up turns) and the emitter ("gravity_source": the
// node pulls, as a planet or by its mass). Both are checkable: checking adds the component
// with the table's defaults, unchecking removes it; each is one undo step.
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>

#include "floptle/editor/editor_document.h"
#include "inspector/inspector_sections.h"
#include "inspector/table_rows.h"

namespace floptle::editor {
namespace {

/// A checkable box for the node component `key`, with its table's rows when present.
/// Widgets are named `name + "Section"` and `name + ":" + key`.
QWidget* makeComponentBox(InspectorContext& context, const std::string& nodePointer,
                          const char* key, const char* table, const QString& name,
                          const QString& title, const QString& help, const Json& added) {
  EditorDocument& document = context.document;
  const std::string component = nodePointer + "/" + key;
  auto* box = new QGroupBox(title);
  box->setObjectName(name + "Section");
  box->setToolTip(help);
  box->setCheckable(true);
  const bool present = document.valueAt(component).has_value();
  box->setChecked(present);
  QObject::connect(box, &QGroupBox::clicked, box, [&document, component, added, box](bool on) {
    const Expected<void> written =
        on ? document.setValue(component, added) : document.removeValue(component);
    if (!written) box->setChecked(!on);  // refused (the log says why): show what the node has
  });
  auto* form = new QFormLayout(box);
  if (!present) return box;
  JsonBinding binding{[&document, component](const std::string& k) {
                        return document.valueAt(component + "/" + k);
                      },
                      [&document, component](const std::string& k, const Json& value, int mergeId) {
                        return document.setValue(component + "/" + k, value, mergeId);
                      }};
  addTableRows(context, form, tableRows(table), binding, name + ":");
  return box;
}

}  // namespace

bool canReceiveGravity(const EditorDocument& document, const std::string& nodePointer) {
  if (document.valueAt(nodePointer + "/character") || document.valueAt(nodePointer + "/vehicle"))
    return true;
  const std::optional<Json> body = document.valueAt(nodePointer + "/collider/body");
  return body && body->is_string() && body->get<std::string>() == "dynamic";
}

QWidget* makeGravityReceiverSection(InspectorContext& context, const std::string& nodePointer) {
  return makeComponentBox(
      context, nodePointer, "gravity", "gravity", "gravityReceiver",
      QObject::tr("Gravity response"),
      QObject::tr("How this body obeys the gravity field (absent: response 1, align rate 10 /s)"),
      Json{{"response", 1.0}, {"align_rate", 10.0}});
}

QWidget* makeGravityEmitterSection(InspectorContext& context, const std::string& nodePointer) {
  return makeComponentBox(
      context, nodePointer, "gravity_source", "gravity_source", "gravityEmitter",
      QObject::tr("Gravity source"),
      QObject::tr("This node pulls: a planet (constant pull to its centre) or Newtonian (its "
                  "material's density times its volume)"),
      Json{{"type", "planet"}, {"strength", 9.81}, {"r_outer", 20.0}});
}

}  // namespace floptle::editor
