#pragma once
// SceneTreeModel: the document's node tree as a lazy item model for SceneTreePanel. The
// view asks only for the rows it draws, so a scene of 100,000 nodes costs one pass over the
// JSON when its structure changes (rebuild()) and nothing per node otherwise: no item
// objects, no per-node widgets.
//
// Rows: column 0 the node's name (editable: a rename goes to the document), column 1 its
// root shape type ("-" without a shape). An index's internal id is the node's position in
// document pre-order; parents precede their children.
#include <QAbstractItemModel>
#include <QHash>
#include <QString>
#include <QStringList>

#include <vector>

namespace floptle::editor {

class EditorDocument;

class SceneTreeModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  static constexpr int kNameColumn = 0;
  static constexpr int kShapeColumn = 1;

  /// Does not own `document`; the document must outlive the model.
  explicit SceneTreeModel(EditorDocument& document, QObject* parent = nullptr);

  /// Re-reads the node tree from the document (one model reset).
  void rebuild();
  /// The name column's index of node `name`, or an invalid index (O(1)).
  QModelIndex indexOf(const QString& name) const;
  /// The node an index shows (any column), empty for an invalid index.
  QString nameAt(const QModelIndex& index) const;
  /// Nodes shown (-).
  int nodeCount() const { return static_cast<int>(nodes_.size()); }

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  /// Drops are taken by the panel (the document moves the node); the model only says a move
  /// may start and land.
  Qt::DropActions supportedDropActions() const override { return Qt::MoveAction; }

 private:
  struct Node {
    QString name;
    QString shape;
    int parent = -1;  ///< position of the parent in nodes_, -1 at top level
    int row = 0;      ///< row among the parent's children
  };
  /// Children of each node (by position in nodes_), and the top level.
  const std::vector<int>& childrenOf(int node) const {
    return node < 0 ? topLevel_ : children_[static_cast<std::size_t>(node)];
  }

  EditorDocument& document_;
  std::vector<Node> nodes_;
  std::vector<std::vector<int>> children_;
  std::vector<int> topLevel_;
  QHash<QString, int> byName_;
};

}  // namespace floptle::editor
