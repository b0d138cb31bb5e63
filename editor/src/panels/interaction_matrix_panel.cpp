#include "floptle/editor/interaction_matrix_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QTimer>
#include <QToolButton>

#include "floptle/core/scene/component_values.h"
#include "floptle/editor/editor_document.h"
#include "inspector/driver_editor.h"
#include "inspector/inspector_sections.h"
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
  refreshers_.clear();
  setRowCount(int(ids.size()));
  setColumnCount(int(ids.size()));
  setHorizontalHeaderLabels(ids);
  setVerticalHeaderLabels(ids);
  EditorDocument& document = document_;
  InspectorContext context{document, refreshers_, noGravity_};
  // k's range, unit and help: core's interaction table, as loading the scene checks it.
  const NumberFieldSpec kSpec = numberFieldSpec("interaction", "k", 0.05);
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
      layout->addWidget(rule);
      const bool animated = entry.is_object() && entry.contains("k") && entry["k"].is_object();
      auto kNumber = [&document, a, b] {
        const std::string p = document.interactionPointer(a, b);
        const std::optional<Json> v = p.empty() ? std::nullopt : document.valueAt(p + "/k");
        if (v && v->is_number()) return v->get<double>();
        return v && v->is_object() ? v->value("base", 0.0) : 0.0;
      };
      if (animated) {
        layout->addWidget(makeScalarEditor(context, pointer + "/k", kSpec, 0.0));
      } else {
        auto* k = new NumberField(
            document, kSpec, kNumber, [&document, a, b, rule](double value) -> Expected<void> {
              if (rule->currentIndex() == 0) return {};  // no rule yet: k waits for one
              return document.setInteraction(a, b, rule->currentText(), value, kMergeValueDrag);
            });
        k->setObjectName("k");
        k->setEnabled(!pointer.empty());
        refreshers_.push_back([k] { k->refresh(); });
        layout->addWidget(k);
      }
      auto* animate = new QToolButton;
      animate->setText(QStringLiteral("~"));
      animate->setObjectName("animate");
      animate->setCheckable(true);
      animate->setChecked(animated);
      animate->setEnabled(!pointer.empty());
      animate->setToolTip(tr("Animate k with a driver (sine or keys): a blend that ramps in"));
      connect(animate, &QToolButton::clicked, animate, [&document, a, b, kNumber](bool on) {
        const std::string p = document.interactionPointer(a, b);
        if (p.empty()) return;
        document.setValue(p + "/k", on ? sineDriverFor(kNumber()) : Json(kNumber()));
      });
      layout->addWidget(animate);
      connect(rule, &QComboBox::activated, rule, [&document, a, b, rule, kNumber](int index) {
        const std::string p = document.interactionPointer(a, b);
        if (index == 0) {
          if (!p.empty()) document.removeValue(p);
          return;
        }
        // An existing entry keeps its k (a driver too); a new one starts at k = 0.
        if (!p.empty()) {
          document.setValue(p + "/rule", rule->currentText().toStdString());
        } else {
          document.setInteraction(a, b, rule->currentText(), kNumber());
        }
      });
      setCellWidget(row, column, cell);
    }
  }
}

void InteractionMatrixPanel::refreshValues() {
  for (const auto& refresh : refreshers_) refresh();
}

}  // namespace floptle::editor
