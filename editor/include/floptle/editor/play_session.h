#pragma once
// PlaySession: the running half of the editor's play mode (ARCHITECTURE.md, "The editor":
// Play builds a simulation from a copy of the document; Stop throws the copy away).
//
// start() copies the document into a play copy (an EditorDocument of its own, with its own undo
// stack; its JSON and the typed scene already derived from it, so nothing is checked or built
// twice) and builds from that copy a runtime::SceneRuntime (the one assembly the CLI
// and the tests use, which chooses the physics simulation or the Drift sandbox).
//
// The build runs on a worker thread (mesh imports and bakes can take seconds): start() returns
// at once and the session is building() meanwhile. Its state stays Stopped while it builds (no
// copy, no simulation: everything that asks state() or active() keeps its meaning); it
// reports buildProgress() and ends with buildFinished(): playing (stateChanged(Playing)), or
// not (buildFailed() first, with the error or the cancel). cancelBuild(), stop() and a second
// start() stop a running build. Edits of the editor's document during the build do not reach
// the simulation: it is built from the copy taken at start(). Mesh colliders are built
// through the mesh cache the session is given, so a second Play neither imports nor bakes.
// The editor document is never written while playing: edits made in play go to the copy, and
// the values the running simulation can take live (material friction / restitution /
// density, character and vehicle controller values, the whole Drift tuning) are installed in
// it at once; geometry edits wait for the next Play. stop() drops the copy and the simulation.
//
// Time: a QTimer (~60 Hz) measures the wall time between frames and feeds it to the
// simulation's FixedStepClock (the same clamp / tick cap / debt rules as Simulation::advance
// and Sandbox::advanceFrame). Pause stops the clock; stepOnce() runs exactly one tick.
// The wall clock only ever decides how many ticks run, never what a tick computes.
//
// Recording (play_session_record.cpp): every session records its inputs as tick-addressed
// events (the player's controls reach the simulation only through them, so the run and its
// replay take the same path), the edits of the copy as JSON patches by tick (installed
// through runtime::TuningSchedule, so a scrub restores the tuning in effect there), the state
// hash after every tick, snapshots every N ticks (runtime::SnapshotKeeper) and the per-tick
// series (runtime::SeriesTable; physics only). Drift scenes (play_session_drift.cpp) record
// the same way in Drift's input format: a ripple click is a {"tick", "place"} command given
// to the sandbox when its tick runs, an edit of the drift component a {"tick", "tuning"}
// command of the keys it changed (installed at once as well). Stop writes it beside the scene as
// NAME.session.json (runtime/play_recording.h). startReplay() plays a recording back
// instead: its inputs and edits, each tick's hash compared, the first differing tick
// reported; the player's controls are ignored, and an edit or branch() makes it a recording
// again from the current tick. seek() goes to any tick of the timeline: the nearest kept
// snapshot at or before it, then steps forward; running on from a tick before the end of a
// recording branches it (what came after is dropped).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <string_view>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/drift/replay.h"
#include "floptle/editor/editor_document.h"
#include "floptle/physics/simulation.h"
#include "floptle/physics/simulation_ids.h"
#include "floptle/runtime/play_recording.h"
#include "floptle/runtime/scene_runtime.h"
#include "floptle/runtime/session_snapshots.h"
#include "floptle/runtime/session_tuning.h"
#include "floptle/runtime/tick_series.h"

class QTimer;
template <class T>
class QFutureWatcher;

namespace floptle::physics {
class MeshColliderCache;
class Simulation;
}  // namespace floptle::physics
namespace floptle::drift {
class Sandbox;
}

namespace floptle::editor {

class PlayScripts;

enum class PlayState { Stopped, Playing, Paused };
enum class PlayKind { Physics, Drift };

/// A scene node the simulation moves: its world transform at the previous and the current
/// tick (the view interpolates between them by alpha).
struct MovedNode {
  /// Index into the play copy's derived scene nodes.
  int sceneIndex = -1;
  /// What moves it: exactly one of these is not null (empty).
  physics::BodyId body;
  physics::CharacterId character;
  physics::VehicleId vehicle;
  /// A soft body (its node's name in the matter stage): the node is drawn with the body's best
  /// rigid transform (matter::bestRigidTransform, the whole body's shape match) until the
  /// viewport draws the matter's brickmap.
  std::string softBody;
  /// Simulated pose -> node world transform (constant: the node is rigid on its body).
  Transform offset;
  Transform previous;
  Transform current;
};

class PlaySession : public QObject {
  Q_OBJECT

