// Recorded Drift play sessions (runtime/play_recording.h, session_check.h): a session of a
// Drift scene keeps Drift's own inputs ({"tick", "place"} and {"tick", "tuning"}) and round-
// trips through its file; checkRecording replays it to its hashes, which are found here by
// driving drift::Sandbox directly (its public API, tick by tick, not replay()); a tampered
// hash is named by its tick, a moved ripple by the first tick whose state it changes (the
// placement of tick n shows in the state after n + 1 ticks); a session of the other kind is
// refused by name; Drift snapshots plus steps equal a straight run.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "floptle/core/scene/scene.h"
#include "floptle/drift/drift_json.h"
#include "floptle/drift/sandbox.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/play_recording.h"
#include "floptle/runtime/scene_runtime.h"
#include "floptle/runtime/session_check.h"
#include "floptle/runtime/session_snapshots.h"

namespace floptle::runtime {
namespace {

using OrderedJson = nlohmann::ordered_json;

// The boat of scenes/drift.json, drifting with a 0.3 m/s current.
OrderedJson driftScene() {
  return OrderedJson::parse(R"({
  "format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
  "nodes": [
    {"name": "water", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0}},
    {"name": "boat", "drift": {"boat_radius": 0.5, "water_velocity": [0.3, 0],
                               "ripple_growth": 4, "ripple_impulse": 3}}]})");
}

// Two ripples near the boat and a drag change in between.
nlohmann::json driftInputs() {
  return nlohmann::json::parse(R"([
    {"tick": 5, "place": [1.5, 0.2]},
    {"tick": 30, "tuning": {"drag_rate": 1.5}},
    {"tick": 40, "place": [-1.0, -1.2]}])");
}

constexpr std::uint64_t kTicks = 90;

/// The state hash after each tick (hashes[i]: after tick i + 1), by the sandbox's own API:
/// the placements scheduled for their tick, the drag changed before tick 30.
std::vector<std::uint64_t> sandboxHashes(double firstRippleX = 1.5) {
  auto setup = drift::driftSetupFromJson(driftScene()["nodes"][1]["drift"], "/nodes/1/drift");
  EXPECT_TRUE(setup);
  auto sandbox = std::make_unique<drift::Sandbox>();
  EXPECT_TRUE(sandbox->restart(setup->tuning, setup->start).ok());
  std::vector<std::uint64_t> hashes;
  for (std::uint64_t tick = 0; tick < kTicks; ++tick) {
    if (tick == 5) {
      EXPECT_TRUE(sandbox->schedulePlacement(5, {firstRippleX, 0.2}));
    }
    if (tick == 30) {
      drift::Tuning tuning = sandbox->tuning();
      tuning.dragRate = 1.5;
      EXPECT_TRUE(sandbox->setTuning(tuning).ok());
    }
    if (tick == 40) {
      EXPECT_TRUE(sandbox->schedulePlacement(40, {-1.0, -1.2}));
    }
    sandbox->tick();
    hashes.push_back(sandbox->stateHash());
  }
  EXPECT_EQ(sandbox->counters().placements, 2u);
  EXPECT_GE(sandbox->counters().contacts, 1u);  // the ripples reach the boat
  return hashes;
}

PlayRecording driftRecording() {
  PlayRecording r;
  r.scene = "drift.json";
  r.simulation = SessionKind::Drift;
  r.sceneHash = sceneHash(driftScene());
  r.fixedDt = drift::kTickSeconds;
  r.ticks = kTicks;
  r.inputs = driftInputs();
  r.hashes = sandboxHashes();
  r.finalHash = r.hashes.back();
  return r;
}

SessionCheckOptions names() {
  return {"drift.json", "drift.session.json", nullptr, {}};
}

TEST(DriftSession, RoundTripsThroughItsFile) {
  const PlayRecording r = driftRecording();
  const OrderedJson json = recordingToJson(r);
  EXPECT_EQ(json["simulation"], "drift");
  auto back = parseRecordingText(json.dump(2), "drift.session.json");
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->simulation, SessionKind::Drift);
  EXPECT_EQ(back->inputs, r.inputs);
  EXPECT_EQ(back->hashes, r.hashes);
  EXPECT_EQ(back->finalHash, r.finalHash);
  EXPECT_EQ(recordingToJson(*back).dump(), json.dump());
  // A file without "simulation" (written before Drift sessions) is a physics session.
  OrderedJson old = recordingToJson(PlayRecording());
  old.erase("simulation");
  auto physicsSession = parseRecordingText(old.dump(), "old.session.json");
  ASSERT_TRUE(physicsSession) << physicsSession.error().message();
  EXPECT_EQ(physicsSession->simulation, SessionKind::Physics);
}

TEST(DriftSession, BadContentIsRefusedNamingWhere) {
  OrderedJson json = recordingToJson(driftRecording());
  json["inputs"][2]["place"] = {1.0};
  auto refused = parseRecordingText(json.dump(), "drift.session.json");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().where, "drift.session.json: /inputs/2/place");
  // Physics inputs are not Drift's.
  json = recordingToJson(driftRecording());
  json["inputs"] = nlohmann::json::parse(R"([{"tick": 0, "node": "player", "jump": true}])");
  refused = parseRecordingText(json.dump(), "drift.session.json");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().where, "drift.session.json: /inputs/0/place");
  json = recordingToJson(driftRecording());
  json["simulation"] = "boats";
  refused = parseRecordingText(json.dump(), "drift.session.json");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().where, "drift.session.json: /simulation");
}

