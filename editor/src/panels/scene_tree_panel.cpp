#include "floptle/editor/scene_tree_panel.h"

#include <QContextMenuEvent>
#include <QDropEvent>
#include <QHeaderView>
#include <QItemSelection>
#include <QMenu>
#include <QUndoStack>

#include "floptle/core/field/node_spec.h"
#include "floptle/editor/editor_document.h"
#include "panels/scene_tree_model.h"

namespace floptle::editor {

SceneTreePanel::SceneTreePanel(EditorDocument& document, QWidget* parent)
    : QTreeView(parent), document_(document), model_(new SceneTreeModel(document, this)) {
  setObjectName("sceneTree");
  setModel(model_);
  // Every row the same height: the view lays out 100,000 rows without asking each one.
  setUniformRowHeights(true);
  header()->setStretchLastSection(false);
  header()->setSectionResizeMode(SceneTreeModel::kNameColumn, QHeaderView::Stretch);
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  setSelectionBehavior(QAbstractItemView::SelectRows);
  setDragDropMode(QAbstractItemView::InternalMove);
  setDefaultDropAction(Qt::MoveAction);
  setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);

  addMenu_ = new QMenu(tr("Add Node"), this);
  for (const field::NodeSpec& spec : field::allNodeSpecs()) {
    const field::NodeType type = spec.type;
    QAction* action = addMenu_->addAction(QString::fromUtf8(spec.name.data(), spec.name.size()));
    action->setObjectName(QStringLiteral("add_%1").arg(action->text()));
    connect(action, &QAction::triggered, this, [this, type] {
      // A new node goes under the single selected node, else at the top level.
      const QStringList selected = document_.selection();
      Expected<QString> added =
          document_.addNode(type, selected.size() == 1 ? selected.front() : QString());
      if (added) document_.setSelection({*added});
    });
  }

  // Rebuilt from the event loop: a rename arrives from inside the model's setData, while the
  // view's editor still refers to the old rows.
  connect(&document_, &EditorDocument::structureChanged, this, &SceneTreePanel::rebuild,
          Qt::QueuedConnection);
  connect(&document_, &EditorDocument::selectionChanged, this, &SceneTreePanel::showSelection);
  connect(selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &SceneTreePanel::pushSelectionToDocument);
  rebuild();
}

QModelIndex SceneTreePanel::indexFor(const QString& name) const {
  return model_->indexOf(name);
}

QString SceneTreePanel::nameAt(const QModelIndex& index) const {
  return model_->nameAt(index);
}

int SceneTreePanel::nodeCount() const {
  return model_->nodeCount();
}

QStringList SceneTreePanel::selectedNames() const {
  QStringList names;
  for (const QModelIndex& index : selectionModel()->selectedRows(SceneTreeModel::kNameColumn))
    names << model_->nameAt(index);
  return names;
}

