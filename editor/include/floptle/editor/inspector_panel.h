#pragma once
// InspectorPanel: edits the selected node. Sections: name; transform (position (m), rotation
// as Euler XYZ degrees, uniform scale (-)); shape parameters generated from core's node_spec
// table (units and ranges in tooltips, out-of-range input refused in the field, reset to
// default, an animated parameter shows its driver); material; collider. With several nodes
// selected it shows what they share (transform, material, collider): a value they disagree
// on reads "mixed", and an edit goes to each of them as one undo step. Every change goes
// through the document as an undo command; the panel only observes and dispatches.
#include <functional>
#include <string>
#include <vector>

#include <QScrollArea>

#include "floptle/core/math.h"

namespace floptle::editor {

class EditorDocument;

/// What the Gravity section asks of the viewport (each may be empty: then new items go to the
/// origin and items are not selectable from the panel).
struct GravityHooks {
  /// Where a new region or source is placed (m): the viewport's focus.
  std::function<Vec3()> placement;
  /// Selects a region or source by its JSON pointer (empty: none) in the viewport.
  std::function<void(const std::string&)> select;
  /// The selected region or source's pointer (empty: none).
  std::function<std::string()> selected;
};

class InspectorPanel : public QScrollArea {
  Q_OBJECT

 public:
  /// Does not own `document`; the document must outlive the panel.
  explicit InspectorPanel(EditorDocument& document, QWidget* parent = nullptr);
  /// With nothing selected the panel shows the scene's Gravity section; these connect it to
  /// the viewport.
  void setGravityHooks(GravityHooks hooks);

 public slots:
  /// Rebuilds the sections for the current selection (from the event loop, coalesced).
  void scheduleRebuild();
  /// Shows changed numbers without rebuilding (keeps focus while dragging).
  void refreshValues();

 private:
  void rebuild();

  EditorDocument& document_;
  GravityHooks gravityHooks_;
  std::vector<std::function<void()>> refreshers_;
  bool rebuildPending_ = false;
};

}  // namespace floptle::editor
