#pragma once
// MainWindow: the editor's window. The viewport in the centre; docks for the scene tree,
// inspector, materials, interaction matrix, log and undo history; the menus and shortcuts
// users expect. It owns the document; panels observe it. Dock layout, recent files and
// preferences persist through QSettings; an autosave writes a recovery file every 30 s and the
// next start after a crash offers it back. It owns the editor's one mesh collider cache, which
// Import Mesh, the collider wireframes and play mode all build through.
//
// Split by topic: main_window.cpp (construction, docks, title, closing), main_window_menus.cpp,
// main_window_files.cpp (new / open / save / recent), main_window_viewport.cpp (document ->
// viewport, picking, gizmo, frame selected, status bar).
#include <functional>
#include <memory>
#include <optional>

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>

#include "floptle/core/math.h"
#include "floptle/editor/editor_document.h"
#include "floptle/editor/scene_picker.h"

class QLabel;
class QTimer;
class QUndoGroup;
class QUndoView;

namespace floptle::physics {
class MeshColliderCache;
}

namespace floptle::editor {

class RaymarchView;
class SceneTreePanel;
class InspectorPanel;
class MaterialsPanel;
class InteractionMatrixPanel;
class LogPanel;
class PlayMode;
class GravityTools;
class RecoveryFile;
class RecentFiles;
struct GizmoDelta;
enum class GizmoMode;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  EditorDocument& document() { return document_; }
  /// The mesh collider cache every mesh collider of this window is built through: a mesh
  /// imported (and baked) once is found by the wireframes and by every Play.
  physics::MeshColliderCache& meshCache() { return *meshCache_; }
  RaymarchView* viewport() const { return viewport_; }
  SceneTreePanel* sceneTree() const { return sceneTree_; }
  InspectorPanel* inspector() const { return inspector_; }
  MaterialsPanel* materials() const { return materials_; }
  InteractionMatrixPanel* interactionMatrix() const { return matrix_; }
  LogPanel* log() const { return log_; }
  QUndoView* undoHistory() const { return undoView_; }
  /// Undo / Redo follow the active stack of this group: the document's, or while playing the
  /// play copy's (see PlayMode).
  QUndoGroup* undoGroup() const { return undoGroup_; }
  /// Play mode (Play menu, toolbar, HUD); see play_mode.h.
  PlayMode* playMode() const { return playMode_.get(); }
  /// The gravity field's regions, sources and slice arrows in the viewport (View > Gravity
  /// Arrows); see gravity_tools.h.
  GravityTools* gravityTools() const { return gravityTools_; }
  /// Shows the document's field in the viewport again (after play showed its own).
  void refreshViewport();
  const ScenePicker& picker() const { return picker_; }
  /// The action with this object name ("actionSave", "actionFrameSelected", ...), or nullptr.
  QAction* action(const QString& objectName) const;

  /// Opens a scene file without asking about unsaved changes; false (and a log line) when
  /// refused.
  bool openFile(const QString& path);
  /// Selects the node under a world ray (Shift adds to / removes from the selection); returns
  /// the node picked, empty for none.
  QString selectByRay(const Ray& ray, bool extend = false);
  /// Offers the recovery file of a crashed session, if there is one (asks the user).
  void offerRecovery();
  RecoveryFile& recovery() { return *recovery_; }
  /// Help > About's text: the application's version and build commit, and Qt's version.
  static QString aboutText();

  /// Hooks: play (replaces the built-in play mode's Play / Pause when set) and mesh import
  /// (without one, the action says so in the log and the status bar).
  void setPlayHandler(std::function<void()> handler) { playHandler_ = std::move(handler); }
  void setImportMeshHandler(std::function<void()> handler) { importHandler_ = std::move(handler); }

 public slots:
  void newFile();
  void openDialog();
  bool save();
  bool saveAs();
  void duplicateSelection();
  void deleteSelection();
  void frameSelected();
  void play();
  void importMesh();
  /// Starts or stops field time (View > Run Time, T): while it runs, animated parameters
  /// (drivers, keys) are evaluated at the advancing time and the viewport shows the morph.
  void setTimeRunning(bool running);

 public:
  bool timeRunning() const;
  /// The transform tool the gizmo shows on a selection (View > Move / Rotate / Scale Tool,
  /// W / E / R in the viewport and tree).
  void setGizmoTool(GizmoMode mode);
  GizmoMode gizmoTool() const { return gizmoTool_; }
  /// Field time shown in the viewport (s).
  double fieldTime() const { return fieldTime_; }

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void createDocks();
  void createMenus();
  void connectViewport();
  /// Gravity tools, their View action and the inspector's gravity hooks (main_window_gravity.cpp).
  void installGravityTools(QMenu* view);
  void restoreSettings();
  /// The first-run dock sizes (no saved layout): the viewport gets most of the window.
  void applyDefaultDockSizes();
  void saveSettings() const;
  void updateTitle();
  void rebuildRecentMenu();
  void noteRecent(const QString& path);
  /// Asks to save unsaved changes; false when the user cancels.
  bool maybeSave();
  void syncViewport(bool structural);
  void syncSelectionOverlay();
  void onGizmoStarted();
  void onGizmoDragged(const GizmoDelta& delta);
  void onGizmoCancelled();
  void advanceFieldTime();

  /// First: it outlives every tool and play session that builds through it.
  std::unique_ptr<physics::MeshColliderCache> meshCache_;
  EditorDocument document_;
  ScenePicker picker_;
  RaymarchView* viewport_ = nullptr;
  SceneTreePanel* sceneTree_ = nullptr;
  InspectorPanel* inspector_ = nullptr;
  MaterialsPanel* materials_ = nullptr;
  InteractionMatrixPanel* matrix_ = nullptr;
  LogPanel* log_ = nullptr;
  QUndoView* undoView_ = nullptr;
  QUndoGroup* undoGroup_ = nullptr;
  QMenu* recentMenu_ = nullptr;
  QLabel* frameTimeLabel_ = nullptr;
  GravityTools* gravityTools_ = nullptr;
  std::unique_ptr<RecoveryFile> recovery_;
  std::unique_ptr<RecentFiles> recent_;
  std::function<void()> playHandler_;
  std::function<void()> importHandler_;
  /// Transforms (JSON) of the dragged nodes at gizmoDragStarted, by node name.
  std::vector<std::pair<QString, Json>> gizmoStart_;
  /// Field time (s) and the wall clock that advances it while time runs (viewport only; the
  /// simulation has its own fixed-step clock).
  /// Set to Translate when the menus are made (an opaque enum here: value 0 is None).
  GizmoMode gizmoTool_{};
  double fieldTime_ = 0.0;
  QTimer* timeTimer_ = nullptr;
  QElapsedTimer timeClock_;
  /// Last member: destroyed first, while the docks and the document it rebinds still live.
  std::unique_ptr<PlayMode> playMode_;
};

}  // namespace floptle::editor