 public:
  /// Mesh colliders are built through `meshCache` (null: none); it must outlive the session.
  explicit PlaySession(physics::MeshColliderCache* meshCache = nullptr, QObject* parent = nullptr);
  /// Cancels a running build and waits for its worker.
  ~PlaySession() override;

  /// Copies `document` (its JSON, typed scene and file path, which resolves relative asset
  /// paths) and starts building the simulation from the copy on a worker thread; returns at
  /// once. An error returned here (a build already running) starts nothing; the build's own
  /// errors come through buildFailed().
  Expected<void> start(const EditorDocument& document);
  /// Whether a build started by start() is still running (the state is Stopped meanwhile).
  bool building() const { return build_ != nullptr; }
  /// Asks the running build to stop; it ends with buildFailed(..., true), nothing playing.
  void cancelBuild();
  /// Cancels a running build; drops the copy and the simulation.
  void stop();
  void setPaused(bool paused);
  /// Runs exactly one fixed tick (pauses first when playing).
  void stepOnce();
  /// Feeds one frame's wall time (s) to the fixed-step clock and runs the ticks it grants.
  /// Returns the ticks run. (The timer calls this; tests may too.)
  int advanceFrame(double seconds);

  PlayState state() const { return state_; }
  bool active() const { return state_ != PlayState::Stopped; }
  PlayKind kind() const { return kind_; }
  /// The play copy (null when stopped). Edits to it reach the running simulation.
  EditorDocument* copy() const { return copy_.get(); }
  /// The running physics simulation / Drift sandbox (null when stopped or of the other kind).
  physics::Simulation* simulation() const { return runtime_ ? runtime_->physics() : nullptr; }
  drift::Sandbox* sandbox() const { return runtime_ ? runtime_->drift() : nullptr; }

  /// Ticks completed (-), interpolation factor (-), fixed step (s).
  std::uint64_t tick() const;
  double alpha() const;
  /// What the view interpolates by: alpha() while playing, 1 while paused (a Step shows the
  /// tick it ran, not the one before).
  double viewAlpha() const { return state_ == PlayState::Paused ? 1.0 : alpha(); }
  double fixedDt() const;
  /// Wall time of one tick, averaged over the last frame that ran ticks (ms).
  double stepMs() const { return stepMs_; }
  /// Contacts of the last tick: rigid-body world and body contacts, wheels on the ground and
  /// grounded characters; for Drift, ripple contacts so far.
  std::uint64_t contacts() const;

  // ---- player input (physics) ---------------------------------------------------------------
  /// The controlled character / vehicle: the first of the scene (null when none).
  std::optional<std::uint32_t> playerCharacter() const;
  std::optional<std::uint32_t> playerVehicle() const;
  /// Desired direction of the player character in its move frame (x side, y forward; the
  /// world's X and Z under the default gravity), |move| <= 1.
  void setMove(Vec2 move);
  /// A jump edge, consumed by the next tick.
  void jump();
  void setVehicleControls(float throttle, float brake, float steer);
  /// The player's position (m) and velocity (m/s) (character first, else vehicle chassis,
  /// else the Drift boat on y = 0); nullopt when there is no player.
  std::optional<Vec3> playerPosition() const;
  std::optional<Vec3> playerVelocity() const;
  /// Interpolated player position for the view (m).
  std::optional<Vec3> playerPositionInterpolated() const;
  /// The player's up (-): the character's own, else -g / |g| at the vehicle; +Y otherwise.
  Vec3 up() const;
  /// The gravity field at the player's position now (m/s^2): what the field gives there,
  /// before the body's response and easing; nullopt when there is no physics player.
  std::optional<Vec3> playerGravity() const;
  /// The player character's move-frame forward (unit, perpendicular to its up): the direction
  /// move (0, 1) walks; nullopt without a character.
  std::optional<Vec3> moveForward() const;

