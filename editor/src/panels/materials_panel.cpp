#include "floptle/editor/materials_panel.h"

#include <QColorDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "floptle/editor/editor_document.h"
#include "inspector/number_field.h"

namespace floptle::editor {
namespace {

struct MaterialProperty {
  const char* key;
  const char* label;
  NumberFieldSpec spec;
};

// Ranges, units and help: the rows of core's component table (the scene schema's ranges).
const MaterialProperty kProperties[] = {
    {"density", "Density", numberFieldSpec("material", "density", 10.0)},
    {"friction", "Friction", numberFieldSpec("material", "friction", 0.05)},
    {"restitution", "Restitution", numberFieldSpec("material", "restitution", 0.05)},
    {"bulk_modulus", "Bulk modulus", numberFieldSpec("material", "bulk_modulus", 1e8)},
    {"yield_strength", "Yield strength", numberFieldSpec("material", "yield_strength", 1e6)},
};

QColor colorOf(const Json& rgb) {
  if (!rgb.is_array() || rgb.size() != 3) return Qt::gray;
  return QColor::fromRgbF(rgb[0].get<float>(), rgb[1].get<float>(), rgb[2].get<float>());
}

}  // namespace

MaterialsPanel::MaterialsPanel(EditorDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName("materialsPanel");
  auto* layout = new QVBoxLayout(this);
  list_ = new QListWidget;
  list_->setObjectName("materialList");
  layout->addWidget(list_, 1);
  auto* buttons = new QHBoxLayout;
  auto* add = new QPushButton(tr("Add"));
  add->setObjectName("addMaterial");
  auto* remove = new QPushButton(tr("Delete"));
  remove->setObjectName("deleteMaterial");
  buttons->addWidget(add);
  buttons->addWidget(remove);
  layout->addLayout(buttons);
  refusal_ = new QLabel;
  refusal_->setObjectName("materialRefusal");
  refusal_->setWordWrap(true);
  refusal_->setStyleSheet("color: #c04040");
  layout->addWidget(refusal_);
  form_ = new QWidget;
  layout->addWidget(form_, 2);

  connect(add, &QPushButton::clicked, this, [this] {
    Expected<QString> id = document_.addMaterial();
    if (id) {
      rebuildList();
      const QList<QListWidgetItem*> found = list_->findItems(*id, Qt::MatchExactly);
      if (!found.isEmpty()) list_->setCurrentItem(found.front());
    }
  });
  connect(remove, &QPushButton::clicked, this, [this] { deleteCurrent(); });
  connect(list_, &QListWidget::currentTextChanged, this, [this] {
    refusal_->clear();
    rebuildForm();
  });
  connect(&document_, &EditorDocument::structureChanged, this,
          [this] { QTimer::singleShot(0, this, [this] { rebuildList(); }); });
  connect(&document_, &EditorDocument::parametersChanged, this, [this] { refreshValues(); });
  rebuildList();
}

QString MaterialsPanel::lastRefusal() const {
  return refusal_->text();
}

bool MaterialsPanel::deleteCurrent() {
  QListWidgetItem* item = list_->currentItem();
  if (!item) return false;
  Expected<void> removed = document_.removeMaterial(item->text());
  if (!removed) {
    refusal_->setText(QString::fromStdString(removed.error().message()));
    emit refused(refusal_->text());
    return false;
  }
  return true;
}

void MaterialsPanel::rebuildList() {
  const QString current = list_->currentItem() ? list_->currentItem()->text() : QString();
  const QSignalBlocker blocker(list_);
  list_->clear();
  for (const QString& id : document_.materialIds()) {
    auto* item = new QListWidgetItem(id, list_);
    QPixmap swatch(12, 12);
    swatch.fill(
        colorOf(document_.valueAt(document_.materialPointer(id) + "/color").value_or(Json())));
    item->setIcon(QIcon(swatch));
  }
  const QList<QListWidgetItem*> found = list_->findItems(current, Qt::MatchExactly);
  if (!found.isEmpty()) {
    list_->setCurrentItem(found.front());
  } else if (list_->count() > 0) {
    list_->setCurrentRow(0);
  }
  rebuildForm();
}

void MaterialsPanel::rebuildForm() {
  refreshers_.clear();
  auto* fresh = new QWidget;
  auto* form = new QFormLayout(fresh);
  form->setContentsMargins(0, 0, 0, 0);
  delete layout()->replaceWidget(form_, fresh);  // the old layout item, not the widget
  form_->deleteLater();
  form_ = fresh;
  if (!list_->currentItem()) return;
  const std::string pointer = document_.materialPointer(list_->currentItem()->text());
  if (pointer.empty()) return;
  EditorDocument& document = document_;

  auto* name = new QLineEdit(QString::fromStdString(
      document.valueAt(pointer + "/name").value_or(Json("")).get<std::string>()));
  name->setPlaceholderText(tr("optional display name"));
  connect(name, &QLineEdit::editingFinished, name, [&document, pointer, name] {
    document.setValue(pointer + "/name", name->text().toStdString());
  });
  form->addRow(tr("Name"), name);

  auto* color = new QPushButton;
  color->setObjectName("materialColor");
  auto paint = [&document, pointer, color] {
    const QColor c = colorOf(document.valueAt(pointer + "/color").value_or(Json()));
    color->setStyleSheet(QStringLiteral("background-color: %1").arg(c.name()));
    color->setText(c.name());
  };
  paint();
  refreshers_.push_back(paint);
  connect(color, &QPushButton::clicked, color, [&document, pointer, color] {
    const QColor initial = colorOf(document.valueAt(pointer + "/color").value_or(Json()));
    const QColor chosen = QColorDialog::getColor(initial, color, tr("Material colour"));
    if (chosen.isValid())
      document.setValue(pointer + "/color", Json{chosen.redF(), chosen.greenF(), chosen.blueF()});
  });
  form->addRow(tr("Colour"), color);

  for (const MaterialProperty& property : kProperties) {
    const std::string key = pointer + "/" + property.key;
    auto* field = new NumberField(
        document, property.spec,
        [&document, key] {
          std::optional<Json> v = document.valueAt(key);
          return v && v->is_number() ? v->get<double>() : 0.0;
        },
        [&document, key](double v) { return document.setValue(key, v, kMergeValueDrag); });
    field->setObjectName(QString::fromUtf8(property.key));
    refreshers_.push_back([field] { field->refresh(); });
    form->addRow(tr(property.label), field);
  }
}

void MaterialsPanel::refreshValues() {
  for (const auto& refresh : refreshers_) refresh();
}

}  // namespace floptle::editor
