// EditorDocument: the selection (node names). Not undoable, not saved.
#include "floptle/editor/editor_document.h"

#include "floptle/editor/derived_scene.h"

namespace floptle::editor {

void EditorDocument::setSelection(const QStringList& names) {
  QStringList kept;
  for (const QString& name : names)
    if (!kept.contains(name) && derived_->findNode(name.toStdString()) >= 0) kept << name;
  if (kept == selection_) return;
  selection_ = kept;
  emit selectionChanged(selection_);
}

void EditorDocument::dropMissingFromSelection() {
  setSelection(selection_);
}

}  // namespace floptle::editor