  /// Nodes the simulation moves, with their last two poses.
  const std::vector<MovedNode>& movedNodes() const { return moved_; }

  // ---- Drift --------------------------------------------------------------------------------
  /// Records a ripple placement at (x, z) on the water (m), given to the sandbox when the
  /// next tick runs; false when refused (the sandbox's queue would be full, a replay
  /// running, not a Drift scene).
  bool placeRipple(double x, double z);
  /// Name of the node carrying the "drift" component and its pointer in the copy.
  QString driftNode() const { return driftNode_; }

  // ---- recording, replay, timeline (play_session_record.cpp) ---------------------------------
  /// Like start(), then plays `recording` back (its scene hash is compared with the
  /// document's; a difference is reported, the replay runs all the same).
  Expected<void> startReplay(const EditorDocument& document, runtime::PlayRecording recording);
  /// Whether this session records and whether it replays a recording.
  bool recording() const { return recordingOn_ && !replaying_; }
  bool replaying() const { return recordingOn_ && replaying_; }
  /// The recording so far (or the one replayed).
  const runtime::PlayRecording& recordingData() const { return recording_; }
  /// Replay: the first tick whose state hash differs from the recording (empty: none yet).
  std::optional<std::uint64_t> firstDifferingTick() const { return firstDiffering_; }
  /// The last tick of the timeline: the recording's length (at least the current tick).
  std::uint64_t endTick() const;
  /// Goes to `tick` (clamped to [0, endTick()]) and pauses there: the nearest kept snapshot,
  /// then steps forward with the recorded inputs and edits.
  Expected<void> seek(std::uint64_t tick);
  /// One tick back (seek(tick - 1)).
  Expected<void> stepBack();
  /// Makes the current tick the end of a new recording: inputs, edits, hashes, snapshots and
  /// series after it are dropped; a replay becomes a recording.
  void branch();
  /// Writes the recording to `path` (the session file) / its inputs alone (an inputs file).
  Expected<void> saveRecording(const QString& path) const;
  Expected<void> exportInputs(const QString& path) const;
  /// The session file of the scene being played ("" when it has no file).
  QString sessionPath() const;
  const runtime::SeriesTable& series() const { return series_; }
  const runtime::SnapshotKeeper& snapshots() const { return snapshots_; }

 signals:
  void stateChanged(floptle::editor::PlayState state);
  /// A build began (start()) or ended (buildFinished()).
  void buildingChanged(bool building);
  /// The running build's progress, polled every ~50 ms: fraction of the build in [0, 1] (-)
  /// and the stage in words.
  void buildProgress(float fraction, const QString& stage);
  /// The build is over: playing (true), or not (false, after buildFailed()).
  void buildFinished(bool playing);
  /// The build failed (message: the error, naming what and where) or was cancelled
  /// (cancelled = true); nothing runs and the editor's document was never touched.
  void buildFailed(const QString& message, bool cancelled);
  /// Ticks ran (a frame or a step); the view and HUD update.
  void ticked();
  /// Something to tell the user (refused live tuning, build errors).
  void message(const QString& text);
  /// A replay reached the end of its recording: equal (every hash and the final one) or not
  /// (the text names the first differing tick).
  void replayFinished(bool matches, const QString& text);
  /// The recording changed shape: a branch, a seek (the timeline's range or position).
  void timelineChanged();

 private:
  struct Build;
  // play_session_build.cpp
  void onBuildFinished();
  void pollBuild();
  /// The build is in: the copy and the runtime go live and playing starts. `base` and
  /// `baseHash`: the copy's document at start and its runtime::sceneHash (made beside the
  /// build), which become baseJson_ and baseHash_.
  void begin(std::unique_ptr<EditorDocument> copy, runtime::SceneRuntime runtime,
             std::shared_ptr<const Json> base, std::uint64_t baseHash);

