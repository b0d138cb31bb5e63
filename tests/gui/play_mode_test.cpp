// Play mode on a physics scene: Stop restores the edit state exactly, Step runs exactly one
// tick, W walks the character speed x N x dt on flat ground, edits made while playing go to
// the play copy (and the running simulation) but never to the document, the window is tinted.
#include <QDoubleSpinBox>
#include <QUndoGroup>
#include <QUndoStack>
#include <QWidget>

#include "floptle/editor/inspector_panel.h"
#include "floptle/editor/play_plot.h"
#include "floptle/physics/simulation.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

TEST_F(PlayWindowTest, PlayThenStopRestoresTheDocumentExactly) {
  openText(kWalkScene);
  // Some edit history before Play.
  ASSERT_TRUE(document().setValue(document().nodePointer("ball") + "/shape/radius", 0.45).ok());
  document().setSelection({"ball"});
  const std::string before = document().json().dump();
  const int count = document().undoStack()->count(), index = document().undoStack()->index();
  const bool dirty = document().isDirty();
  const render::Camera camera = window().viewport()->camera();

  window().action("actionPlay")->trigger();
  ASSERT_TRUE(waitForBuild(session()));
  ASSERT_TRUE(play().playing());
  EXPECT_TRUE(window().property("playTinted").toBool());
  EXPECT_TRUE(window().viewport()->findChild<QWidget*>("playTintFrame")->isVisible());
  // Play runs on its own (the timer) and edits go to the copy.
  ASSERT_TRUE(waitFor([&] { return session().tick() >= 5; }, 5000));
  EditorDocument* copy = session().copy();
  ASSERT_NE(copy, nullptr);
  ASSERT_TRUE(copy->setValue(copy->nodePointer("ball") + "/shape/radius", 0.9).ok());
  ASSERT_TRUE(copy->setValue(copy->materialPointer("rock") + "/friction", 0.1).ok());
  EXPECT_EQ(window().undoGroup()->activeStack(), copy->undoStack());
  EXPECT_EQ(document().json().dump(), before);

  window().action("actionStop")->trigger();
  EXPECT_FALSE(play().playing());
  EXPECT_FALSE(window().property("playTinted").toBool());
  EXPECT_EQ(document().json().dump(), before);  // byte-identical
  EXPECT_EQ(document().undoStack()->count(), count);
  EXPECT_EQ(document().undoStack()->index(), index);
  EXPECT_EQ(document().isDirty(), dirty);
  EXPECT_EQ(document().selection(), QStringList{"ball"});
  EXPECT_EQ(window().undoGroup()->activeStack(), document().undoStack());
  EXPECT_EQ(window().viewport()->camera().position, camera.position);
  for (const QString& layer : window().viewport()->overlayLineLayers())
    EXPECT_FALSE(layer.startsWith("play/")) << layer.toStdString();
  // Undo after Stop undoes the edit made before Play, not one made in play.
  window().action("actionUndo")->trigger();
  EXPECT_EQ(document().valueAt(document().nodePointer("ball") + "/shape/radius")->get<double>(),
            0.4);
}

TEST_F(PlayWindowTest, StepAdvancesExactlyOneTick) {
  openText(kWalkScene);
  playPaused();
  EXPECT_EQ(session().tick(), 0u);
  QAction* step = window().action("actionStep");
  ASSERT_NE(step, nullptr);
  step->trigger();
  EXPECT_EQ(session().tick(), 1u);
  QTest::qWait(100);  // paused: the timer runs nothing
  EXPECT_EQ(session().tick(), 1u);
  step->trigger();
  step->trigger();
  EXPECT_EQ(session().tick(), 3u);
  EXPECT_EQ(session().state(), PlayState::Paused);
  EXPECT_NE(play().hudText().indexOf("tick 3"), -1) << play().hudText().toStdString();
}

TEST_F(PlayWindowTest, WMovesTheCharacterSpeedTimesTicksTimesDtForward) {
  openText(kWalkScene);
  playPaused();
  play().setFollowYaw(0.0);  // the view looks along -Z: W walks toward -Z
  const physics::Simulation& sim = *session().simulation();
  const Vec3 start = sim.characters()[0].state().position;
  QTest::keyPress(window().viewport(), Qt::Key_W);
  const int n = 30;
  for (int i = 0; i < n; ++i) play().step();
  const Vec3 end = sim.characters()[0].state().position;
  const double expected = 4.0 * n * sim.settings().fixedDt;  // speed x N x dt (m)
  EXPECT_NEAR(start.z - end.z, expected, 1e-3);
  EXPECT_NEAR(end.x, start.x, 1e-4);
  EXPECT_NEAR(end.y, start.y, 1e-3);
  EXPECT_TRUE(sim.characters()[0].state().grounded);
  // The camera follows the player (paused: the view shows the last tick).
  const render::Camera camera = window().viewport()->camera();
  EXPECT_NEAR(camera.lookAt.x, end.x, 1e-4);
  EXPECT_NEAR(camera.lookAt.z, end.z, 1e-4);
  EXPECT_GT(camera.position.z, camera.lookAt.z);  // behind the player, who walks toward -Z
  EXPECT_NEAR(glm::length(play().cameraUp() - Vec3(0, 1, 0)), 0.0f, 1e-5f);
  // Released: the character stands.
  QTest::keyRelease(window().viewport(), Qt::Key_W);
  play().step();
  const Vec3 still = sim.characters()[0].state().position;
  play().step();
  EXPECT_NEAR(sim.characters()[0].state().position.z, still.z, 1e-5);
  // The player capsule is drawn as an overlay.
  EXPECT_GT(window().viewport()->overlayLineCount("play/player"), 0u);
  // The plot got the player's speed.
  ASSERT_FALSE(play().plot()->speeds().empty());
}

