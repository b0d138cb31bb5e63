// Recorded play sessions in the editor: a play session driven by synthetic key presses (and
// a tuning edit made while paused) is written beside the scene on Stop; Play > Replay plays
// it back to the same hashes; an edited scene is reported at the first tick that differs,
// the tick the headless check (runtime::checkRecording, `floptle simulate --session`) names;
// the timeline (an overlay along the bottom of the view, its strip marking the snapshots) and
// its scrub and step back equal a fresh run to that tick; playing on from an
// earlier tick branches the recording; the exported inputs replay to the recorded hash; the
// Session panel's chart series are the CSV trace's columns.
#include <QDateTime>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSlider>
#include <QToolBar>

#include <algorithm>
#include <sstream>

#include "floptle/core/scene/scene_io.h"
#include "floptle/editor/play_plot.h"
#include "floptle/editor/play_timeline.h"
#include "floptle/editor/session_panel.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/play_recording.h"
#include "floptle/runtime/replay.h"
#include "floptle/runtime/session_check.h"
#include "floptle/runtime/tick_series.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

class PlaySessionRecordTest : public PlayWindowTest {
 protected:
  /// Plays the walk scene paused and drives it: W held for 25 ticks, a jump, W released, the
  /// rock's friction edited at tick 40 (paused), then on to `ticks`.
  void recordWalk(int ticks = 90) {
    openText(kWalkScene);
    playPaused();
    QWidget* view = window().viewport();
    play().setFollowYaw(0.3);
    QTest::keyPress(view, Qt::Key_W);
    for (int i = 0; i < 25; ++i) play().step();
    QTest::keyPress(view, Qt::Key_Space);
    QTest::keyRelease(view, Qt::Key_Space);
    for (int i = 0; i < 10; ++i) play().step();
    QTest::keyRelease(view, Qt::Key_W);
    for (int i = 0; i < 5; ++i) play().step();
    EditorDocument* copy = session().copy();
    ASSERT_TRUE(copy->setValue(copy->materialPointer("rubber") + "/restitution", 0.3).ok());
    for (int i = 40; i < ticks; ++i) play().step();
    ASSERT_EQ(session().tick(), std::uint64_t(ticks));
  }
  QString scenePath() { return document().filePath(); }
  QString sessionFile() {
    return QString::fromStdString(runtime::sessionPathFor(scenePath().toStdString()));
  }
  /// The state hash after `ticks` ticks of a fresh headless run of the document with the
  /// recording's inputs and edits (runtime::checkRecording of the first `ticks` ticks).
  std::string freshHash(const runtime::PlayRecording& recording, std::uint64_t ticks) {
    runtime::PlayRecording first = recording;
    first.truncate(ticks, 0);
    first.hashes.clear();
    auto check =
        runtime::checkRecording(document().json(), {}, first, {"scene", "session", nullptr, {}});
    EXPECT_TRUE(check) << (check ? "" : check.error().message());
    return check ? check->result["hash"].get<std::string>() : std::string();
  }
  std::string liveHash() {
    return physics::Simulation::hashHex(session().simulation()->stateHash());
  }
  /// Replays the session file and waits for the end; the matches argument of replayFinished.
  bool replayToEnd() {
    QSignalSpy finished(&session(), &PlaySession::replayFinished);
    EXPECT_TRUE(play().replayFile(sessionFile()));
    EXPECT_TRUE(waitForBuild(session()));
    EXPECT_TRUE(session().replaying());
    EXPECT_TRUE(finished.wait(30000) || !finished.isEmpty());
    return !finished.isEmpty() && finished.front().at(0).toBool();
  }
};

