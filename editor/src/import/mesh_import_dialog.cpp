#include "floptle/editor/mesh_import_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>

namespace floptle::editor {

using UpAxis = asset::ImportOptions::UpAxis;

MeshImportDialog::MeshImportDialog(const QString& fileName, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Import Mesh"));
  setObjectName("meshImportDialog");
  auto* form = new QFormLayout(this);
  form->addRow(new QLabel(tr("Import %1 as static nodes.").arg(fileName)));

  collision_ = new QComboBox;
  collision_->setObjectName("collisionChoice");
  collision_->addItem(tr("Triangle mesh (exact, BVH)"), int(asset::MeshCollision::TriangleMesh));
  collision_->addItem(tr("Baked field (sparse brickmap)"), int(asset::MeshCollision::BakedField));
  form->addRow(tr("Collision:"), collision_);

  upAxis_ = new QComboBox;
  upAxis_->setObjectName("upAxisChoice");
  upAxis_->addItem(tr("From the file (glTF, OBJ: +Y; FBX: its settings)"), int(UpAxis::Automatic));
  upAxis_->addItem(tr("+Y up"), int(UpAxis::Y));
  upAxis_->addItem(tr("+Z up (Blender's own axes, an OBJ exported with Up: Z)"), int(UpAxis::Z));
  form->addRow(tr("Up axis:"), upAxis_);

  perObject_ = new QCheckBox(tr("One node per object (Blender's objects, parents and transforms)"));
  perObject_->setObjectName("perObjectChoice");
  perObject_->setChecked(true);
  form->addRow(perObject_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

asset::MeshCollision MeshImportDialog::collision() const {
  return asset::MeshCollision(collision_->currentData().toInt());
}

UpAxis MeshImportDialog::upAxis() const {
  return UpAxis(upAxis_->currentData().toInt());
}

bool MeshImportDialog::perObject() const {
  return perObject_->isChecked();
}

void MeshImportDialog::setChoices(asset::MeshCollision collision, UpAxis upAxis) {
  collision_->setCurrentIndex(collision_->findData(int(collision)));
  upAxis_->setCurrentIndex(upAxis_->findData(int(upAxis)));
}

}  // namespace floptle::editor
