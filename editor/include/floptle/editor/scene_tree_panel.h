#pragma once
// SceneTreePanel: the node tree of the document. Selecting items selects nodes (several with
// Ctrl/Shift); double-click or F2 renames; drag and drop re-parents (onto an item) or reorders
// (between items); the context menu adds a node of any shape type, duplicates and deletes.
// It only observes the document and dispatches document calls; it never edits JSON itself.
#include <QTreeWidget>

namespace floptle::editor {

class EditorDocument;

class SceneTreePanel : public QTreeWidget {
  Q_OBJECT

 public:
  /// Does not own `document`; the document must outlive the panel.
  explicit SceneTreePanel(EditorDocument& document, QWidget* parent = nullptr);

  /// The item showing node `name`, or nullptr.
  QTreeWidgetItem* itemFor(const QString& name) const;
  /// The context menu's "Add" submenu: one action per shape type.
  QMenu* addNodeMenu() const { return addMenu_; }
  /// Where a drop lands relative to its target item.
  enum class DropPlace { Onto, Above, Below, EndOfTopLevel };
  /// What a drop of the selected items does, as one undo step: Onto re-parents them under
  /// `target`; Above / Below place them among `target`'s siblings; EndOfTopLevel (the empty
  /// area, target ignored) moves them to the end of the top level. A refused move (under
  /// itself or a descendant) changes nothing and is logged by the document.
  void dropSelection(QTreeWidgetItem* target, DropPlace place);

 public slots:
  void rebuild();
  void showSelection(const QStringList& names);

 protected:
  void dropEvent(QDropEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  void pushSelectionToDocument();
  void commitRename(QTreeWidgetItem* item, int column);

  EditorDocument& document_;
  QMenu* addMenu_ = nullptr;
  bool updating_ = false;
};

}  // namespace floptle::editor
