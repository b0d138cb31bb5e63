// MainWindow: File > Import Mesh, imported meshes in the viewport and collider wireframes
// (View > Collider Wireframes, View > Wireframe of Selection).
#include <QAction>
#include <QMenu>
#include <QMenuBar>

#include "floptle/core/file_path.h"
#include "floptle/editor/editor_document.h"
#include "floptle/editor/import_mesh.h"
#include "floptle/editor/import_mesh_view.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/mesh_subtree_reloader.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/editor/scene_tree_panel.h"
#include "floptle/editor/wireframe_overlay.h"
#include "import/mesh_tools.h"
#include "viewport/baked_field_maps.h"

namespace floptle::editor {
namespace {

QMenu* viewMenu(MainWindow& window) {
  for (QAction* action : window.menuBar()->actions())
    if (action->menu() && action->text().remove('&') == QObject::tr("View")) return action->menu();
  return window.menuBar()->addMenu(QObject::tr("&View"));
}

}  // namespace

void installMeshTools(MainWindow& window) {
  EditorDocument& document = window.document();
  RaymarchView& view = *window.viewport();

  auto* wireframes = new ColliderWireframes(document, view, &window.meshCache(), &window);
  wireframes->setObjectName("colliderWireframes");
  auto* meshes = new ImportedMeshView(document, view, &window.meshCache(), &window);
  meshes->setObjectName("importedMeshView");
  auto* importer = new MeshImporter(document, window.meshCache(), &window);
  importer->setObjectName("meshImporter");
  // A re-exported file's subtree follows the file: one undo step, the user's edits kept.
  auto* subtrees = new MeshSubtreeReloader(document, &window);
  subtrees->setObjectName("meshSubtreeReloader");
  QObject::connect(meshes, &ImportedMeshView::sourceChanged, subtrees,
                   &MeshSubtreeReloader::fileChanged);

  LogPanel* log = window.log();
  // baked_field nodes drawn from their bricks (what physics collides with).
  auto* bakedFields = new BakedFieldView(document, view, &window);
  QObject::connect(bakedFields, &BakedFieldView::message, log, &LogPanel::appendMessage);
  QObject::connect(importer, &MeshImporter::message, log, &LogPanel::appendMessage);
  QObject::connect(meshes, &ImportedMeshView::message, log, &LogPanel::appendMessage);
  QObject::connect(subtrees, &MeshSubtreeReloader::message, log, &LogPanel::appendMessage);
  // A re-exported mesh: its collider wireframe is extracted again (its node did not change).
  QObject::connect(meshes, &ImportedMeshView::reloaded, wireframes,
                   &ColliderWireframes::filesChanged);
  QObject::connect(wireframes, &ColliderWireframes::failed, log,
                   [log](const QString& node, const QString& why) {
                     log->appendMessage(QObject::tr("Collider wireframe of %1: %2").arg(node, why));
                   });
  QObject::connect(
      importer, &MeshImporter::meshReady, meshes, [meshes, importer](const QString& path) {
        if (const asset::TriangleMesh* mesh = importer->lastMesh())
          meshes->prime(ImportedMeshView::meshCacheKey(absoluteNormal(path.toStdString()).string(),
                                                       importer->lastOptions()),
                        *mesh);
      });
  window.setImportMeshHandler([importer] { importer->runDialog(); });

  QMenu* menu = viewMenu(window);
  menu->addSeparator();
  QAction* all = menu->addAction(QObject::tr("Collider &Wireframes"));
  all->setObjectName("actionColliderWireframes");
  all->setCheckable(true);
  all->setShortcut(QKeySequence(QObject::tr("Alt+W")));
  QObject::connect(all, &QAction::toggled, wireframes, &ColliderWireframes::setEnabled);

  QAction* selected = menu->addAction(QObject::tr("Wireframe of &Selection"));
  selected->setObjectName("actionSelectionWireframe");
  selected->setCheckable(true);
  selected->setShortcut(QKeySequence(QObject::tr("Alt+Shift+W")));
  auto syncSelected = [selected, wireframes, &document] {
    const QStringList names = document.selection();
    bool shown = !names.isEmpty();
    for (const QString& name : names) shown = shown && wireframes->nodeShown(name);
    const QSignalBlocker block(selected);
    selected->setEnabled(!names.isEmpty());
    selected->setChecked(shown);
  };
  QObject::connect(selected, &QAction::triggered, wireframes,
                   [wireframes, &document](bool checked) {
                     for (const QString& name : document.selection())
                       wireframes->setNodeShown(name, checked);
                   });
  QObject::connect(&document, &EditorDocument::selectionChanged, selected, syncSelected);
  QObject::connect(wireframes, &ColliderWireframes::updated, selected, syncSelected);
  syncSelected();
}

void removeMeshTools(MainWindow& window) {
  // Each waits for its worker, which may be building through the window's mesh cache.
  delete window.findChild<MeshImporter*>(QStringLiteral("meshImporter"));
  delete window.findChild<MeshSubtreeReloader*>(QStringLiteral("meshSubtreeReloader"));
  delete window.findChild<ColliderWireframes*>(QStringLiteral("colliderWireframes"));
  delete window.findChild<ImportedMeshView*>(QStringLiteral("importedMeshView"));
}

}  // namespace floptle::editor