TEST(DriftSession, ReplaysToTheHashesOfTheSandboxDrivenDirectly) {
  const PlayRecording r = driftRecording();
  auto check = checkRecording(driftScene(), {}, r, names());
  ASSERT_TRUE(check) << check.error().message();
  EXPECT_TRUE(check->sceneMatches);
  EXPECT_TRUE(check->matches()) << describeCheck(*check, r);
  EXPECT_EQ(check->result["tick"], kTicks);
  EXPECT_EQ(check->result["hash"], physics::Simulation::hashHex(r.finalHash));
  EXPECT_EQ(check->result["counters"]["placements"], 2);
}

TEST(DriftSession, ATamperedHashIsNamedByItsTick) {
  PlayRecording r = driftRecording();
  r.hashes[36] ^= 1;  // the hash after tick 37
  auto check = checkRecording(driftScene(), {}, r, names());
  ASSERT_TRUE(check) << check.error().message();
  ASSERT_FALSE(check->matches());
  EXPECT_EQ(*check->firstDifferingTick, 37u);
  EXPECT_NE(describeCheck(*check, r).find("differs from the recording at tick 37"),
            std::string::npos)
      << describeCheck(*check, r);
}

TEST(DriftSession, AMovedRippleDiffersFromTheTickAfterItsPlacement) {
  // The hashes of a run whose first ripple was placed 1 m further: the recording with the
  // original inputs differs from the tick that consumes the placement (tick 5, the state
  // after 6 ticks) on, never before.
  PlayRecording r = driftRecording();
  const std::vector<std::uint64_t> moved = sandboxHashes(2.5);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(moved[i], r.hashes[i]) << "tick " << i + 1;
  r.hashes = moved;
  r.finalHash = moved.back();
  auto check = checkRecording(driftScene(), {}, r, names());
  ASSERT_TRUE(check) << check.error().message();
  ASSERT_FALSE(check->matches());
  EXPECT_EQ(*check->firstDifferingTick, 6u);
}

TEST(DriftSession, ASessionOfTheOtherKindIsRefusedByName) {
  PlayRecording r = driftRecording();
  r.simulation = SessionKind::Physics;
  r.inputs = nlohmann::json::array();
  auto refused = checkRecording(driftScene(), {}, r, names());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().where, "drift.session.json: /simulation");
  EXPECT_NE(refused.error().what.find("drift.json runs the Drift sandbox"), std::string::npos)
      << refused.error().what;
  // Drift's tuning changes are inputs: a patch list is refused, naming it.
  r = driftRecording();
  r.tuning.push_back({3, OrderedJson::array()});
  refused = checkRecording(driftScene(), {}, r, names());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().where, "drift.session.json: /tuning");
}

TEST(DriftSession, ASnapshotPlusStepsEqualsAStraightRun) {
  const std::vector<std::uint64_t> straight = sandboxHashes();
  const OrderedJson document = driftScene();
  auto scene = scene::buildScene(document);
  ASSERT_TRUE(scene);
  auto runtime = SceneRuntime::build(document, *scene);
  ASSERT_TRUE(runtime) << runtime.error().message();
  drift::Sandbox& sandbox = *runtime->drift();
  SnapshotKeeper keeper(std::size_t(1) << 20, 10);
  keeper.offer(*runtime);
  auto give = [&sandbox](std::uint64_t tick) {
    if (tick == 5) {
      ASSERT_TRUE(sandbox.schedulePlacement(5, {1.5, 0.2}));
    }
    if (tick == 30) {
      drift::Tuning tuning = sandbox.tuning();
      tuning.dragRate = 1.5;
      ASSERT_TRUE(sandbox.setTuning(tuning).ok());
    }
    if (tick == 40) {
      ASSERT_TRUE(sandbox.schedulePlacement(40, {-1.0, -1.2}));
    }
  };
  while (runtime->tick() < kTicks) {
    give(runtime->tick());
    runtime->step();
    keeper.offer(*runtime);
  }
  EXPECT_EQ(keeper.size(), 10u);  // ticks 0, 10, ..., 90
  EXPECT_EQ(keeper.bytes(), 10 * sizeof(drift::Sandbox));
  for (std::uint64_t target : {37u, 3u, 64u, 40u}) {
    ASSERT_TRUE(keeper.restoreNearest(*runtime, target));
    EXPECT_EQ(runtime->tick(), target / 10 * 10);
    while (runtime->tick() < target) {
      give(runtime->tick());
      runtime->step();
    }
    EXPECT_EQ(sandbox.stateHash(), straight[target - 1]) << "tick " << target;
    // The tuning in effect came back with the state.
    EXPECT_EQ(sandbox.tuning().dragRate, target > 30 ? 1.5 : 0.7) << "tick " << target;
  }
  EXPECT_EQ(keeper.nearest(50), nullptr);  // no physics state in a Drift keeper
}

}  // namespace
}  // namespace floptle::runtime
