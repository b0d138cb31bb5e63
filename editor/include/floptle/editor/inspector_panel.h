#pragma once
// InspectorPanel: edits the selected node. Sections: name; transform (position (m), rotation
// as Euler XYZ degrees, uniform scale (-)); shape parameters generated from core's node_spec
// table (units and ranges in tooltips, out-of-range input refused in the field, reset to
// default, an animated parameter shows its driver); material; collider. With several nodes
// selected it shows what they share (transform, material, collider): a value they disagree
// on reads "mixed", and an edit goes to each of them as one undo step. Every change goes
// through the document as an undo command; the panel only observes and dispatches.
#include <functional>
#include <vector>

#include <QScrollArea>

namespace floptle::editor {

class EditorDocument;

class InspectorPanel : public QScrollArea {
  Q_OBJECT

 public:
  /// Does not own `document`; the document must outlive the panel.
  explicit InspectorPanel(EditorDocument& document, QWidget* parent = nullptr);

 public slots:
  /// Rebuilds the sections for the current selection (from the event loop, coalesced).
  void scheduleRebuild();
  /// Shows changed numbers without rebuilding (keeps focus while dragging).
  void refreshValues();

 private:
  void rebuild();

  EditorDocument& document_;
  std::vector<std::function<void()>> refreshers_;
  bool rebuildPending_ = false;
};

}  // namespace floptle::editor