  void collectMovedNodes();
  void sampleMovedNodes(bool shiftPrevious);
  /// The play copy changed: install what the running simulation can take.
  void applyCopyToSimulation();
  void onTimer();
  int runTicks(int ticks);
  // play_session_record.cpp
  /// begin(): the recording's start (or the replay's) on baseJson_, tick 0's snapshot.
  void beginRecording();
  /// One tick with what a recording keeps: due edits, the step, hash, snapshot, series.
  /// `fresh`: a tick run for the first time on this branch (recorded / compared).
  void recordedStep(bool fresh);
  /// Before ticks run: a recording continued from before its end branches; a replay at its
  /// end stops. Returns how many of `ticks` may run.
  int admitTicks(int ticks);
  /// A control change of the player: an input event at the current tick (recording), or the
  /// direct control (not recording); ignored while replaying.
  void recordInput(nlohmann::json event);
  /// An edit of the copy: a patch at the current tick, installed through the schedule.
  void recordEdit();
  void rebuildEvents();
  /// The state hash of whichever simulation runs.
  std::uint64_t stateHash() const;
  // play_session_drift.cpp
  /// The first recorded Drift command of `tick` or later.
  std::vector<drift::ReplayInput>::const_iterator driftInputsAt(std::uint64_t tick) const;
  /// Before a Drift tick: the recorded commands of the tick to run go to the sandbox.
  void giveDriftInputs();
  bool recordPlacement(double x, double z);
  /// An edit of the copy in a Drift scene: installed, and its changed tuning keys recorded.
  void recordDriftEdit();
  void finishReplay();
  // play_session_scripts.cpp: the scene's Lua scripts (reload on save, log, error pause).
  void startScripts();
  /// Before a tick: the script files saved since the last one are read again.
  void reloadScripts();
  /// After a tick: false when a script error stopped the scripts (play pauses, the error goes
  /// to the log as file:line: message and its node is selected in the copy).
  bool scriptsRunOn();

  PlayState state_ = PlayState::Stopped;
  PlayKind kind_ = PlayKind::Physics;
  std::unique_ptr<EditorDocument> copy_;
  QString filePath_;
  std::optional<runtime::SceneRuntime> runtime_;
  std::unique_ptr<PlayScripts> scripts_;  ///< null without scripts; uses runtime_'s stage
  QString driftNode_;
  std::vector<MovedNode> moved_;
  QTimer* timer_ = nullptr;
  QElapsedTimer frameClock_;
  double stepMs_ = 0.0;

  // Recording (physics scenes only: recordingOn_).
  bool recordingOn_ = false;
  bool replaying_ = false;
  bool replayDone_ = false;
  runtime::PlayRecording recording_;
  /// The copy's document at start, shared with the tuning schedule (never copied again: a
  /// level's document is large), and its runtime::sceneHash.
  std::shared_ptr<const Json> baseJson_;
  std::uint64_t baseHash_ = 0;
  /// The copy's document at the last recorded edit (at start, the same as baseJson_).
  std::shared_ptr<const Json> lastCopyJson_;
  runtime::TuningSchedule tuning_;
  runtime::SnapshotKeeper snapshots_;
  runtime::SeriesTable series_;
  std::vector<physics::InputEvent> events_;      ///< recording_.inputs, read (physics)
  std::vector<drift::ReplayInput> driftInputs_;  ///< recording_.inputs, read (Drift)
  std::optional<std::uint64_t> firstDiffering_;
  /// The last recorded control values (an unchanged control records nothing).
  std::optional<Vec2> lastMove_;
  std::optional<std::array<float, 3>> lastVehicle_;
  /// Replay: the recording to play once the build is in.
  std::optional<runtime::PlayRecording> pendingReplay_;

  physics::MeshColliderCache* meshCache_ = nullptr;
  /// The running build (null when none) and the copy it reads (kept until the worker is done).
  std::shared_ptr<Build> build_;
  std::unique_ptr<EditorDocument> buildCopy_;
  QFutureWatcher<std::shared_ptr<Build>>* buildWatcher_ = nullptr;
  QTimer* buildPoll_ = nullptr;
};

}  // namespace floptle::editor
