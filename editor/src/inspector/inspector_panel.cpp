#include "floptle/editor/inspector_panel.h"

#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>

#include "floptle/editor/editor_document.h"
#include "inspector/inspector_sections.h"

namespace floptle::editor {

InspectorPanel::InspectorPanel(EditorDocument& document, QWidget* parent)
    : QScrollArea(parent), document_(document) {
  setObjectName("inspector");
  setWidgetResizable(true);
  connect(&document_, &EditorDocument::selectionChanged, this, &InspectorPanel::scheduleRebuild);
  connect(&document_, &EditorDocument::structureChanged, this, &InspectorPanel::scheduleRebuild);
  connect(&document_, &EditorDocument::parametersChanged, this, &InspectorPanel::refreshValues);
  rebuild();
}

void InspectorPanel::setGravityHooks(GravityHooks hooks) {
  gravityHooks_ = std::move(hooks);
  scheduleRebuild();
}

void InspectorPanel::scheduleRebuild() {
  // Deferred: the edit that triggered this may come from one of the widgets about to go.
  if (rebuildPending_) return;
  rebuildPending_ = true;
  QTimer::singleShot(0, this, [this] {
    rebuildPending_ = false;
    rebuild();
  });
}

void InspectorPanel::refreshValues() {
  for (const auto& refresh : refreshers_) refresh();
}

void InspectorPanel::rebuild() {
  refreshers_.clear();
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  const QStringList selection = document_.selection();
  InspectorContext context{document_, refreshers_, gravityHooks_};
  if (selection.isEmpty()) {
    layout->addWidget(new QLabel(tr("Select a node to edit it. The scene's settings:")));
    layout->addWidget(makeGravitySection(context));
  } else if (selection.size() > 1) {
    // What several nodes share: transform, material, collider; each edit is one undo step
    // over all of them. Names, shapes and components stay per node.
    NodePointers nodes;
    for (const QString& name : selection) nodes.push_back(document_.nodePointer(name));
    auto* summary = new QLabel(
        tr("%n nodes selected: %1. Edits apply to each of them.", nullptr, int(selection.size()))
            .arg(selection.join(", ")));
    summary->setObjectName("multiSelectionSummary");
    summary->setWordWrap(true);
    layout->addWidget(summary);
    layout->addWidget(makeTransformSection(context, nodes));
    layout->addWidget(makeMaterialSection(context, nodes));
    layout->addWidget(makeColliderSection(context, nodes));
  } else {
    const std::string pointer = document_.nodePointer(selection.front());
    layout->addWidget(makeNameSection(context, pointer));
    layout->addWidget(makeTransformSection(context, {pointer}));
    if (document_.valueAt(pointer + "/shape"))
      layout->addWidget(makeShapeSection(context, pointer + "/shape"));
    layout->addWidget(makeMaterialSection(context, {pointer}));
    layout->addWidget(makeColliderSection(context, {pointer}));
    if (document_.valueAt(pointer + "/drift"))
      layout->addWidget(makeDriftSection(context, pointer));
    if (document_.valueAt(pointer + "/character"))
      layout->addWidget(makeCharacterSection(context, pointer));
    if (document_.valueAt(pointer + "/vehicle"))
      layout->addWidget(makeVehicleSection(context, pointer));
    if (canReceiveGravity(document_, pointer))
      layout->addWidget(makeGravityReceiverSection(context, pointer));
    layout->addWidget(makeGravityEmitterSection(context, pointer));
    if (document_.valueAt(pointer + "/shape") || document_.valueAt(pointer + "/matter"))
      layout->addWidget(makeMatterSection(context, pointer));
    if (document_.valueAt(pointer + "/script"))
      layout->addWidget(makeScriptSection(context, pointer));
    if (QWidget* others = makeOtherComponentsSection(context, pointer)) layout->addWidget(others);
  }
  layout->addStretch(1);
  setWidget(page);  // deletes the previous page
}

}  // namespace floptle::editor
