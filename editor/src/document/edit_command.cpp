#include "document/edit_command.h"

#include "floptle/editor/editor_document.h"

namespace floptle::editor {

EditCommand::EditCommand(EditorDocument& document, JsonPatch patch, const QString& text,
                         int mergeId)
    : document_(document),
      patch_(std::move(patch)),
      mergeId_(mergeId),
      mergeWindow_(document.mergeWindow()) {
  setText(text);
}

void EditCommand::redo() {
  document_.applyPatch(patch_, true);
}

void EditCommand::undo() {
  document_.applyPatch(patch_, false);
}

bool EditCommand::mergeWith(const QUndoCommand* other) {
  if (mergeId_ < 0 || other->id() != mergeId_) return false;
  const auto* next = static_cast<const EditCommand*>(other);
  if (next->mergeWindow_ != mergeWindow_) return false;
  if (patch_.ops.size() != next->patch_.ops.size()) return false;
  for (std::size_t i = 0; i < patch_.ops.size(); ++i) {
    const JsonPatchOp& mine = patch_.ops[i];
    const JsonPatchOp& theirs = next->patch_.ops[i];
    if (mine.pointer != theirs.pointer || !mine.after || !theirs.before || !theirs.after)
      return false;
  }
  // The merged step goes from my original values to their final ones.
  bool unchanged = true;
  for (std::size_t i = 0; i < patch_.ops.size(); ++i) {
    patch_.ops[i].after = next->patch_.ops[i].after;
    unchanged = unchanged && patch_.ops[i].before == patch_.ops[i].after;
  }
  // A drag that ends where it began (or is cancelled back) leaves no step behind.
  setObsolete(unchanged);
  return true;
}

}  // namespace floptle::editor
