// The "drift" scene component: defaults, round trip, and errors that name key and place.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "floptle/core/scene/component_values.h"
#include "floptle/drift/drift_json.h"
#include "floptle/drift/replay.h"

namespace floptle::drift {
namespace {

using nlohmann::ordered_json;

ReplayInput placeAt(std::uint64_t tick, Vec2d position) {
  ReplayInput input;
  input.tick = tick;
  input.position = position;
  return input;
}

TEST(DriftJson, ReadsEveryKeyAndDefaultsTheRest) {
  const ordered_json c = ordered_json::parse(R"({
    "boat_radius": 0.6, "boat_position": [1, -2], "boat_velocity": [0.5, 0.25],
    "drag_rate": 0.9, "water_velocity": [0.3, 0.1], "speed_cap": 6,
    "ripple_start_radius": 0.1, "ripple_growth": 3.5, "ripple_half_width": 0.4,
    "ripple_lifetime": 2, "ripple_impulse": 2.5, "placement_cooldown": 0.3})");
  auto setup = driftSetupFromJson(c, "/nodes/1/drift");
  ASSERT_TRUE(setup.ok()) << setup.error().message();
  EXPECT_EQ(setup->tuning.boatRadius, 0.6);
  EXPECT_EQ(setup->start.position, (Vec2d{1.0, -2.0}));
  EXPECT_EQ(setup->start.velocity, (Vec2d{0.5, 0.25}));
  EXPECT_EQ(setup->tuning.dragRate, 0.9);
  EXPECT_EQ(setup->tuning.waterVelocity, (Vec2d{0.3, 0.1}));
  EXPECT_EQ(setup->tuning.speedCap, 6.0);
  EXPECT_EQ(setup->tuning.rippleStartRadius, 0.1);
  EXPECT_EQ(setup->tuning.rippleGrowth, 3.5);
  EXPECT_EQ(setup->tuning.rippleHalfWidth, 0.4);
  EXPECT_EQ(setup->tuning.rippleLifetime, 2.0);
  EXPECT_EQ(setup->tuning.rippleImpulse, 2.5);
  EXPECT_EQ(setup->tuning.placementCooldown, 0.3);
  EXPECT_EQ(setup->tuning.rippleAttenuation, Tuning{}.rippleAttenuation);  // Optional key.

  auto defaults = driftSetupFromJson(ordered_json::object(), "/drift");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->tuning.speedCap, 7.0);
  EXPECT_EQ(defaults->tuning.dragRate, 0.7);
  EXPECT_EQ(defaults->tuning.rippleHalfWidth, 0.35);
  EXPECT_EQ(defaults->tuning.waterVelocity, (Vec2d{0.0, 0.0}));

  // Writing then reading gives the same values.
  auto again = driftSetupFromJson(driftSetupToJson(*setup), "/x");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->tuning.rippleGrowth, 3.5);
  EXPECT_EQ(again->start.position, (Vec2d{1.0, -2.0}));
  EXPECT_EQ(driftSetupToJson(*again), driftSetupToJson(*setup));
}

TEST(DriftJson, DefaultsAreTheComponentTables) {
  const scene::ComponentSpec* table = scene::componentSpec("drift");
  ASSERT_NE(table, nullptr);
  const ordered_json defaults = driftSetupToJson(DriftSetup{});
  for (const auto& [key, value] : defaults.items()) {
    const scene::ValueSpec* row = table->find(key);
    ASSERT_NE(row, nullptr) << key << " has no row in the component table";
    if (value.is_number()) {
      EXPECT_EQ(value.get<double>(), row->defaultValue[0]) << key;
    } else {
      for (std::size_t i = 0; i < value.size(); ++i)
        EXPECT_EQ(value[i].get<double>(), row->defaultValue[i]) << key;
    }
  }
}

TEST(DriftJson, ErrorsNameTheKeyAndWhere) {
  const auto whereOf = [](const char* text) {
    auto setup = driftSetupFromJson(ordered_json::parse(text), "/nodes/1/drift");
    EXPECT_FALSE(setup.ok()) << text;
    return setup.ok() ? std::string() : setup.error().where;
  };
  EXPECT_EQ(whereOf(R"({"drag_rate": -1})"), "/nodes/1/drift/drag_rate");
  EXPECT_EQ(whereOf(R"({"boat_radius": "big"})"), "/nodes/1/drift/boat_radius");
  EXPECT_EQ(whereOf(R"({"boat_position": [1]})"), "/nodes/1/drift/boat_position");
  // A bad component of a pair is named down to its index.
  EXPECT_EQ(whereOf(R"({"water_velocity": [1, "a"]})"), "/nodes/1/drift/water_velocity/1");
  EXPECT_EQ(whereOf(R"({"ripple_lifetime": 0})"), "/nodes/1/drift/ripple_lifetime");
  EXPECT_EQ(whereOf(R"({"boat_velocity": [1e300, 0]})"), "/nodes/1/drift/boat_velocity/0");
  EXPECT_EQ(whereOf(R"([1, 2])"), "/nodes/1/drift");
}

