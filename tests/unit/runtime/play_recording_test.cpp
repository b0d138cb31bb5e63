// Recorded play sessions (runtime/play_recording.h, session_check.h, session_tuning.h,
// session_snapshots.h): the file round-trips and refuses bad content naming where; a session
// replays to its own hashes; an edited scene is caught at the first tick whose state differs
// (found here by an independent tick-by-tick comparison); tuning edits take effect at their
// tick; a snapshot plus steps equals a straight run; the exported inputs replay to the final
// hash; the series table holds the CSV trace's numbers.
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "floptle/core/scene/scene.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/play_recording.h"
#include "floptle/runtime/replay.h"
#include "floptle/runtime/scene_runtime.h"
#include "floptle/runtime/session_check.h"
#include "floptle/runtime/session_snapshots.h"
#include "floptle/runtime/session_tuning.h"
#include "floptle/runtime/tick_series.h"
#include "runtime_test_util.h"

namespace floptle::runtime {
namespace {

using OrderedJson = nlohmann::ordered_json;

// Flat ground, a rubber ball falling onto it and a character (the play tests' walk scene).
OrderedJson walkScene() {
  return OrderedJson::parse(R"({
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
})");
}

nlohmann::json walkInputs() {
  return nlohmann::json::parse(R"([
    {"tick": 0, "node": "player", "move": [0, -1]},
    {"tick": 20, "node": "player", "jump": true},
    {"tick": 35, "node": "player", "move": [0.6, -0.8]},
    {"tick": 70, "node": "player", "move": [0, 0]}])");
}

/// The state hash after each of `ticks` ticks of `document` with `inputs` and `edits`: a
/// straight replay, tick by tick (hashes[i]: after tick i + 1).
std::vector<std::uint64_t> hashesOf(const OrderedJson& document, const nlohmann::json& inputs,
                                    std::uint64_t ticks, std::vector<TuningEdit> edits = {}) {
  std::vector<std::uint64_t> hashes;
  TuningSchedule tuning(document, std::move(edits));
  ReplayOptions options;
  options.ticks = ticks;
  options.inputs = &inputs;
  options.beforeTick = [&](SceneRuntime& runtime) { return tuning.applyDue(runtime); };
  options.afterTick = [&](const physics::Simulation& sim, double) {
    hashes.push_back(sim.stateHash());
  };
  auto result = replay(document, {}, options);
  EXPECT_TRUE(result) << (result ? "" : result.error().message());
  return hashes;
}

/// A recording of `document` made by the straight replay above.
PlayRecording record(const OrderedJson& document, std::uint64_t ticks,
                     std::vector<TuningEdit> edits = {}) {
  PlayRecording r;
  r.scene = "walk.json";
  r.sceneHash = sceneHash(document);
  r.ticks = ticks;
  r.inputs = walkInputs();
  r.tuning = edits;
  const std::vector<std::uint64_t> hashes = hashesOf(document, r.inputs, ticks, edits);
  for (std::uint64_t t = 1; t <= ticks; ++t) r.addHash(t, hashes[t - 1]);
  r.finalHash = hashes.back();
  return r;
}

TEST(PlayRecordingFile, RoundTripsEveryField) {
  PlayRecording r = record(walkScene(), 90, {{40, OrderedJson::parse(R"([{"op": "replace",
                               "path": "/materials/0/friction", "value": 0.1}])")}});
  r.fixedDt = 1.0 / 120.0;
  auto back = parseRecordingText(recordingToJson(r).dump(2), "walk.session.json");
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->scene, r.scene);
  EXPECT_EQ(back->sceneHash, r.sceneHash);
  EXPECT_EQ(back->fixedDt, r.fixedDt);
  EXPECT_EQ(back->hashEvery, 1u);
  EXPECT_EQ(back->ticks, 90u);
  EXPECT_EQ(back->inputs, r.inputs);
  ASSERT_EQ(back->tuning.size(), 1u);
  EXPECT_EQ(back->tuning[0].tick, 40u);
  EXPECT_EQ(back->tuning[0].patch, r.tuning[0].patch);
  EXPECT_EQ(back->hashes, r.hashes);
  EXPECT_EQ(back->finalHash, r.finalHash);
}

TEST(PlayRecordingFile, BadContentIsRefusedNamingTheFileAndPointer) {
  const OrderedJson good = recordingToJson(record(walkScene(), 5));
  auto refused = [&](const char* pointer, const OrderedJson& value) {
    OrderedJson bad = good;
    bad[OrderedJson::json_pointer(pointer)] = value;
    auto parsed = parseRecordingText(bad.dump(), "s.session.json");
    EXPECT_FALSE(parsed) << pointer;
    return parsed ? Error{} : parsed.error();
  };
  EXPECT_EQ(refused("/hashes/2", "12").where, "s.session.json: /hashes/2");
  EXPECT_EQ(refused("/final_hash", 7).where, "s.session.json: /final_hash");
  EXPECT_EQ(refused("/inputs/1/move", OrderedJson::array({3, 0})).where,
            "s.session.json: /inputs/1/move");
  EXPECT_EQ(refused("/settings/hash_every", 0).where, "s.session.json: /settings/hash_every");
  EXPECT_EQ(refused("/format", "floptle.scene").where, "s.session.json: /format");
  EXPECT_EQ(refused("/ticks", -1).where, "s.session.json: /ticks");
  auto broken = parseRecordingText("{\"format\": ", "s.session.json");
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().where.find("s.session.json: byte"), std::string::npos);
}

