#include "floptle/editor/interaction_matrix_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QTimer>

#include "floptle/editor/editor_document.h"
#include "inspector/number_field.h"

namespace floptle::editor {
namespace {

const QStringList kRules{"ignore", "merge", "carve", "hard"};

}  // namespace

InteractionMatrixPanel::InteractionMatrixPanel(EditorDocument& document, QWidget* parent)
    : QTableWidget(parent), document_(document) {
  setObjectName("interactionMatrix");
  horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  setToolTip(tr("Row a, column b: how material a meets material b (carve: b bites into a)"));
  connect(&document_, &EditorDocument::structureChanged, this,
          [this] { QTimer::singleShot(0, this, [this] { rebuild(); }); });
  connect(&document_, &EditorDocument::parametersChanged, this,
          &InteractionMatrixPanel::refreshValues);
  rebuild();
}

void InteractionMatrixPanel::rebuild() {
  const QStringList ids = document_.materialIds();
  clear();
  setRowCount(int(ids.size()));
  setColumnCount(int(ids.size()));
  setHorizontalHeaderLabels(ids);
  setVerticalHeaderLabels(ids);
  EditorDocument& document = document_;
  for (int row = 0; row < ids.size(); ++row) {
    for (int column = 0; column < ids.size(); ++column) {
      const QString a = ids[row];
      const QString b = ids[column];
      const std::string pointer = document.interactionPointer(a, b);
      const Json entry = pointer.empty() ? Json() : *document.valueAt(pointer);
      auto* cell = new QWidget;
      cell->setObjectName(QStringLiteral("cell:%1:%2").arg(a, b));
      auto* layout = new QHBoxLayout(cell);
      layout->setContentsMargins(2, 0, 2, 0);
      auto* rule = new QComboBox;
      rule->setObjectName("rule");
      rule->addItem(tr("(none)"));
      rule->addItems(kRules);
      rule->setCurrentText(entry.is_object()
                               ? QString::fromStdString(entry.value("rule", std::string()))
                               : tr("(none)"));
      NumberFieldSpec kSpec{0.0, 1000.0, "m", tr("Blend radius of merge and carve"), false, 0.05};
      auto* k = new NumberField(
          document, kSpec,
          [&document, a, b] {
            const std::string p = document.interactionPointer(a, b);
            std::optional<Json> v = p.empty() ? std::nullopt : document.valueAt(p + "/k");
            return v && v->is_number() ? v->get<double>() : 0.0;
          },
          [&document, a, b, rule](double value) -> Expected<void> {
            if (rule->currentIndex() == 0) return {};  // no rule yet: k waits for one
            return document.setInteraction(a, b, rule->currentText(), value, kMergeValueDrag);
          });
      k->setObjectName("k");
      k->setEnabled(rule->currentIndex() != 0);
      connect(rule, &QComboBox::activated, rule, [&document, a, b, rule, k](int index) {
        if (index == 0) {
          const std::string p = document.interactionPointer(a, b);
          if (!p.empty()) document.removeValue(p);
          return;
        }
        document.setInteraction(a, b, rule->currentText(), k->value());
      });
      layout->addWidget(rule);
      layout->addWidget(k);
      setCellWidget(row, column, cell);
    }
  }
}

void InteractionMatrixPanel::refreshValues() {
  for (int row = 0; row < rowCount(); ++row)
    for (int column = 0; column < columnCount(); ++column)
      if (QWidget* cell = cellWidget(row, column))
        if (auto* k = cell->findChild<NumberField*>("k")) k->refresh();
}

}  // namespace floptle::editor
