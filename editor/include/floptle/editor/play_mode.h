#pragma once
// PlayMode: the editor side of play (issue 6 "The editor", issue 5 "In the editor"). It owns
// the PlaySession and turns the window into a play test while it runs:
//  - Play menu and toolbar: Play / Pause (Ctrl+P or F5), Step one tick (F10), Stop (Shift+F5
//    or Escape). Play builds the simulation on a worker (PlaySession::building()); a build
//    that takes longer than kBuildDialogDelayMs shows a progress dialog with Cancel, the
//    window staying usable. Play or Stop pressed during the build cancels it: the editor stays
//    in edit mode, the document untouched, and the log says so. A failed build is refused in
//    the log and the status bar. The window is tinted (amber menu bar, status bar and viewport
//    frame) while playing, and a HUD shows tick, step time (ms) and contacts, with a live plot of
//    the player's speed (m/s) and height (m).
//  - The scene tree, inspector and materials docks are bound to the play copy: edits made
//    while playing go to the copy (its own undo stack, shown in History and behind Undo/Redo),
//    and the running simulation takes what it can live (see PlaySession). Stop drops the copy
//    and rebinds the docks to the document, which was never written, so the edit state (JSON,
//    undo stack, selection, camera) is exactly what it was at Play.
//  - Input on the viewport: W A S D walk the player character relative to the view, Space
//    jumps, dragging with the right mouse button turns the follow camera; the arrows drive the
//    vehicle (Up throttle, Down brake / reverse, Left / Right steer). The camera follows the
//    player and eases its up vector toward the gravity's up.
//  - Recorded sessions (PlaySession): every play session (physics or Drift) is recorded and written
//    beside the scene on Stop (NAME.session.json); Play > Replay Session plays it back and
//    reports in the log whether it equals the recording (or the first tick that differs);
//    Play > Export Session Inputs writes its inputs as a `floptle simulate --inputs` file.
//    While playing, the timeline (an overlay along the bottom of the viewport, PlayTimeline)
//    scrubs, steps back and branches; the Session dock (SessionPanel) plots the recording's series
//    with its cursor.
//  - Drift scenes: a click on the water (y = 0) queues a ripple there; the debug overlay
//    draws the hull, each ring's physical band (r +- (half width + boat radius)), the last
//    contact's fraction and normal and the water velocity; the ocean's pattern scrolls with
//    its own velocity (drift component key "ocean_pattern_velocity"), not the water's.
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include <QElapsedTimer>
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QProgressDialog>
#include <QStringList>

#include "floptle/core/math.h"
#include "floptle/core/render/camera.h"
#include "floptle/editor/play_session.h"

class QAction;
class QDockWidget;
class QMenu;
class QToolBar;
class QWidget;
class QLabel;

namespace floptle {
class BrickMap;
}

namespace floptle::editor {

class MainWindow;
class InspectorPanel;
class PlayHud;
class PlayPlot;
class PlayTimeline;
class SessionPanel;

/// How long a Play build runs before its progress dialog shows (ms).
inline constexpr int kBuildDialogDelayMs = 500;

class PlayMode : public QObject {
  Q_OBJECT

 public:
  explicit PlayMode(MainWindow& window);
  ~PlayMode() override;

  /// Adds the play actions to `menu` and to a "Play" toolbar of the window.
  void createActions(QMenu* menu);

  PlaySession& session() { return session_; }
  /// The build's progress dialog (null when none is shown).
  QProgressDialog* buildProgressDialog() const { return buildDialog_; }
  bool playing() const { return session_.active(); }
  /// While playing, the inspector bound to the play copy (null when stopped).
  InspectorPanel* copyInspector() const { return copyInspector_; }
  /// The HUD's text ("tick 12  step 0.04 ms  contacts 1") and the plot's samples.
  QString hudText() const;
  PlayPlot* plot() const { return plot_; }
  PlayTimeline* timeline() const { return timeline_; }
  SessionPanel* sessionPanel() const { return sessionPanel_; }
  /// Replays the session file at `path` on the document (the log says how it went); false
  /// when the file cannot be read or play cannot start (the log says why).
  bool replayFile(const QString& path);
  /// Writes the inputs of the session playing now, else of the scene's session file, to
  /// `path` (an inputs file of `floptle simulate`); false with the reason in the log.
  bool exportInputsTo(const QString& path);
  /// Camera follow state: yaw about up (rad) of the view direction; W walks along it.
  double followYaw() const { return yaw_; }
  void setFollowYaw(double radians) { yaw_ = radians; }
  /// The eased up vector of the follow camera (-).
  Vec3 cameraUp() const { return cameraUp_; }

