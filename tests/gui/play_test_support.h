#pragma once
// Shared set-up of the play-mode window tests: a small window on a scene written to a temp
// dir (or a sample scene), and helpers to reach the play session.
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <memory>

#include "floptle/editor/play_mode.h"
#include "floptle/editor/play_session.h"
#include "gui_fixture.h"

namespace floptle::editor::test {

/// Play builds its simulation on a worker: waits, the event loop running, until `session`'s
/// build is over (buildFinished). False on timeout (ms).
inline bool waitForBuild(PlaySession& session, int timeoutMs = 60000) {
  if (!session.building()) return true;
  QSignalSpy finished(&session, &PlaySession::buildFinished);
  return finished.wait(timeoutMs) || !session.building();
}

/// A flat ground plane, a character standing on it (capsule centre at y = 0.9, speed 4 m/s)
/// and a dynamic rubber ball; materials with friction and restitution.
inline const char* kWalkScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "friction": 0.8, "restitution": 0.1,
                 "density": 2600, "bulk_modulus": 5e10, "yield_strength": 1e8},
                {"id": "rubber", "color": [0.8, 0.2, 0.2], "friction": 1.2, "restitution": 0.8,
                 "density": 1100, "bulk_modulus": 2e9, "yield_strength": 1.5e7}],
  "interactions": [],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
     "material": "rock", "collider": {"body": "static"}},
    {"name": "ball", "transform": {"position": [6, 2, 0]},
     "shape": {"type": "sphere", "radius": 0.4}, "material": "rubber",
     "collider": {"body": "dynamic"}},
    {"name": "player", "transform": {"position": [0, 0.9, 0]},
     "character": {"radius": 0.3, "height": 1.8, "speed": 4, "jump_speed": 5, "step_height": 0.3}}
  ]
})";

class PlayWindowTest : public ::testing::Test {
 protected:
  void openScene(const QString& path) {
    application();
    window_ = std::make_unique<MainWindow>();
    window_->resize(640, 420);
    ASSERT_TRUE(window_->openFile(path)) << path.toStdString();
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    QTest::qWait(30);
  }
  void openText(const char* text) {
    ASSERT_TRUE(dir_.isValid());
    const QString path = dir_.filePath("scene.json");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    openScene(path);
  }
  void TearDown() override {
    if (window_) {
      window_->playMode()->stop();
      window_->document().undoStack()->setClean();
    }
    window_.reset();
  }
  MainWindow& window() { return *window_; }
  EditorDocument& document() { return window_->document(); }
  PlayMode& play() { return *window_->playMode(); }
  PlaySession& session() { return window_->playMode()->session(); }
  /// Starts play, waits for the build and pauses at once (no timer frame has run: tick 0).
  /// Plays and pauses at once when the build is in, before the frame timer can run a tick.
  void playPaused() {
    const QMetaObject::Connection pause = QObject::connect(
        &session(), &PlaySession::buildFinished, window_.get(), [this](bool playing) {
          if (playing) window_->action("actionPlay")->trigger();
        });
    window_->action("actionPlay")->trigger();
    const bool built = waitForBuild(session());
    QObject::disconnect(pause);
    ASSERT_TRUE(built);
    ASSERT_EQ(session().state(), PlayState::Paused);
    ASSERT_EQ(session().tick(), 0u);
  }

 private:
  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
};

}  // namespace floptle::editor::test
