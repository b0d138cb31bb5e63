// Play mode runs the scene's Lua scripts: a script error pauses play, logs file:line: message
// and selects the node; saving a script while playing reloads it before the next tick (its
// on_start is not run again).
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>

#include "floptle/editor/log_panel.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

const char* kScriptScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "friction": 0.8, "restitution": 0.1,
                 "density": 2600, "bulk_modulus": 5e10, "yield_strength": 1e8}],
  "interactions": [],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
     "material": "rock", "collider": {"body": "static"}},
    {"name": "ball", "transform": {"position": [0, 2, 0]},
     "shape": {"type": "sphere", "radius": 0.4}, "material": "rock",
     "collider": {"body": "dynamic"}, "script": {"file": "ball.lua"}}
  ]
})";

// A kinematic box the script moves 3 m along x at tick 1, over a ground plane.
const char* kMovingBoxScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "friction": 0.8, "restitution": 0.1,
                 "density": 2600, "bulk_modulus": 5e10, "yield_strength": 1e8}],
  "interactions": [],
  "nodes": [
    {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
     "material": "rock", "collider": {"body": "static"}},
    {"name": "box", "transform": {"position": [0, 1, 0]},
     "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "material": "rock",
     "collider": {"body": "kinematic"}, "script": {"file": "box.lua"}}
  ]
})";

class PlayScriptTest : public PlayWindowTest {
 protected:
  /// Writes a script (the ball's by default) next to the scene (before Play: the build
  /// compiles it).
  void writeScript(const char* text, const QString& name = QStringLiteral("ball.lua")) {
    const QString path = QFileInfo(document().filePath()).absoluteDir().filePath(name);
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
  }
  QString log() { return window().log()->toPlainText(); }
};

TEST_F(PlayScriptTest, ScriptErrorPausesPlayLogsFileLineAndSelectsTheNode) {
  openText(kScriptScene);
  writeScript("function on_tick(tick)\n  if tick == 3 then error('boom') end\nend\n");
  window().action("actionPlay")->trigger();
  ASSERT_TRUE(waitForBuild(session()));
  ASSERT_TRUE(waitFor([&] { return session().state() == PlayState::Paused; }, 5000));
  EXPECT_EQ(session().tick(), 4u);  // paused right after the tick that failed
  EXPECT_TRUE(log().contains("ball.lua:2: boom (tick 3, node 'ball')")) << log().toStdString();
  ASSERT_NE(session().copy(), nullptr);
  EXPECT_EQ(session().copy()->selection(), QStringList{"ball"});
}

TEST_F(PlayScriptTest, SavingAScriptWhilePlayingReloadsItWithoutOnStart) {
  openText(kScriptScene);
  writeScript("function on_start() log('start') end\nfunction on_tick(t) log('v1', t) end\n");
  playPaused();
  session().stepOnce();
  session().stepOnce();
  writeScript("function on_start() log('start') end\nfunction on_tick(t) log('v2', t) end\n");
  QTest::qWait(500);  // the file watcher's notice
  session().stepOnce();
  const QString text = log();
  EXPECT_TRUE(text.contains("ball: v1 1")) << text.toStdString();
  EXPECT_TRUE(text.contains("Script reloaded: ball.lua")) << text.toStdString();
  EXPECT_TRUE(text.contains("ball: v2 2")) << text.toStdString();
  EXPECT_EQ(text.count("ball: start"), 1) << text.toStdString();
}

TEST_F(PlayScriptTest, InspectorScriptSectionShowsTheFileWithAnOpenButton) {
  openText(kScriptScene);
  writeScript("function on_tick() end\n");
  document().setSelection({"ball"});
  auto* file = waitForChild<QLabel>(&window(), "scriptFile");
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->text(), "ball.lua");
  EXPECT_EQ(QFileInfo(file->toolTip()).canonicalFilePath(),
            QFileInfo(QFileInfo(document().filePath()).absoluteDir().filePath("ball.lua"))
                .canonicalFilePath());
  auto* open = window().findChild<QPushButton*>("scriptOpen");
  ASSERT_NE(open, nullptr);
  EXPECT_TRUE(open->isEnabled());
  // A node without a script has no Script section.
  document().setSelection({"ground"});
  EXPECT_TRUE(
      waitFor([&] { return window().findChild<QWidget*>("scriptSection") == nullptr; }, 2000));
}

TEST_F(PlayScriptTest, AScriptMovedBoxIsDrawnWhereItIsWithoutAShaderCompile) {
  openText(kMovingBoxScene);
  writeScript(
      "function on_tick(tick)\n  if tick == 1 then self.position = vec3(3, 1, 0) end\nend\n",
      QStringLiteral("box.lua"));
  playPaused();
  session().stepOnce();  // tick 0: the box stays
  RaymarchView* view = window().viewport();
  const QImage before = view->captureImage();
  const std::uint64_t compiles = view->shaderCompiles();
  session().stepOnce();  // tick 1: the script moves it
  EXPECT_FALSE(log().contains("Script error")) << log().toStdString();
  const QImage after = view->captureImage();
  const field::UnionField* field = view->sceneField();
  ASSERT_NE(field, nullptr);
  const double t = view->time();
  // The box's closed form at its new place: 0.5 m above its top face, 1 m beyond its +x face,
  // 0.5 m deep at its centre; where it was, only the ground, 2 m below.
  EXPECT_NEAR(field->distance(Vec3(3, 2, 0), t), 0.5f, 1e-5f);
  EXPECT_NEAR(field->distance(Vec3(4.5f, 1, 0), t), 1.0f, 1e-5f);
  EXPECT_NEAR(field->distance(Vec3(3, 1, 0), t), -0.5f, 1e-5f);
  EXPECT_NEAR(field->distance(Vec3(0, 2, 0), t), 2.0f, 1e-5f);
  // Texels only: the scene program stays, the picture changes.
  EXPECT_EQ(view->shaderCompiles(), compiles);
  EXPECT_NE(before, after);
}

}  // namespace
}  // namespace floptle::editor::test
