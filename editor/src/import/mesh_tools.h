#pragma once
// Installs the mesh-import and collider-wireframe tools into a MainWindow (called once from
// MainWindow::connectViewport, after the menus exist): File > Import Mesh's handler, the
// View menu's wireframe toggles, and the viewport layers for imported meshes and wireframes.
// The importer, the imported meshes' loads and the wireframes build through the window's mesh
// cache (MainWindow::meshCache).
// The tools are children of the window, found by object name:
//   ColliderWireframes "colliderWireframes", ImportedMeshView "importedMeshView",
//   MeshImporter "meshImporter"; actions "actionColliderWireframes" (Alt+W) and
//   "actionSelectionWireframe" (Alt+Shift+W).
namespace floptle::editor {

class MainWindow;

void installMeshTools(MainWindow& window);
/// Deletes the tools (from ~MainWindow, before the window's mesh cache goes).
void removeMeshTools(MainWindow& window);

}  // namespace floptle::editor
