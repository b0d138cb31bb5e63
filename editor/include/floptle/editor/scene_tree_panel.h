#pragma once
// SceneTreePanel: the node tree of the document, a view over a lazy item model
// (panels/scene_tree_model.h), so a scene of 100,000 nodes opens and selects without building
// an item per node. Selecting rows selects nodes (several with Ctrl/Shift); double-click or F2
// renames; drag and drop re-parents (onto a row) or reorders (between rows); the context menu
// adds a node of any shape type, duplicates and deletes. It only observes the document and
// dispatches document calls; it never edits JSON itself.
#include <QModelIndex>
#include <QStringList>
#include <QTreeView>

namespace floptle::editor {

class EditorDocument;
class SceneTreeModel;

class SceneTreePanel : public QTreeView {
  Q_OBJECT

 public:
  /// Does not own `document`; the document must outlive the panel.
  explicit SceneTreePanel(EditorDocument& document, QWidget* parent = nullptr);

  /// The name column's index of node `name`, or an invalid index.
  QModelIndex indexFor(const QString& name) const;
  /// The node shown at `index`, empty for an invalid index.
  QString nameAt(const QModelIndex& index) const;
  /// The selected nodes, in the order of the view's selection.
  QStringList selectedNames() const;
  /// Selects exactly these nodes in the view (and so in the document), as one change.
  void selectNames(const QStringList& names);
  /// Nodes the tree shows (-).
  int nodeCount() const;
  /// The context menu's "Add" submenu: one action per shape type.
  QMenu* addNodeMenu() const { return addMenu_; }
  /// Where a drop lands relative to its target row.
  enum class DropPlace { Onto, Above, Below, EndOfTopLevel };
  /// What a drop of the selected nodes does, as one undo step: Onto re-parents them under
  /// `target`; Above / Below place them among `target`'s siblings; EndOfTopLevel (the empty
  /// area, target ignored) moves them to the end of the top level. A refused move (under
  /// itself or a descendant) changes nothing and is logged by the document.
  void dropSelection(const QModelIndex& target, DropPlace place);

 public slots:
  void rebuild();
  void showSelection(const QStringList& names);

 protected:
  void dropEvent(QDropEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  void pushSelectionToDocument();

  EditorDocument& document_;
  SceneTreeModel* model_ = nullptr;
  QMenu* addMenu_ = nullptr;
  bool updating_ = false;
};

}  // namespace floptle::editor