TEST(DriftJson, FindsTheDriftNodeAmongNestedChildren) {
  const ordered_json scene = ordered_json::parse(R"({"nodes": [
    {"name": "water", "shape": {"type": "plane", "normal": [0, 1, 0]}},
    {"name": "group", "children": [{"name": "boat", "drift": {"boat_radius": 0.7}}]}]})");
  auto node = findDriftNode(scene);
  ASSERT_TRUE(node.ok());
  ASSERT_NE(node->component, nullptr);
  EXPECT_EQ(node->name, "boat");
  EXPECT_EQ(node->pointer, "/nodes/1/children/0/drift");
  EXPECT_EQ((*node->component)["boat_radius"], 0.7);

  auto none = findDriftNode(ordered_json::parse(R"({"nodes": [{"name": "a"}]})"));
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->component, nullptr);
}

TEST(DriftJson, ReplayInputsAreValidatedAndOrderedByTick) {
  auto inputs = replayInputsFromJson(
      nlohmann::json::parse(R"([{"tick": 9, "place": [1, 2]}, {"tick": 3, "place": [0, 0]},
                                {"tick": 9, "place": [5, 6]}])"),
      "in.json");
  ASSERT_TRUE(inputs.ok());
  ASSERT_EQ(inputs->size(), 3u);
  EXPECT_EQ((*inputs)[0].tick, 3u);
  EXPECT_EQ((*inputs)[1].position, (Vec2d{1.0, 2.0}));  // Same tick: file order kept.
  EXPECT_EQ((*inputs)[2].position, (Vec2d{5.0, 6.0}));

  auto bad =
      replayInputsFromJson(nlohmann::json::parse(R"([{"tick": -1, "place": [1, 2]}])"), "in.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "in.json: /0/tick");
  bad = replayInputsFromJson(nlohmann::json::parse(R"([{"tick": 1, "place": [1]}])"), "in.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "in.json: /0/place");
  bad = replayInputsFromJson(nlohmann::json::parse(R"([{"tick": 1, "tuning": 3}])"), "in.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "in.json: /0/tuning");
}

TEST(DriftReplay, TuningChangesAreTickAddressedAndValidated) {
  // Drift at 2 m/s with no drag; at tick 30 the drag switches on toward a 0.5 m/s current.
  DriftSetup setup;
  setup.tuning.dragRate = 0.0;
  setup.start.velocity = {2.0, 0.0};
  ReplayOptions options;
  options.ticks = 90;
  auto inputs =
      replayInputsFromJson(nlohmann::json::parse(R"([{"tick": 30, "tuning": {"drag_rate": 0.7,
                                                          "water_velocity": [0.5, 0]}}])"),
                           "in.json");
  ASSERT_TRUE(inputs.ok()) << inputs.error().message();
  options.inputs = *inputs;
  std::string trace;
  options.traceLines = &trace;
  auto result = replayDrift(setup, "boat", options);
  ASSERT_TRUE(result.ok()) << result.error().message();
  const double e = std::exp(-0.7 * 1.0);  // 60 ticks of drag.
  EXPECT_NEAR((*result)["nodes"]["boat"]["velocity"][0].get<double>(), 0.5 + 1.5 * e, 1e-12);
  EXPECT_NEAR((*result)["nodes"]["boat"]["position"][0].get<double>(),
              2.0 * 0.5 + 0.5 * 1.0 + 1.5 * (1.0 - e) / 0.7, 1e-12);
  EXPECT_NE(trace.find(R"({"tick":30,"event":"tuning"})"), std::string::npos) << trace;

  options.inputs = *replayInputsFromJson(
      nlohmann::json::parse(R"([{"tick": 3, "tuning": {"drag_rate": -1}}])"), "in.json");
  auto refused = replayDrift(setup, "boat", options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "in.json: /0/tuning/drag_rate");
}

TEST(DriftReplay, ReportsTheBoatNodeCountersAndAStableHash) {
  DriftSetup setup;
  setup.tuning.dragRate = 0.0;
  setup.start.velocity = {1.2, 0.0};
  ReplayOptions options;
  options.ticks = 60;
  options.inputs = {placeAt(10, {-1.0, 0.0})};
  std::string trace;
  options.traceLines = &trace;
  auto first = replayDrift(setup, "boat", options);
  ASSERT_TRUE(first.ok()) << first.error().message();
  EXPECT_EQ((*first)["tick"], 60);
  EXPECT_EQ((*first)["counters"]["ticks"], 60);
  EXPECT_EQ((*first)["counters"]["placements"], 1);
  EXPECT_EQ((*first)["counters"]["contacts"], 1);
  EXPECT_EQ((*first)["counters"]["discarded_ticks"], 0);
  EXPECT_EQ((*first)["nodes"]["boat"]["position"][1], 0.0);
  EXPECT_GT((*first)["nodes"]["boat"]["velocity"][0].get<double>(), 1.2);  // Pushed along +x.
  EXPECT_EQ((*first)["hash"].get<std::string>().size(), 16u);
  EXPECT_NE(trace.find("\"event\":\"contact\""), std::string::npos);

  options.traceLines = nullptr;
  auto second = replayDrift(setup, "boat", options);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ((*second)["hash"], (*first)["hash"]);
  options.inputs = {placeAt(11, {-1.0, 0.0})};  // A different input gives a different state.
  auto third = replayDrift(setup, "boat", options);
  ASSERT_TRUE(third.ok());
  EXPECT_NE((*third)["hash"], (*first)["hash"]);
}

}  // namespace
}  // namespace floptle::drift
