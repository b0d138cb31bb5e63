// Play mode on scenes/drift.json: a click on the water places a ripple at that XZ point, the
// Drift section's edit is undoable and reaches the running sandbox, an invalid value is
// refused with its name and the old tuning stays; optionally a screenshot of play.
#include <QDoubleSpinBox>
#include <QLabel>
#include <QScreen>
#include <QUndoGroup>

#include <cmath>

#include "floptle/drift/sandbox.h"
#include "floptle/editor/inspector_panel.h"
#include "floptle/editor/play_drift_edit.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

QString driftScenePath() {
  return QStringLiteral(FLOPTLE_SOURCE_DIR "/scenes/drift.json");
}

/// scenes/drift.json's text: the tests play a copy in a temp folder (a play session is
/// written beside the scene it plays).
QByteArray driftSceneText() {
  QFile file(driftScenePath());
  EXPECT_TRUE(file.open(QIODevice::ReadOnly));
  return file.readAll();
}

TEST_F(PlayWindowTest, DriftClickOnTheWaterPlacesARippleThere) {
  openText(driftSceneText().constData());
  playPaused();
  ASSERT_EQ(session().kind(), PlayKind::Drift);
  const drift::Sandbox& sandbox = *session().sandbox();
  RaymarchView* view = window().viewport();
  // A click below the horizon, where the view's ray meets y = 0.
  const QPoint pixel(view->width() / 2 + 40, view->height() * 3 / 4);
  const Ray ray = view->rayAt(QPointF(pixel));
  ASSERT_LT(ray.direction.y, 0.0f);
  const Vec3 water = ray.at(-ray.origin.y / ray.direction.y);
  QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, pixel);
  // Recorded at tick 0 and given to the sandbox when the tick runs (as a replay gives it).
  const nlohmann::json& inputs = session().recordingData().inputs;
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(inputs[0]["tick"], 0);
  EXPECT_NEAR(inputs[0]["place"][0].get<double>(), water.x, 1e-4);
  EXPECT_NEAR(inputs[0]["place"][1].get<double>(), water.z, 1e-4);
  play().step();
  EXPECT_EQ(sandbox.counters().placements, 1u);
  ASSERT_EQ(sandbox.rippleCount(), 1);
  EXPECT_NEAR(sandbox.ripple(0).centre.x, water.x, 1e-4);
  EXPECT_NEAR(sandbox.ripple(0).centre.z, water.z, 1e-4);
  EXPECT_EQ(window().viewport()->overlayLineCount("play/drift") > 0, true);
  // The document never saw the click (no selection, no edit).
  EXPECT_EQ(document().undoStack()->count(), 0);
  EXPECT_TRUE(document().selection().isEmpty());
}

TEST_F(PlayWindowTest, DriftSectionEditIsUndoableAndReachesTheRunningSandbox) {
  openText(driftSceneText().constData());
  const std::string before = document().json().dump();
  playPaused();
  const drift::Sandbox& sandbox = *session().sandbox();
  EXPECT_DOUBLE_EQ(sandbox.tuning().dragRate, 0.7);
  InspectorPanel* inspector = play().copyInspector();
  ASSERT_NE(inspector, nullptr);
  auto* drag = waitForChild<QDoubleSpinBox>(inspector, "drift:drag_rate");
  ASSERT_NE(drag, nullptr);
  drag->setValue(1.5);
  EXPECT_DOUBLE_EQ(sandbox.tuning().dragRate, 1.5);
  auto* waterX = inspector->findChild<QDoubleSpinBox*>("drift:water_velocity.x");
  ASSERT_NE(waterX, nullptr);
  waterX->setValue(-0.5);
  EXPECT_DOUBLE_EQ(sandbox.tuning().waterVelocity.x, -0.5);
  EXPECT_DOUBLE_EQ(sandbox.tuning().waterVelocity.z, 0.0);
  window().action("actionUndo")->trigger();
  EXPECT_DOUBLE_EQ(sandbox.tuning().waterVelocity.x, 0.3);
  window().action("actionUndo")->trigger();
  EXPECT_DOUBLE_EQ(sandbox.tuning().dragRate, 0.7);
  window().action("actionRedo")->trigger();
  EXPECT_DOUBLE_EQ(sandbox.tuning().dragRate, 1.5);
  EXPECT_EQ(document().json().dump(), before);
  // The ocean pattern is presentation only: changing it leaves the physics as it is.
  auto* pattern = inspector->findChild<QDoubleSpinBox*>("drift:ocean_pattern_velocity.x");
  ASSERT_NE(pattern, nullptr);
  pattern->setValue(3.0);
  EXPECT_DOUBLE_EQ(sandbox.tuning().waterVelocity.x, 0.3);
  window().action("actionStop")->trigger();
  EXPECT_EQ(document().json().dump(), before);

  // Outside play the same section edits the document, with undo.
  document().setSelection({"boat"});
  auto* docDrag = waitForChild<QDoubleSpinBox>(window().inspector(), "drift:drag_rate");
  ASSERT_NE(docDrag, nullptr);
  docDrag->setValue(2.0);
  EXPECT_EQ(document().valueAt(document().nodePointer("boat") + "/drift/drag_rate")->get<double>(),
            2.0);
  window().action("actionUndo")->trigger();
  EXPECT_EQ(document().json().dump(), before);
}

