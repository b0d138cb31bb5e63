#pragma once
// InteractionMatrixPanel: a materials x materials table. The cell in row a, column b is the
// rule for the ordered pair (a, b) (for carve, b bites into a): a rule picker (none / ignore /
// merge / carve / hard) and the blend radius k (m) that merge and carve use. k may be animated
// like a shape's parameters: the "~" toggle turns it into a driver (sine or keys) edited by the
// inspector's DriverEditor in the cell; changing the rule keeps k as it is, driver included.
#include <functional>
#include <vector>

#include <QTableWidget>

#include "floptle/editor/inspector_panel.h"

namespace floptle::editor {

class EditorDocument;

class InteractionMatrixPanel : public QTableWidget {
  Q_OBJECT

 public:
  /// Does not own `document`; the document must outlive the panel.
  explicit InteractionMatrixPanel(EditorDocument& document, QWidget* parent = nullptr);

 public slots:
  void rebuild();
  void refreshValues();

 private:
  EditorDocument& document_;
  /// Number fields to refresh on a parameter change (the cells' k and their drivers').
  std::vector<std::function<void()>> refreshers_;
  GravityHooks noGravity_;
};

}  // namespace floptle::editor
