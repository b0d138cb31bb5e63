#include "floptle/editor/scene_tree_panel.h"

#include <QContextMenuEvent>
#include <QDropEvent>
#include <QHeaderView>
#include <QMenu>
#include <QTreeWidgetItemIterator>
#include <QUndoStack>

#include <functional>

#include "floptle/core/field/node_spec.h"
#include "floptle/editor/editor_document.h"

namespace floptle::editor {
namespace {

constexpr int kNameColumn = 0;
constexpr int kShapeColumn = 1;

// Label of a node's shape column: its root shape type, or "-" when it has none.
QString shapeLabel(const Json& node) {
  if (!node.contains("shape") || !node["shape"].is_object()) return QStringLiteral("-");
  return QString::fromStdString(node["shape"].value("type", std::string("?")));
}

}  // namespace

SceneTreePanel::SceneTreePanel(EditorDocument& document, QWidget* parent)
    : QTreeWidget(parent), document_(document) {
  setObjectName("sceneTree");
  setColumnCount(2);
  setHeaderLabels({tr("Node"), tr("Shape")});
  header()->setStretchLastSection(false);
  header()->setSectionResizeMode(kNameColumn, QHeaderView::Stretch);
  setSelectionMode(QAbstractItemView::ExtendedSelection);
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

  // Rebuilt from the event loop: a rename arrives from inside an item's own change signal,
  // when its item must not be deleted yet.
  connect(&document_, &EditorDocument::structureChanged, this, &SceneTreePanel::rebuild,
          Qt::QueuedConnection);
  connect(&document_, &EditorDocument::selectionChanged, this, &SceneTreePanel::showSelection);
  connect(this, &QTreeWidget::itemSelectionChanged, this, &SceneTreePanel::pushSelectionToDocument);
  connect(this, &QTreeWidget::itemChanged, this, &SceneTreePanel::commitRename);
  rebuild();
}

QTreeWidgetItem* SceneTreePanel::itemFor(const QString& name) const {
  const QList<QTreeWidgetItem*> found =
      findItems(name, Qt::MatchExactly | Qt::MatchRecursive, kNameColumn);
  return found.isEmpty() ? nullptr : found.front();
}

void SceneTreePanel::rebuild() {
  updating_ = true;
  clear();
  // Walk the JSON tree so items mirror the document order exactly.
  std::function<void(const Json&, QTreeWidgetItem*)> add = [&](const Json& nodes,
                                                               QTreeWidgetItem* parent) {
    for (const Json& node : nodes) {
      auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(this);
      const QString name = QString::fromStdString(node.value("name", std::string()));
      item->setText(kNameColumn, name);
      item->setData(kNameColumn, Qt::UserRole, name);  // the name before any in-place edit
      item->setText(kShapeColumn, shapeLabel(node));
      item->setFlags(item->flags() | Qt::ItemIsEditable | Qt::ItemIsDragEnabled |
                     Qt::ItemIsDropEnabled);
      if (node.contains("children")) add(node["children"], item);
    }
  };
  add(document_.json().value("nodes", Json::array()), nullptr);
  expandAll();
  updating_ = false;
  showSelection(document_.selection());
}

void SceneTreePanel::showSelection(const QStringList& names) {
  updating_ = true;
  clearSelection();
  QTreeWidgetItem* last = nullptr;
  for (const QString& name : names) {
    if (QTreeWidgetItem* item = itemFor(name)) {
      item->setSelected(true);
      last = item;
    }
  }
  if (last) scrollToItem(last);
  updating_ = false;
}

void SceneTreePanel::pushSelectionToDocument() {
  if (updating_) return;
  QStringList names;
  for (QTreeWidgetItem* item : selectedItems()) names << item->text(kNameColumn);
  document_.setSelection(names);
}

void SceneTreePanel::commitRename(QTreeWidgetItem* item, int column) {
  if (updating_ || column != kNameColumn) return;
  const QString oldName = item->data(kNameColumn, Qt::UserRole).toString();
  if (oldName == item->text(kNameColumn)) return;
  if (!document_.renameNode(oldName, item->text(kNameColumn))) {
    updating_ = true;
    item->setText(kNameColumn, oldName);  // refused: show the old name again
    updating_ = false;
  }
}

void SceneTreePanel::dropEvent(QDropEvent* event) {
  // Let the document move the node; the tree is then rebuilt from it. Qt's own item move is
  // never applied, so the panel cannot drift from the document.
  QTreeWidgetItem* target = itemAt(event->position().toPoint());
  DropPlace place = DropPlace::EndOfTopLevel;
  if (target) {
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

void SceneTreePanel::dropSelection(QTreeWidgetItem* target, DropPlace place) {
  if (place == DropPlace::EndOfTopLevel) target = nullptr;
  const QList<QTreeWidgetItem*> moving = selectedItems();
  if (moving.isEmpty()) return;
  QString parent;
  int index = -1;
  if (target && place == DropPlace::Onto) {
    parent = target->text(kNameColumn);
  } else if (target) {
    QTreeWidgetItem* up = target->parent();
    parent = up ? up->text(kNameColumn) : QString();
    index = up ? up->indexOfChild(target) : indexOfTopLevelItem(target);
    if (place == DropPlace::Below) ++index;
  } else {
    index = topLevelItemCount();  // the empty area below the items: the end of the top level
  }
  document_.undoStack()->beginMacro(tr("Move %n node(s)", nullptr, int(moving.size())));
  for (QTreeWidgetItem* item : moving) {
    const QString name = item->text(kNameColumn);
    // Moving down among the same siblings: the node's own removal shifts the target index.
    if (index >= 0 && document_.parentOf(name) == parent) {
      QTreeWidgetItem* up = item->parent();
      const int own = up ? up->indexOfChild(item) : indexOfTopLevelItem(item);
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
    if (QTreeWidgetItem* item = itemFor(selected.front())) editItem(item, kNameColumn);
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
