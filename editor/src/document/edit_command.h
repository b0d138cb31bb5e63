#pragma once
// EditCommand: the one QUndoCommand every document edit is pushed as. It holds a JsonPatch
// and asks the document to apply it forward (redo) or backward (undo). Commands pushed with
// the same non-negative merge id and the same single pointer collapse into one undo step, so
// a slider or spin-box drag is undone at once.
#include <QUndoCommand>

#include "document/json_patch.h"

namespace floptle::editor {

class EditorDocument;

class EditCommand : public QUndoCommand {
 public:
  /// Does not own `document`; the document owns the undo stack that owns this command.
  EditCommand(EditorDocument& document, JsonPatch patch, const QString& text, int mergeId);

  void redo() override;
  void undo() override;
  int id() const override { return mergeId_; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  EditorDocument& document_;
  JsonPatch patch_;
  int mergeId_;
  /// The document's merge window when this command was pushed; only equal windows merge.
  int mergeWindow_;
};

}  // namespace floptle::editor