 public slots:
  /// Stopped: Play. Playing: Pause. Paused: resume.
  void togglePlay();
  void play();
  void step();
  void stop();
  /// Play > Replay Session: the session file beside the scene.
  void replay();
  /// Play > Export Session Inputs...: asks for the file, then exportInputsTo.
  void exportInputs();

 public:
  /// A viewport click while playing: in a Drift scene a ray hitting the water (y = 0) queues a
  /// ripple at that XZ point. Returns true when it placed one.
  bool handleClick(const Ray& ray);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // play_mode.cpp
  void onStateChanged(PlayState state);
  void enterPlay();
  void leavePlay();
  void swapPanels(bool toCopy);
  void setTint(bool on);
  void updateActions();
  void forwardSelection(const QStringList& names);
  void onBuildingChanged(bool building);
  void onBuildProgress(float fraction, const QString& stage);
  void onBuildFinished(bool playing);
  // play_view.cpp
  void onTicked();
  void updateField();
  void updateCamera();
  void drawPlayerOverlay();
  void drawDriftOverlay();
  void drawOcean();
  void clearOverlays();
  void placeHudWidgets();
  // play_matter_view.cpp
  /// Draws the soft bodies from the simulation's matter brickmaps; false when they are not
  /// (no soft bodies, or the atlas refused a map: they are then drawn rigidly).
  bool syncMatterMap();
  void dropMatterMap();
  // play_input.cpp
  void updateControls();

  MainWindow& window_;
  PlaySession session_;
  QPointer<QProgressDialog> buildDialog_;
  QElapsedTimer buildClock_;
  /// Step (F10) pressed while stopped: one tick once the build is in.
  bool stepWhenStarted_ = false;
  QAction* playAction_ = nullptr;
  QAction* stepAction_ = nullptr;
  QAction* stopAction_ = nullptr;
  QAction* replayAction_ = nullptr;
  QAction* exportAction_ = nullptr;
  QAction* stepBackAction_ = nullptr;
  QAction* branchAction_ = nullptr;
  QToolBar* toolbar_ = nullptr;
  PlayTimeline* timeline_ = nullptr;
  SessionPanel* sessionPanel_ = nullptr;

  // Docks rebound to the copy while playing: (dock, the document's panel).
  struct SwappedDock {
    QDockWidget* dock = nullptr;
    QPointer<QWidget> original;
    QPointer<QWidget> copyPanel;
  };
  std::vector<SwappedDock> swapped_;
  InspectorPanel* copyInspector_ = nullptr;
  QStringList savedSelection_;
  bool forwarding_ = false;
  render::Camera savedCamera_;
  /// The viewport's brick maps of the matter's surfaces (one per material), and the first
  /// BrickMap they copy (a new simulation has new ones).
  std::vector<int> matterMaps_;
  const BrickMap* matterMapSource_ = nullptr;
  /// The log said once why the soft bodies are drawn rigidly.
  bool matterMapFailed_ = false;
  /// The copy was edited since the play field was last drawn (updateField redraws it).
  bool copyEdited_ = false;

  // HUD (children of the viewport) and the tint frame.
  QLabel* hud_ = nullptr;
  PlayPlot* plot_ = nullptr;
  QWidget* frame_ = nullptr;

  // Controls held (keys) and the follow camera.
  std::set<int> keys_;
  bool turning_ = false;
  QPointF lastMouse_;
  double yaw_ = 0.0;       ///< view direction about up, 0 = looking along -Z (rad)
  double pitch_ = 0.35;    ///< camera above the horizon (rad)
  double distance_ = 7.0;  ///< (m)
  Vec3 cameraUp_{0.0f, 1.0f, 0.0f};
  double lastFrameSeconds_ = 0.0;
  double oceanTime_ = 0.0;  ///< presentation time of the ocean pattern (s)
};

}  // namespace floptle::editor
