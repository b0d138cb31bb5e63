#pragma once
// MeshImportDialog: the choices of File > Import Mesh after the file: how the mesh collides
// (triangles or a baked field) and which way is up, as `floptle import --collision --up`.
#include <QDialog>

#include "floptle/core/asset/mesh_import.h"
#include "floptle/core/asset/mesh_scene_entries.h"

class QComboBox;

class QCheckBox;

namespace floptle::editor {

class MeshImportDialog : public QDialog {
  Q_OBJECT

 public:
  /// `fileName` is shown in the title line.
  MeshImportDialog(const QString& fileName, QWidget* parent = nullptr);

  asset::MeshCollision collision() const;
  asset::ImportOptions::UpAxis upAxis() const;
  /// One node per object of the file (a subtree, the default) or the whole file as one node.
  bool perObject() const;
  /// Sets the choices (tests, and a later "same as last time").
  void setChoices(asset::MeshCollision collision, asset::ImportOptions::UpAxis upAxis);

 private:
  QComboBox* collision_ = nullptr;
  QComboBox* upAxis_ = nullptr;
  QCheckBox* perObject_ = nullptr;
};

}  // namespace floptle::editor