TEST_F(PlayWindowTest, DriftInvalidValueIsRefusedWithItsNameAndTheOldTuningStays) {
  openText(driftSceneText().constData());
  playPaused();
  const drift::Sandbox& sandbox = *session().sandbox();
  InspectorPanel* inspector = play().copyInspector();
  auto* radius = waitForChild<QDoubleSpinBox>(inspector, "drift:boat_radius");
  ASSERT_NE(radius, nullptr);
  radius->setValue(-1.0);
  EXPECT_DOUBLE_EQ(sandbox.tuning().boatRadius, 0.5);
  EXPECT_DOUBLE_EQ(radius->value(), 0.5);  // the field shows what the copy holds
  auto* refusal = inspector->findChild<QLabel*>("driftRefusal");
  ASSERT_NE(refusal, nullptr);
  EXPECT_NE(refusal->text().indexOf("boat_radius"), -1) << refusal->text().toStdString();
  EXPECT_EQ(session().copy()->undoStack()->count(), 0);
  // The write path itself: the error names the key.
  EditorDocument* copy = session().copy();
  const std::string component = copy->nodePointer("boat") + "/drift";
  Expected<void> refused = setDriftValue(*copy, component, "ripple_lifetime", 0.0);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("ripple_lifetime"), std::string::npos)
      << refused.error().message();
  EXPECT_DOUBLE_EQ(sandbox.tuning().rippleLifetime, 2.5);
}

// Writes a picture of Drift in play to $FLOPTLE_PLAY_SCREENSHOT (skipped without it).
// Plays drift.json with two clicks on the water, checks both ripples were placed and the
// debug overlay is drawn, and writes a screenshot of the window into the build tree
// (screenshots/editor-play-drift.png; FLOPTLE_PLAY_SCREENSHOT=file.png writes it elsewhere).
TEST_F(PlayWindowTest, DriftScreenshotWhilePlaying) {
  QString out = QString::fromUtf8(qgetenv("FLOPTLE_PLAY_SCREENSHOT"));
  if (out.isEmpty()) {
    QDir().mkpath(QStringLiteral(FLOPTLE_BINARY_DIR "/screenshots"));
    out = QStringLiteral(FLOPTLE_BINARY_DIR "/screenshots/editor-play-drift.png");
  }
  openText(driftSceneText().constData());
  window().resize(1000, 640);
  window().action("actionPlay")->trigger();
  ASSERT_TRUE(waitForBuild(session()));
  RaymarchView* view = window().viewport();
  render::Camera camera = view->camera();
  camera.position = Vec3(0.0f, 9.0f, 9.0f);
  camera.lookAt = Vec3(0.0f, 0.0f, 0.0f);
  view->setCamera(camera);
  QTest::qWait(200);
  for (const QPointF p : {QPointF(0.55, 0.55), QPointF(0.3, 0.7)}) {
    const Ray ray = view->rayAt(QPointF(p.x() * view->width(), p.y() * view->height()));
    EXPECT_TRUE(play().handleClick(ray))
        << "click at (" << p.x() << ", " << p.y() << ") of a " << view->width() << " x "
        << view->height() << " view refused, tick " << session().sandbox()->tickIndex();
    QTest::qWait(400);
  }
  // A click is placed on the next simulation step: wait for both (a loaded machine runs the
  // play timer late) before pausing for a still frame.
  EXPECT_TRUE(waitFor([&] { return session().sandbox()->counters().placements == 2u; }, 30000))
      << session().sandbox()->counters().placements << " placements";
  window().action("actionPlay")->trigger();
  EXPECT_GT(view->overlayLineCount("play/drift"), 0u);
  QTest::qWait(1500);
  const QPixmap shot = window().screen()->grabWindow(window().winId());
  ASSERT_FALSE(shot.isNull());
  ASSERT_TRUE(shot.save(out)) << out.toStdString();
}

}  // namespace
}  // namespace floptle::editor::test