TEST(PlayRecordingFile, SessionPathIsBesideTheScene) {
  EXPECT_EQ(sessionPathFor("/a/b/level.json"), "/a/b/level.session.json");
  EXPECT_EQ(sessionPathFor("level"), "level.session.json");
}

TEST(PlayRecordingTruncate, KeepsWhatCameBeforeTheBranch) {
  PlayRecording r =
      record(walkScene(), 50, {{20, OrderedJson::array()}, {30, OrderedJson::array()}});
  r.truncate(30, 99);
  EXPECT_EQ(r.ticks, 30u);
  EXPECT_EQ(r.hashes.size(), 30u);
  ASSERT_EQ(r.inputs.size(), 2u);  // ticks 0 and 20; 35 and 70 were after
  EXPECT_EQ(r.inputs[1]["tick"], 20);
  ASSERT_EQ(r.tuning.size(), 1u);
  EXPECT_EQ(r.finalHash, 99u);
}

TEST(SessionCheck, AnUneditedSceneReplaysToEveryRecordedHash) {
  const PlayRecording r = record(walkScene(), 120);
  auto check = checkRecording(walkScene(), {}, r, {"walk.json", "walk.session.json", nullptr, {}});
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_TRUE(check->sceneMatches);
  EXPECT_TRUE(check->matches()) << describeCheck(*check, r);
  EXPECT_EQ(check->result["hash"], physics::Simulation::hashHex(r.finalHash));
}

TEST(SessionCheck, AnEditedSceneNamesTheFirstTickThatDiffers) {
  const PlayRecording r = record(walkScene(), 120);
  // The ball starts 5 cm higher; the tick where the states part is found by comparing a
  // straight run of the edited scene with the recording, tick by tick.
  OrderedJson edited = walkScene();
  edited["nodes"][1]["transform"]["position"][1] = 2.05;
  const std::vector<std::uint64_t> hashes = hashesOf(edited, r.inputs, r.ticks);
  std::uint64_t expected = 0;
  for (std::uint64_t t = 1; t <= r.ticks && !expected; ++t)
    if (hashes[t - 1] != r.hashes[t - 1]) expected = t;
  ASSERT_NE(expected, 0u) << "the edit changes nothing";
  auto check = checkRecording(edited, {}, r, {"walk.json", "walk.session.json", nullptr, {}});
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_FALSE(check->sceneMatches);
  ASSERT_FALSE(check->matches());
  EXPECT_EQ(*check->firstDifferingTick, expected);
  EXPECT_NE(describeCheck(*check, r).find("at tick " + std::to_string(expected) +
                                          " (the scene changed since it was recorded)"),
            std::string::npos)
      << describeCheck(*check, r);
}

TEST(SessionCheck, HashesKeptEveryNTicksStillLocateTheDifferenceWithinN) {
  PlayRecording every1 = record(walkScene(), 120);
  PlayRecording r = every1;
  r.hashEvery = 8;
  r.hashes.clear();
  for (std::uint64_t t = 1; t <= r.ticks; ++t) r.addHash(t, every1.hashes[t - 1]);
  ASSERT_EQ(r.hashes.size(), 15u);
  OrderedJson edited = walkScene();
  edited["materials"][1]["restitution"] = 0.3;  // the ball bounces lower once it lands
  auto exact = checkRecording(edited, {}, every1, {"w", "s", nullptr, {}});
  auto coarse = checkRecording(edited, {}, r, {"w", "s", nullptr, {}});
  ASSERT_TRUE(exact && coarse);
  ASSERT_FALSE(exact->matches());
  ASSERT_FALSE(coarse->matches());
  EXPECT_GE(*coarse->firstDifferingTick, *exact->firstDifferingTick);
  EXPECT_LT(*coarse->firstDifferingTick, *exact->firstDifferingTick + 8);
  EXPECT_EQ(*coarse->firstDifferingTick % 8, 0u);
}