void SceneTreePanel::selectNames(const QStringList& names) {
  QItemSelection selection;
  for (const QString& name : names) {
    const QModelIndex index = indexFor(name);
    if (index.isValid()) selection.select(index, index);
  }
  selectionModel()->select(selection,
                           QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void SceneTreePanel::rebuild() {
  updating_ = true;
  model_->rebuild();
  expandAll();
  updating_ = false;
  showSelection(document_.selection());
}

void SceneTreePanel::showSelection(const QStringList& names) {
  updating_ = true;
  // One selection change for all names: observers hear of it once, however many there are.
  QItemSelection selection;
  QModelIndex last;
  for (const QString& name : names) {
    const QModelIndex index = indexFor(name);
    if (!index.isValid()) continue;
    selection.select(index, index);
    last = index;
  }
  selectionModel()->select(selection,
                           QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  if (last.isValid()) {
    selectionModel()->setCurrentIndex(last, QItemSelectionModel::NoUpdate);
    scrollTo(last);
  }
  updating_ = false;
}

void SceneTreePanel::pushSelectionToDocument() {
  if (updating_) return;
  document_.setSelection(selectedNames());
}

void SceneTreePanel::dropEvent(QDropEvent* event) {
  // Let the document move the node; the tree is then rebuilt from it. The view's own row move
  // is never applied, so the panel cannot drift from the document.
  const QModelIndex target = indexAt(event->position().toPoint());
  DropPlace place = DropPlace::EndOfTopLevel;
  if (target.isValid()) {
    switch (dropIndicatorPosition()) {
      case QAbstractItemView::OnItem:
        place = DropPlace::Onto;
        break;
      case QAbstractItemView::AboveItem:
        place = DropPlace::Above;
        break;
      case QAbstractItemView::BelowItem:
        place = DropPlace::Below;
        break;
      case QAbstractItemView::OnViewport:
        place = DropPlace::EndOfTopLevel;
        break;
    }
  }
  event->setDropAction(Qt::IgnoreAction);
  event->accept();
  dropSelection(target, place);
}

void SceneTreePanel::dropSelection(const QModelIndex& targetIndex, DropPlace place) {
  const QModelIndex target =
      place == DropPlace::EndOfTopLevel ? QModelIndex() : targetIndex.siblingAtColumn(0);
  const QStringList moving = selectedNames();
  if (moving.isEmpty()) return;
  QString parent;
  int index = -1;
  if (target.isValid() && place == DropPlace::Onto) {
    parent = nameAt(target);
  } else if (target.isValid()) {
    parent = nameAt(target.parent());
    index = target.row();
    if (place == DropPlace::Below) ++index;
  } else {
    index = model_->rowCount();  // the empty area below the rows: the end of the top level
  }
  document_.undoStack()->beginMacro(tr("Move %n node(s)", nullptr, int(moving.size())));
  for (const QString& name : moving) {
    // Moving down among the same siblings: the node's own removal shifts the target index.
    if (index >= 0 && document_.parentOf(name) == parent) {
      const int own = indexFor(name).row();
      if (own < index) --index;
    }
    document_.reparentNode(name, parent, index);
    if (index >= 0) ++index;
  }
  QUndoStack* stack = document_.undoStack();
  stack->endMacro();
  // Every move refused (or a no-op): drop the empty macro rather than leave an undo step that
  // does nothing. An obsolete command is deleted from the stack when it is undone.
  if (const QUndoCommand* macro = stack->command(stack->index() - 1);
      macro && macro->childCount() == 0) {
    const_cast<QUndoCommand*>(macro)->setObsolete(true);
    stack->undo();
  }
  rebuild();
}

void SceneTreePanel::contextMenuEvent(QContextMenuEvent* event) {
  QMenu menu(this);
  menu.addMenu(addMenu_);
  const QStringList selected = document_.selection();
  QAction* rename = menu.addAction(tr("Rename"));
  rename->setEnabled(selected.size() == 1);
  connect(rename, &QAction::triggered, this, [this, selected] {
    if (const QModelIndex index = indexFor(selected.front()); index.isValid()) edit(index);
  });
  QAction* duplicate = menu.addAction(tr("Duplicate"));
  duplicate->setEnabled(!selected.isEmpty());
  connect(duplicate, &QAction::triggered, this,
          [this, selected] { document_.duplicateNodes(selected); });
  QAction* remove = menu.addAction(tr("Delete"));
  remove->setEnabled(!selected.isEmpty());
  connect(remove, &QAction::triggered, this, [this, selected] { document_.removeNodes(selected); });
  QAction* unparent = menu.addAction(tr("Move to Top Level"));
  unparent->setEnabled(!selected.isEmpty());
  connect(unparent, &QAction::triggered, this, [this, selected] {
    document_.undoStack()->beginMacro(tr("Move to top level"));
    for (const QString& name : selected) document_.reparentNode(name, {});
    document_.undoStack()->endMacro();
  });
  menu.exec(event->globalPos());
}

}  // namespace floptle::editor