TEST_F(PlaySessionRecordTest, StopWritesTheSessionAndReplayReachesTheSameHash) {
  recordWalk();
  const runtime::PlayRecording live = session().recordingData();
  window().action("actionStop")->trigger();
  auto file = runtime::readRecordingFile(sessionFile().toStdString());
  ASSERT_TRUE(file) << file.error().message();
  EXPECT_EQ(file->ticks, 90u);
  EXPECT_EQ(file->hashes.size(), 90u);
  EXPECT_EQ(file->finalHash, live.finalHash);
  EXPECT_EQ(file->sceneHash, runtime::sceneHash(document().json()));
  ASSERT_EQ(file->tuning.size(), 1u);
  EXPECT_EQ(file->tuning[0].tick, 40u);
  // The inputs: the move at tick 0, the jump at 25, the release at 35 (first and last only).
  ASSERT_GE(file->inputs.size(), 3u);
  EXPECT_EQ(file->inputs.front()["tick"], 0);
  bool jumped = false;
  for (const auto& e : file->inputs) jumped = jumped || (e.contains("jump") && e["tick"] == 25);
  EXPECT_TRUE(jumped) << file->inputs.dump();
  EXPECT_EQ(file->inputs.back()["tick"], 35);
  EXPECT_EQ(file->inputs.back()["move"], nlohmann::json::array({0.0, 0.0}));

  // The headless check (floptle simulate --session) on the scene file agrees.
  auto scene = scene::loadSceneFile(scenePath().toStdString());
  ASSERT_TRUE(scene);
  auto check = runtime::checkRecording(*scene, {}, *file, {"scene", "session", nullptr, {}});
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_TRUE(check->sceneMatches);
  EXPECT_TRUE(check->matches()) << runtime::describeCheck(*check, *file);

  // Play > Replay in the editor.
  EXPECT_TRUE(replayToEnd());
  EXPECT_EQ(session().tick(), 90u);
  EXPECT_EQ(session().simulation()->stateHash(), file->finalHash);
  EXPECT_FALSE(session().firstDifferingTick());
  EXPECT_EQ(session().state(), PlayState::Paused);
  // Stopping an unbranched replay keeps the file as it was.
  const QDateTime written = QFileInfo(sessionFile()).lastModified();
  window().action("actionStop")->trigger();
  EXPECT_EQ(QFileInfo(sessionFile()).lastModified(), written);
}

TEST_F(PlaySessionRecordTest, AnEditedSceneReportsTheFirstDifferingTick) {
  recordWalk();
  window().action("actionStop")->trigger();
  auto file = runtime::readRecordingFile(sessionFile().toStdString());
  ASSERT_TRUE(file);
  // The ball starts 10 cm higher.
  ASSERT_TRUE(document()
                  .setValue(document().nodePointer("ball") + "/transform/position",
                            Json::array({6.0, 2.1, 0.0}))
                  .ok());
  auto check =
      runtime::checkRecording(document().json(), {}, *file, {"scene", "session", nullptr, {}});
  ASSERT_TRUE(check);
  ASSERT_FALSE(check->matches());
  EXPECT_FALSE(replayToEnd());
  ASSERT_TRUE(session().firstDifferingTick());
  EXPECT_EQ(*session().firstDifferingTick(), *check->firstDifferingTick);
  EXPECT_NE(play().timeline()->positionText().indexOf(
                QString("differs at %1").arg(*check->firstDifferingTick)),
            -1)
      << play().timeline()->positionText().toStdString();
}

TEST_F(PlaySessionRecordTest, ScrubAndStepBackEqualAFreshRun) {
  recordWalk();
  const runtime::PlayRecording recording = session().recordingData();
  for (std::uint64_t tick : {23u, 61u, 40u, 1u, 89u}) {
    ASSERT_TRUE(session().seek(tick));
    EXPECT_EQ(session().tick(), tick);
    EXPECT_EQ(liveHash(), freshHash(recording, tick)) << "tick " << tick;
    EXPECT_EQ(session().simulation()->stateHash(), *recording.hashAfter(tick)) << "tick " << tick;
  }
  ASSERT_TRUE(session().seek(23));
  window().action("actionStepBack")->trigger();
  EXPECT_EQ(session().tick(), 22u);
  EXPECT_EQ(liveHash(), freshHash(recording, 22));
  // The slider is the same seek.
  play().timeline()->slider()->setValue(50);
  EXPECT_EQ(session().tick(), 50u);
  EXPECT_EQ(session().simulation()->stateHash(), *recording.hashAfter(50));
  EXPECT_EQ(session().recordingData().ticks, 90u);  // scrubbing records nothing
}

