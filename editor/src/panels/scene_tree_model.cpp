#include "panels/scene_tree_model.h"

#include "floptle/editor/editor_document.h"

namespace floptle::editor {
namespace {

// Label of a node's shape column: its root shape type, or "-" when it has none.
QString shapeLabel(const Json& node) {
  const auto shape = node.find("shape");
  if (shape == node.end() || !shape->is_object()) return QStringLiteral("-");
  const auto type = shape->find("type");
  if (type == shape->end() || !type->is_string()) return QStringLiteral("?");
  return QString::fromStdString(type->get<std::string>());
}

}  // namespace

SceneTreeModel::SceneTreeModel(EditorDocument& document, QObject* parent)
    : QAbstractItemModel(parent), document_(document) {
  rebuild();
}

void SceneTreeModel::rebuild() {
  beginResetModel();
  nodes_.clear();
  children_.clear();
  topLevel_.clear();
  byName_.clear();
  // Explicit stack of (node array, parent position): no recursion, whatever the depth. Arrays
  // are walked so that positions come out in document pre-order.
  struct Pending {
    const Json* array;
    std::size_t next;
    int parent;
  };
  const Json& root = document_.json();
  const auto top = root.find("nodes");
  std::vector<Pending> stack;
  if (top != root.end() && top->is_array()) stack.push_back({&*top, 0, -1});
  while (!stack.empty()) {
    Pending& at = stack.back();
    if (at.next >= at.array->size()) {
      stack.pop_back();
      continue;
    }
    const Json& json = (*at.array)[at.next++];
    const int parent = at.parent;
    const int position = static_cast<int>(nodes_.size());
    std::vector<int>& siblings = parent < 0 ? topLevel_ : children_[std::size_t(parent)];
    Node node;
    const auto name = json.find("name");
    if (name != json.end() && name->is_string())
      node.name = QString::fromStdString(name->get<std::string>());
    node.shape = shapeLabel(json);
    node.parent = parent;
    node.row = static_cast<int>(siblings.size());
    siblings.push_back(position);
    byName_.insert(node.name, position);
    nodes_.push_back(std::move(node));
    children_.emplace_back();
    const auto children = json.find("children");
    if (children != json.end() && children->is_array() && !children->empty())
      stack.push_back({&*children, 0, position});  // `at` may dangle from here
  }
  endResetModel();
}

QModelIndex SceneTreeModel::indexOf(const QString& name) const {
  const auto found = byName_.constFind(name);
  if (found == byName_.constEnd()) return {};
  return createIndex(nodes_[std::size_t(*found)].row, kNameColumn, quintptr(*found));
}

QString SceneTreeModel::nameAt(const QModelIndex& index) const {
  if (!index.isValid() || index.model() != this) return {};
  return nodes_[std::size_t(index.internalId())].name;
}

QModelIndex SceneTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (column < 0 || column > kShapeColumn || row < 0) return {};
  const int up = parent.isValid() ? int(parent.internalId()) : -1;
  const std::vector<int>& children = childrenOf(up);
  if (std::size_t(row) >= children.size()) return {};
  return createIndex(row, column, quintptr(children[std::size_t(row)]));
}

QModelIndex SceneTreeModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  const int up = nodes_[std::size_t(child.internalId())].parent;
  if (up < 0) return {};
  return createIndex(nodes_[std::size_t(up)].row, kNameColumn, quintptr(up));
}

int SceneTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && parent.column() != kNameColumn) return 0;
  return static_cast<int>(childrenOf(parent.isValid() ? int(parent.internalId()) : -1).size());
}

int SceneTreeModel::columnCount(const QModelIndex&) const {
  return 2;
}

QVariant SceneTreeModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const Node& node = nodes_[std::size_t(index.internalId())];
  if (role == Qt::DisplayRole || role == Qt::EditRole)
    return index.column() == kNameColumn ? node.name : node.shape;
  return {};
}

bool SceneTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || role != Qt::EditRole || index.column() != kNameColumn) return false;
  const QString oldName = nodes_[std::size_t(index.internalId())].name;
  const QString newName = value.toString();
  if (newName == oldName) return false;
  // The document renames and announces a structure change; the panel rebuilds from it.
  return static_cast<bool>(document_.renameNode(oldName, newName));
}

QVariant SceneTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == kNameColumn ? tr("Node") : tr("Shape");
}

Qt::ItemFlags SceneTreeModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::ItemIsDropEnabled;  // the empty area: end of the top level
  Qt::ItemFlags f =
      Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled | Qt::ItemIsDropEnabled;
  if (index.column() == kNameColumn) f |= Qt::ItemIsEditable;
  return f;
}

}  // namespace floptle::editor
