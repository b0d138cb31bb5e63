// Inspector section for the "drift" component (issue 5): one number field per tuning key (a
// pair of fields for [x, z] keys), each written through setDriftValue, which validates the
// whole tuning first: a refused value names its key (shown under the fields and in the log)
// and the document keeps the old one. Edits are undo commands; while playing, the inspector
// is bound to the play copy and the running sandbox takes the new tuning at once.
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>

#include "floptle/editor/editor_document.h"
#include "floptle/editor/play_drift_edit.h"
#include "inspector/inspector_sections.h"
#include "inspector/number_field.h"

namespace floptle::editor {

QWidget* makeDriftSection(InspectorContext& context, const std::string& nodePointer) {
  EditorDocument& document = context.document;
  const std::string component = nodePointer + "/drift";
  auto* box = new QGroupBox(QObject::tr("Drift"));
  box->setObjectName("driftSection");
  box->setToolTip(QObject::tr("The boat-on-water simulation's tuning; validated as a whole"));
  auto* form = new QFormLayout(box);
  auto* refusal = new QLabel;
  refusal->setObjectName("driftRefusal");
  refusal->setWordWrap(true);
  refusal->setStyleSheet("color: #c0392b;");
  refusal->hide();
  for (const DriftKeySpec& spec : driftKeySpecs()) {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    for (int c = 0; c < spec.components; ++c) {
      const int part = spec.components == 2 ? c : -1;
      NumberFieldSpec numberSpec;
      numberSpec.min = -1e9;  // the tuning's own validation refuses, naming the key
      numberSpec.max = 1e9;
      numberSpec.unit = QString::fromUtf8(spec.unit);
      numberSpec.help = QString::fromUtf8(spec.help);
      numberSpec.step = 0.05;
      const std::string key = spec.key;
      auto* field = new NumberField(
          document, numberSpec,
          [&document, component, spec, c] { return driftValue(document, component, spec, c); },
          [&document, component, key, part, refusal](double value) -> Expected<void> {
            Expected<void> written =
                setDriftValue(document, component, key, value, part, kMergeValueDrag);
            if (!written) {
              const QString text =
                  QObject::tr("Refused: %1").arg(QString::fromStdString(written.error().message()));
              refusal->setText(text);
              refusal->show();
              emit document.message(text);
            } else {
              refusal->hide();
            }
            return written;
          });
      field->setObjectName(QString::fromStdString(
          spec.components == 2 ? "drift:" + key + (c == 0 ? ".x" : ".z") : "drift:" + key));
      layout->addWidget(field);
      context.refreshers.push_back([field] { field->refresh(); });
    }
    form->addRow(QObject::tr(spec.label), row);
  }
  form->addRow(refusal);
  return box;
}

}  // namespace floptle::editor