TEST_F(PlaySessionRecordTest, TheTimelineIsAnOverlayAlongTheBottomOfTheView) {
  openText(kWalkScene);
  window().resize(1400, 800);
  QTest::qWait(50);
  playPaused();
  for (int i = 0; i < 90; ++i) play().step();
  PlayTimeline* timeline = play().timeline();
  RaymarchView* view = window().viewport();
  // Drawn over the play view: a child of the viewport, along its bottom edge, over its width;
  // no tool bar holds it.
  EXPECT_EQ(timeline->parentWidget(), view);
  EXPECT_TRUE(timeline->isVisible());
  EXPECT_EQ(window().findChild<QToolBar*>("playTimelineBar"), nullptr);
  const QRect box = timeline->geometry();
  EXPECT_TRUE(view->rect().contains(box)) << box.x() << "," << box.y();
  EXPECT_GE(box.bottom(), view->height() - 16);
  EXPECT_GE(box.width(), view->width() - 16);
  EXPECT_LE(play().plot()->geometry().bottom(), box.top());  // the HUD plot stands above it
  // The strip marks the kept snapshots (every 30 ticks) at their place on the slider's range.
  EXPECT_EQ(timeline->snapshotMarks(), session().snapshots().ticks());
  EXPECT_EQ(timeline->snapshotMarks(), (std::vector<std::uint64_t>{0, 30, 60, 90}));
  const QRect strip = timeline->stripRect();
  ASSERT_GT(strip.width(), 2 * 90);  // more than a pixel a tick: a mark names its tick
  EXPECT_EQ(timeline->markX(0), strip.left());
  EXPECT_EQ(timeline->markX(90), strip.right());
  // A press on the strip seeks to the tick drawn there (and never reaches the view).
  const QStringList selection = session().copy()->selection();
  QTest::mouseClick(timeline, Qt::LeftButton, Qt::NoModifier,
                    QPoint(timeline->markX(60), strip.center().y()));
  EXPECT_EQ(session().tick(), 60u);
  EXPECT_EQ(session().simulation()->stateHash(), *session().recordingData().hashAfter(60));
  EXPECT_EQ(session().copy()->selection(), selection);
  // Its controls leave the keyboard to the view (the player's keys).
  EXPECT_EQ(timeline->slider()->focusPolicy(), Qt::NoFocus);
  window().action("actionStop")->trigger();
  EXPECT_FALSE(timeline->isVisible());
}

TEST_F(PlaySessionRecordTest, PlayingOnFromAnEarlierTickBranchesTheRecording) {
  recordWalk();
  ASSERT_TRUE(session().seek(30));
  QTest::keyPress(window().viewport(), Qt::Key_D);  // a new input at tick 30: a new future
  for (int i = 0; i < 10; ++i) play().step();
  QTest::keyRelease(window().viewport(), Qt::Key_D);
  const runtime::PlayRecording branch = session().recordingData();
  EXPECT_EQ(branch.ticks, 40u);
  EXPECT_EQ(branch.hashes.size(), 40u);
  EXPECT_TRUE(branch.tuning.empty());  // the edit at tick 40 was in the future dropped
  for (const auto& e : branch.inputs) EXPECT_LE(e["tick"].get<int>(), 40) << e.dump();
  EXPECT_EQ(branch.inputs.back()["tick"], 40);  // the release, at the end
  window().action("actionStop")->trigger();
  auto file = runtime::readRecordingFile(sessionFile().toStdString());
  ASSERT_TRUE(file);
  EXPECT_EQ(file->ticks, 40u);
  auto check =
      runtime::checkRecording(document().json(), {}, *file, {"scene", "session", nullptr, {}});
  ASSERT_TRUE(check);
  EXPECT_TRUE(check->matches()) << runtime::describeCheck(*check, *file);
}

