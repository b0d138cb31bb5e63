#pragma once
// InteractionMatrixPanel: a materials x materials table. The cell in row a, column b is the
// rule for the ordered pair (a, b) (for carve, b bites into a): a rule picker (none / ignore /
// merge / carve / hard) and the blend radius k (m) that merge and carve use.
#include <QTableWidget>

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
};

}  // namespace floptle::editor
