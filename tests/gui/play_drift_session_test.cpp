// Recorded Drift play sessions in the editor: ripples clicked on the water and a drag edit made
// while paused are recorded in Drift's inputs format and written beside the scene on Stop;
// the headless check (runtime::checkRecording, `floptle simulate --session`) agrees with the
// hashes the editor kept; Play > Replay plays the file back to the same hash after every tick
// and leaves it byte for byte as it was; a tampered tick is named by the replay; the exported
// inputs replay to the final hash; the timeline's scrub equals the recording and playing on
// from an earlier tick branches it.
#include <QFileInfo>
#include <QSlider>

#include "floptle/core/scene/scene_io.h"
#include "floptle/drift/sandbox.h"
#include "floptle/editor/play_drift_edit.h"
#include "floptle/editor/play_timeline.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/play_recording.h"
#include "floptle/runtime/replay.h"
#include "floptle/runtime/session_check.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

QByteArray driftSceneText() {
  QFile file(QStringLiteral(FLOPTLE_SOURCE_DIR "/scenes/drift.json"));
  EXPECT_TRUE(file.open(QIODevice::ReadOnly));
  return file.readAll();
}

QByteArray slurp(const QString& path) {
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
  return file.readAll();
}

class PlayDriftSessionTest : public PlayWindowTest {
 protected:
  /// Plays drift.json paused: a click on the water at tick 5, a ripple placed at (-1, 1.2) m
  /// at tick 20, the drag rate set to 1.5 /s at tick 40 (in the Drift section's write path),
  /// then on to `ticks`.
  void recordRipples(int ticks = 90) {
    openText(driftSceneText().constData());
    playPaused();
    ASSERT_EQ(session().kind(), PlayKind::Drift);
    ASSERT_TRUE(session().recording());
    for (int i = 0; i < 5; ++i) play().step();
    RaymarchView* view = window().viewport();
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier,
                      QPoint(view->width() / 2 + 40, view->height() * 3 / 4));
    for (int i = 5; i < 20; ++i) play().step();
    ASSERT_TRUE(session().placeRipple(-1.0, 1.2));
    for (int i = 20; i < 40; ++i) play().step();
    EditorDocument* copy = session().copy();
    ASSERT_TRUE(setDriftValue(*copy, copy->nodePointer("boat") + "/drift", "drag_rate", 1.5).ok());
    EXPECT_DOUBLE_EQ(session().sandbox()->tuning().dragRate, 1.5);  // live at once
    for (int i = 40; i < ticks; ++i) play().step();
    ASSERT_EQ(session().tick(), std::uint64_t(ticks));
    ASSERT_EQ(session().sandbox()->counters().placements, 2u);
    ASSERT_GE(session().sandbox()->counters().contacts, 1u);  // the ripples pushed the boat
  }
  QString sessionFile() {
    return QString::fromStdString(runtime::sessionPathFor(document().filePath().toStdString()));
  }
  runtime::SessionCheckOptions names() { return {"drift.json", "drift.session.json", nullptr, {}}; }
  /// Replays the session file and waits for its end; the matches argument of replayFinished.
  bool replayToEnd() {
    QSignalSpy finished(&session(), &PlaySession::replayFinished);
    EXPECT_TRUE(play().replayFile(sessionFile()));
    EXPECT_TRUE(waitForBuild(session()));
    EXPECT_TRUE(session().replaying());
    EXPECT_TRUE(finished.wait(30000) || !finished.isEmpty());
    return !finished.isEmpty() && finished.front().at(0).toBool();
  }
};

TEST_F(PlayDriftSessionTest, StopWritesTheSessionAndReplayIsBitForBit) {
  recordRipples();
  const runtime::PlayRecording live = session().recordingData();
  EXPECT_EQ(live.simulation, runtime::SessionKind::Drift);
  EXPECT_EQ(live.hashes.size(), 90u);
  EXPECT_EQ(live.finalHash, session().sandbox()->stateHash());
  // Drift's inputs: the click, the placement and the edit (the key it changed), by tick.
  ASSERT_EQ(live.inputs.size(), 3u) << live.inputs.dump();
  EXPECT_EQ(live.inputs[0]["tick"], 5);
  EXPECT_TRUE(live.inputs[0].contains("place"));
  EXPECT_EQ(live.inputs[1], nlohmann::json::parse(R"({"tick": 20, "place": [-1.0, 1.2]})"));
  EXPECT_EQ(live.inputs[2], nlohmann::json::parse(R"({"tick": 40, "tuning": {"drag_rate": 1.5}})"));
  EXPECT_TRUE(live.tuning.empty());
  window().action("actionStop")->trigger();

  const QByteArray written = slurp(sessionFile());
  auto file = runtime::readRecordingFile(sessionFile().toStdString());
  ASSERT_TRUE(file) << file.error().message();
  EXPECT_EQ(runtime::recordingToJson(*file).dump(), runtime::recordingToJson(live).dump());
  // The headless check of the scene file (floptle simulate --session) agrees with every hash
  // the editor kept.
  auto scene = scene::loadSceneFile(document().filePath().toStdString());
  ASSERT_TRUE(scene);
  auto check = runtime::checkRecording(*scene, {}, *file, names());
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_TRUE(check->sceneMatches);
  EXPECT_TRUE(check->matches()) << runtime::describeCheck(*check, *file);

  // Play > Replay: every tick's hash compared, the final one equal.
  EXPECT_TRUE(replayToEnd());
  EXPECT_EQ(session().tick(), 90u);
  EXPECT_EQ(session().sandbox()->stateHash(), file->finalHash);
  EXPECT_EQ(session().sandbox()->counters().placements, 2u);
  EXPECT_DOUBLE_EQ(session().sandbox()->tuning().dragRate, 1.5);
  EXPECT_FALSE(session().firstDifferingTick());
  window().action("actionStop")->trigger();
  EXPECT_EQ(slurp(sessionFile()), written);  // an unbranched replay leaves the file as it was

  // The exported inputs are a whole Drift session for `floptle simulate --inputs` (the edit
  // is one of them).
  const QString exported = QFileInfo(sessionFile()).absolutePath() + "/drift.inputs.json";
  ASSERT_TRUE(play().exportInputsTo(exported));
  auto inputs = runtime::readInputsFile(exported.toStdString());
  ASSERT_TRUE(inputs) << inputs.error().message();
  runtime::ReplayOptions options;
  options.ticks = 90;
  options.inputs = &*inputs;
  auto result = runtime::replay(*scene, {}, options);
  ASSERT_TRUE(result) << result.error().message();
  EXPECT_EQ((*result)["hash"], physics::Simulation::hashHex(file->finalHash));
}