TEST(TuningSchedule, AnEditTakesEffectAtItsTickAndNotBefore) {
  const OrderedJson scene = walkScene();
  const std::vector<TuningEdit> edits{
      {50, OrderedJson::parse(
               R"([{"op": "replace", "path": "/materials/1/restitution", "value": 0.2}])")}};
  // By hand: run to tick 50, install the edited document, run on.
  auto sc = scene::buildScene(scene);
  ASSERT_TRUE(sc);
  SceneRuntime runtime = test::built(scene);
  const nlohmann::json inputs = walkInputs();
  runtime.physics()->setInputEvents(physics::parseInputEvents(inputs).value());
  for (int i = 0; i < 50; ++i) runtime.step();
  const OrderedJson edited = scene.patch(edits[0].patch);
  ASSERT_TRUE(runtime.applyTuning(edited, scene::buildScene(edited).value()));
  for (int i = 50; i < 150; ++i) runtime.step();

  const std::vector<std::uint64_t> scheduled = hashesOf(scene, inputs, 150, edits);
  const std::vector<std::uint64_t> plain = hashesOf(scene, inputs, 150);
  EXPECT_EQ(scheduled.back(), runtime.physics()->stateHash());
  EXPECT_EQ(scheduled[49], plain[49]);        // the 50 ticks before the edit
  EXPECT_NE(scheduled.back(), plain.back());  // and the edit matters
  TuningSchedule schedule(scene, edits);
  EXPECT_EQ(schedule.documentAt(49).value(), scene);
  EXPECT_EQ(schedule.documentAt(50).value(), edited);
}

TEST(SnapshotKeeper, ASnapshotPlusStepsEqualsAStraightRun) {
  const OrderedJson scene = walkScene();
  const nlohmann::json inputs = walkInputs();
  const std::vector<std::uint64_t> straight = hashesOf(scene, inputs, 100);
  SceneRuntime runtime = test::built(scene);
  physics::Simulation& sim = *runtime.physics();
  sim.setInputEvents(physics::parseInputEvents(inputs).value());
  SnapshotKeeper keeper(std::size_t(1) << 20, 10);
  keeper.offer(sim);
  for (int i = 0; i < 100; ++i) {
    runtime.step();
    keeper.offer(sim);
  }
  EXPECT_EQ(keeper.size(), 11u);  // ticks 0, 10, ..., 100
  for (std::uint64_t target : {37u, 10u, 99u, 1u}) {
    const physics::SimulationState* s = keeper.nearest(target);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->tick, target / 10 * 10);
    sim.restore(*s);
    while (sim.tick() < target) runtime.step();
    EXPECT_EQ(sim.stateHash(), straight[target - 1]) << "tick " << target;
  }
}

TEST(SnapshotKeeper, StaysWithinItsBudgetByThinning) {
  SceneRuntime runtime = test::built(walkScene());
  physics::Simulation& sim = *runtime.physics();
  const std::size_t one = stateBytes(sim.save());
  SnapshotKeeper keeper(one * 5, 1);
  keeper.offer(sim);
  for (int i = 0; i < 64; ++i) {
    runtime.step();
    keeper.offer(sim);
    EXPECT_LE(keeper.bytes(), keeper.budget());
  }
  EXPECT_GE(keeper.every(), 16u);  // 64 ticks in at most 5 snapshots
  EXPECT_EQ(keeper.nearest(0)->tick, 0u);
  keeper.dropAfter(20);
  EXPECT_LE(keeper.nearest(64)->tick, 20u);
}

TEST(ExportedInputs, ReplayToTheRecordedFinalHash) {
  const PlayRecording r = record(walkScene(), 90);
  const std::string path = ::testing::TempDir() + "/exported.inputs.json";
  ASSERT_TRUE(writeInputsFile(r, path));
  auto inputs = readInputsFile(path);
  ASSERT_TRUE(inputs) << inputs.error().message();
  ReplayOptions options;
  options.ticks = r.ticks;
  options.inputs = &*inputs;
  auto result = replay(walkScene(), {}, options);
  ASSERT_TRUE(result) << result.error().message();
  EXPECT_EQ((*result)["hash"], physics::Simulation::hashHex(r.finalHash));
}

TEST(SeriesTable, HoldsTheCsvTracesNumbers) {
  const nlohmann::json inputs = walkInputs();
  SeriesTable table;
  std::string csv;
  ReplayOptions options;
  options.ticks = 60;
  options.inputs = &inputs;
  options.afterTick = [&](const physics::Simulation& sim, double seconds) {
    if (csv.empty()) csv = traceCsvHeader(sim);
    csv += traceCsvRow(sim, seconds);
    table.record(sim, seconds);
  };
  ASSERT_TRUE(replay(walkScene(), {}, options));
  ASSERT_EQ(table.ticks(), 60u);
  ASSERT_EQ(table.names(), (std::vector<std::string>{"ball", "player"}));
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // header: tick,t, then 6 per node, then step_ms
  for (std::uint64_t t = 1; std::getline(lines, line); ++t) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    ASSERT_EQ(cells.size(), 2u + 12u + 1u);
    EXPECT_EQ(std::stoull(cells[0]), t);
    EXPECT_EQ(std::stod(cells[1]), table.time(t));
    for (std::size_t node = 0; node < 2; ++node)
      for (int q = 0; q < 6; ++q)
        EXPECT_EQ(std::stod(cells[2 + node * 6 + std::size_t(q)]),
                  table.value(node, SeriesQuantity(q), t))
            << "tick " << t << " node " << node << " " << seriesColumn(SeriesQuantity(q));
    EXPECT_EQ(std::stod(cells.back()), table.value(0, SeriesQuantity::StepTime, t));
  }
  table.truncate(20);
  EXPECT_EQ(table.ticks(), 20u);
}

}  // namespace
}  // namespace floptle::runtime
