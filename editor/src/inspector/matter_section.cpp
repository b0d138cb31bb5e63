// Inspector section of a node's MatterModel ("matter"): a tier drop-down and below it only
// that tier's knobs, the rows of core's table "matter_<tier>" with their units, ranges and
// tooltips (morph: its displacement list and bake cell, morph_terms.h). Rigid is the absence
// of the component. Choosing another tier writes the new tier with its table's defaults in one
// undo step; a tier core has no table for yet is listed but disabled, so the drop-down never
// offers what the scene reader would refuse.
#include <string>

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QStandardItemModel>

#include "floptle/editor/editor_document.h"
#include "inspector/inspector_sections.h"
#include "inspector/morph_terms.h"
#include "inspector/table_rows.h"

namespace floptle::editor {
namespace {

constexpr std::string_view kRigid = "rigid";

std::string tableOf(std::string_view tier) {
  return "matter_" + std::string(tier);
}

/// The component a tier starts with: the tier and every knob at its table's default.
Json defaultsOf(std::string_view tier) {
  Json matter = Json::object();
  matter["tier"] = std::string(tier);
  for (const scene::ValueSpec& row : tableRows(tableOf(tier))) {
    const double v = row.defaultValue[0];
    switch (row.kind) {
      case scene::ValueKind::Number:
        matter[std::string(row.key)] = v;
        break;
      case scene::ValueKind::Integer:
        matter[std::string(row.key)] = static_cast<long long>(v);
        break;
      case scene::ValueKind::Bool:
        matter[std::string(row.key)] = v != 0.0;
        break;
      default:
        break;  // vectors, strings and lists keep their reader's default when absent
    }
  }
  return matter;
}

}  // namespace

QWidget* makeMatterSection(InspectorContext& context, const std::string& nodePointer) {
  EditorDocument& document = context.document;
  const std::string component = nodePointer + "/matter";
  auto* box = new QGroupBox(QObject::tr("Matter"));
  box->setObjectName("matterSection");
  box->setToolTip(
      QObject::tr("How the node behaves as matter: rigid (the default), or a tier "
                  "that deforms, blends or sticks"));
  auto* form = new QFormLayout(box);

  auto* tier = new QComboBox;
  tier->setObjectName("matterTier");
  const std::optional<Json> current = document.valueAt(component + "/tier");
  const std::string shown =
      current && current->is_string() ? current->get<std::string>() : std::string(kRigid);
  const scene::ComponentSpec* spec = scene::componentSpec("matter");
  const scene::ValueSpec* tierRow = spec ? spec->find("tier") : nullptr;
  auto* model = qobject_cast<QStandardItemModel*>(tier->model());
  if (tierRow) {
    for (std::string_view name : tierRow->choices) {
      tier->addItem(QString::fromUtf8(name.data(), int(name.size())));
      const bool built = name == kRigid || !tableRows(tableOf(name)).empty();
      if (!built && model) {
        QStandardItem* item = model->item(tier->count() - 1);
        item->setEnabled(false);
        item->setToolTip(QObject::tr("Not available in this version"));
      }
    }
  }
  tier->setCurrentText(QString::fromStdString(shown));
  tier->setToolTip(QString::fromUtf8(tierRow ? tierRow->help.data() : "",
                                     tierRow ? int(tierRow->help.size()) : 0));
  QObject::connect(tier, &QComboBox::activated, tier, [&document, component, shown, tier](int) {
    const std::string chosen = tier->currentText().toStdString();
    if (chosen == shown) return;
    const Expected<void> written = chosen == kRigid
                                       ? document.removeValue(component)
                                       : document.setValue(component, defaultsOf(chosen));
    if (!written) tier->setCurrentText(QString::fromStdString(shown));  // the log says why
  });
  form->addRow(QObject::tr("Tier"), tier);

  if (shown != kRigid) {
    JsonBinding binding{
        [&document, component](const std::string& key) {
          return document.valueAt(component + "/" + key);
        },
        [&document, component](const std::string& key, const Json& value, int mergeId) {
          return document.setValue(component + "/" + key, value, mergeId);
        }};
    addTableRows(context, form, tableRows(tableOf(shown)), binding, "matter:", {"tier"});
    if (shown == "morph") addMorphRows(context, form, component);
  }
  return box;
}

}  // namespace floptle::editor