TEST_F(PlayDriftSessionTest, ATamperedTickIsNamedByTheReplay) {
  recordRipples();
  window().action("actionStop")->trigger();
  // The file edited by hand: the hash kept after tick 50 is tick 49's.
  auto json = nlohmann::ordered_json::parse(slurp(sessionFile()).toStdString());
  json["hashes"][49] = json["hashes"][48];
  {
    QFile file(sessionFile());
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QByteArray::fromStdString(json.dump(2)));
  }
  QSignalSpy finished(&session(), &PlaySession::replayFinished);
  EXPECT_FALSE(replayToEnd());
  ASSERT_TRUE(session().firstDifferingTick());
  EXPECT_EQ(*session().firstDifferingTick(), 50u);
  ASSERT_EQ(finished.size(), 1);
  EXPECT_NE(finished.front().at(1).toString().indexOf("differs from the recording at tick 50"), -1)
      << finished.front().at(1).toString().toStdString();
  EXPECT_NE(play().timeline()->positionText().indexOf("differs at 50"), -1)
      << play().timeline()->positionText().toStdString();
  // The replay ran on to the end all the same: the state is the recorded one.
  EXPECT_EQ(session().tick(), 90u);
  EXPECT_EQ(physics::Simulation::hashHex(session().sandbox()->stateHash()),
            json["final_hash"].get<std::string>());
}

TEST_F(PlayDriftSessionTest, ScrubEqualsTheRecordingAndPlayingOnBranches) {
  recordRipples();
  const runtime::PlayRecording recording = session().recordingData();
  for (std::uint64_t tick : {23u, 61u, 40u, 41u, 1u, 89u}) {
    ASSERT_TRUE(session().seek(tick));
    EXPECT_EQ(session().tick(), tick);
    EXPECT_EQ(session().sandbox()->stateHash(), *recording.hashAfter(tick)) << "tick " << tick;
  }
  ASSERT_TRUE(session().seek(45));
  window().action("actionStepBack")->trigger();
  EXPECT_EQ(session().tick(), 44u);
  EXPECT_EQ(session().sandbox()->stateHash(), *recording.hashAfter(44));
  // A press on the timeline's strip seeks, and is no click on the water (no ripple recorded).
  window().resize(1400, 800);
  QTest::qWait(50);
  PlayTimeline* timeline = play().timeline();
  ASSERT_GT(timeline->stripRect().width(), 2 * 90);
  QTest::mouseClick(timeline, Qt::LeftButton, Qt::NoModifier,
                    QPoint(timeline->markX(20), timeline->stripRect().center().y()));
  EXPECT_EQ(session().tick(), 20u);
  EXPECT_EQ(session().sandbox()->stateHash(), *recording.hashAfter(20));
  EXPECT_EQ(session().recordingData().inputs, recording.inputs);
  play().timeline()->slider()->setValue(30);
  EXPECT_EQ(session().tick(), 30u);
  EXPECT_EQ(session().sandbox()->stateHash(), *recording.hashAfter(30));
  EXPECT_DOUBLE_EQ(session().sandbox()->tuning().dragRate, 0.7);  // before the edit at 40
  EXPECT_EQ(session().recordingData().ticks, 90u);                // scrubbing records nothing

  // A ripple at tick 30: a new future from here (the edit at tick 40 is dropped).
  ASSERT_TRUE(session().placeRipple(0.8, -0.9));
  for (int i = 0; i < 10; ++i) play().step();
  const runtime::PlayRecording branch = session().recordingData();
  EXPECT_EQ(branch.ticks, 40u);
  EXPECT_EQ(branch.hashes.size(), 40u);
  ASSERT_EQ(branch.inputs.size(), 3u) << branch.inputs.dump();
  EXPECT_EQ(branch.inputs[2], nlohmann::json::parse(R"({"tick": 30, "place": [0.8, -0.9]})"));
  window().action("actionStop")->trigger();
  auto file = runtime::readRecordingFile(sessionFile().toStdString());
  ASSERT_TRUE(file) << file.error().message();
  EXPECT_EQ(file->ticks, 40u);
  auto check = runtime::checkRecording(document().json(), {}, *file, names());
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_TRUE(check->matches()) << runtime::describeCheck(*check, *file);
}

}  // namespace
}  // namespace floptle::editor::test