TEST_F(PlaySessionRecordTest, ExportedInputsReplayToTheRecordedHash) {
  openText(kWalkScene);
  playPaused();
  QTest::keyPress(window().viewport(), Qt::Key_W);
  for (int i = 0; i < 30; ++i) play().step();
  QTest::keyPress(window().viewport(), Qt::Key_A);
  for (int i = 0; i < 30; ++i) play().step();
  const QString path = QFileInfo(scenePath()).absolutePath() + "/exported.inputs.json";
  ASSERT_TRUE(play().exportInputsTo(path));
  auto inputs = runtime::readInputsFile(path.toStdString());
  ASSERT_TRUE(inputs) << inputs.error().message();
  EXPECT_EQ(*inputs, session().recordingData().inputs);
  runtime::ReplayOptions options;
  options.ticks = 60;
  options.inputs = &*inputs;
  auto result = runtime::replay(document().json(), {}, options);
  ASSERT_TRUE(result) << result.error().message();
  EXPECT_EQ((*result)["hash"], liveHash());
}

TEST_F(PlaySessionRecordTest, SessionChartSeriesAreTheCsvTraceColumns) {
  recordWalk(60);
  const runtime::PlayRecording recording = session().recordingData();
  // The CSV trace of the same run: the headless replay with the session's inputs and edit.
  std::string csv;
  runtime::SessionCheckOptions options{"scene", "session", nullptr, {}};
  options.afterTick = [&csv](const physics::Simulation& sim, double seconds) {
    if (csv.empty()) csv = runtime::traceCsvHeader(sim);
    csv += runtime::traceCsvRow(sim, seconds);
  };
  ASSERT_TRUE(runtime::checkRecording(document().json(), {}, recording, options));
  std::istringstream lines(csv);
  std::string header;
  std::getline(lines, header);
  std::vector<std::string> columns;
  std::stringstream headerCells(header);
  for (std::string c; std::getline(headerCells, c, ',');) columns.push_back(c);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(lines, line);) {
    std::vector<double> row;
    std::stringstream cells(line);
    for (std::string c; std::getline(cells, c, ',');) row.push_back(std::stod(c));
    rows.push_back(row);
  }
  ASSERT_EQ(rows.size(), 60u);
  SessionPanel* panel = play().sessionPanel();
  ASSERT_NE(panel, nullptr);
  for (const char* node : {"player", "ball"}) {
    ASSERT_TRUE(panel->setNode(node));
    for (runtime::SeriesQuantity q :
         {runtime::SeriesQuantity::Speed, runtime::SeriesQuantity::Height,
          runtime::SeriesQuantity::Gravity, runtime::SeriesQuantity::Kinetic,
          runtime::SeriesQuantity::Potential, runtime::SeriesQuantity::Contacts}) {
      panel->setQuantity(q);
      const std::string name = std::string(node) + "." + runtime::seriesColumn(q);
      const auto at = std::find(columns.begin(), columns.end(), name);
      ASSERT_NE(at, columns.end()) << name;
      const std::size_t column = std::size_t(at - columns.begin());
      const QList<QPointF> points = panel->seriesPoints();
      ASSERT_EQ(points.size(), 60) << name;
      for (int t = 0; t < 60; ++t) {
        EXPECT_EQ(points[t].x(), double(t + 1));
        EXPECT_EQ(points[t].y(), rows[std::size_t(t)][column]) << name << " tick " << t + 1;
      }
    }
  }
  // The cursor stands at the timeline's tick.
  ASSERT_TRUE(session().seek(17));
  panel->refresh();
  const QList<QPointF> cursor = panel->cursorPoints();
  ASSERT_EQ(cursor.size(), 2);
  EXPECT_EQ(cursor[0].x(), 17.0);
  EXPECT_EQ(cursor[1].x(), 17.0);
  // The HUD plot is a Qt Charts series of the same samples.
  PlayPlot* plot = play().plot();
  const QList<QPointF> speeds = plot->speedPoints();
  ASSERT_EQ(speeds.size(), qsizetype(plot->speeds().size()));
  ASSERT_FALSE(plot->speeds().empty());
  for (qsizetype i = 0; i < speeds.size(); ++i)
    EXPECT_EQ(speeds[i].y(), plot->speeds()[std::size_t(i)]);
}

}  // namespace
}  // namespace floptle::editor::test