TEST_F(PlayWindowTest, InspectorEditsWhilePausedReachTheSimulationNotTheDocument) {
  openText(kWalkScene);
  const std::string before = document().json().dump();
  playPaused();
  EditorDocument* copy = session().copy();
  physics::Simulation& sim = *session().simulation();
  // The docks are bound to the copy.
  ASSERT_NE(play().copyInspector(), nullptr);
  EXPECT_TRUE(play().copyInspector()->isVisible());
  // Controller value in the inspector's Character section: speed 4 -> 2 m/s while paused; on
  // resume the character walks at 2.
  copy->setSelection({"player"});
  const QString speedName =
      QString::fromStdString(copy->nodePointer("player") + "/character/speed");
  waitFor([&] { return play().copyInspector()->findChild<QDoubleSpinBox*>(speedName) != nullptr; },
          2000);
  auto* speed = play().copyInspector()->findChild<QDoubleSpinBox*>(speedName);
  ASSERT_NE(speed, nullptr);
  EXPECT_DOUBLE_EQ(speed->value(), 4.0);
  speed->setValue(2.0);
  copy->closeMergeWindow();
  EXPECT_FLOAT_EQ(sim.characters()[0].desc().speed, 2.0f);
  // Friction and restitution of the ball's material reach its body.
  ASSERT_TRUE(copy->setValue(copy->materialPointer("rubber") + "/friction", 0.3).ok());
  ASSERT_TRUE(copy->setValue(copy->materialPointer("rubber") + "/restitution", 0.25).ok());
  const std::uint32_t ball = sim.findBody("ball")->index;
  EXPECT_FLOAT_EQ(sim.bodies().desc(ball).friction, 0.3f);
  EXPECT_FLOAT_EQ(sim.bodies().desc(ball).restitution, 0.25f);
  EXPECT_EQ(document().json().dump(), before);
  EXPECT_EQ(document().undoStack()->count(), 0);

  play().setFollowYaw(0.0);
  QTest::keyPress(window().viewport(), Qt::Key_W);
  const Vec3 start = sim.characters()[0].state().position;
  for (int i = 0; i < 12; ++i) play().step();
  QTest::keyRelease(window().viewport(), Qt::Key_W);
  EXPECT_NEAR(start.z - sim.characters()[0].state().position.z, 2.0 * 12 / 60.0, 1e-3);
  // Undo in play undoes in the copy (and the simulation follows).
  window().action("actionUndo")->trigger();
  window().action("actionUndo")->trigger();
  window().action("actionUndo")->trigger();
  EXPECT_FLOAT_EQ(sim.characters()[0].desc().speed, 4.0f);
  EXPECT_FLOAT_EQ(sim.bodies().desc(ball).friction, 1.2f);
  EXPECT_EQ(document().json().dump(), before);
}

// A car on flat ground: the arrows are its throttle and steering, and it drives off.
TEST_F(PlayWindowTest, ArrowKeysDriveTheVehicle) {
  openText(R"({
    "format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
    "nodes": [
      {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
       "collider": {"body": "static"}},
      {"name": "car", "transform": {"position": [0, 0.8, 0]},
       "vehicle": {"half_extents": [0.9, 0.3, 2.0], "mass": 1200, "wheels": [
         {"position": [-0.8, -0.3, 1.4], "radius": 0.35, "rest_length": 0.4, "drive": 3000, "steer": 30},
         {"position": [0.8, -0.3, 1.4], "radius": 0.35, "rest_length": 0.4, "drive": 3000, "steer": 30},
         {"position": [-0.8, -0.3, -1.4], "radius": 0.35, "rest_length": 0.4},
         {"position": [0.8, -0.3, -1.4], "radius": 0.35, "rest_length": 0.4}]}}
    ]
  })");
  playPaused();
  physics::Simulation& sim = *session().simulation();
  ASSERT_EQ(sim.vehicles().size(), 1u);
  QTest::keyPress(window().viewport(), Qt::Key_Up);
  QTest::keyPress(window().viewport(), Qt::Key_Left);
  EXPECT_FLOAT_EQ(sim.vehicleInput(0).throttle, 1.0f);
  EXPECT_FLOAT_EQ(sim.vehicleInput(0).steer, 1.0f);
  const Vec3 start = sim.bodies().state(sim.vehicles()[0].chassis()).position;
  for (int i = 0; i < 90; ++i) play().step();
  const Vec3 end = sim.bodies().state(sim.vehicles()[0].chassis()).position;
  EXPECT_GT(glm::length(Vec2(end.x - start.x, end.z - start.z)), 0.5f);
  QTest::keyRelease(window().viewport(), Qt::Key_Up);
  QTest::keyRelease(window().viewport(), Qt::Key_Left);
  EXPECT_FLOAT_EQ(sim.vehicleInput(0).throttle, 0.0f);
  EXPECT_FLOAT_EQ(sim.vehicleInput(0).steer, 0.0f);
}

}  // namespace
}  // namespace floptle::editor::test
