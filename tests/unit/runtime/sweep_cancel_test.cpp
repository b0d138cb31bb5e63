// runSweep's cancel flag: no run starts after it is set, runs under way stop at their next
// tick, the rows before it were handed back in order, and the error says "cancelled".
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "floptle/runtime/sweep_plan.h"
#include "floptle/runtime/sweep_run.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;

const Json kDoc = Json::parse(R"({"format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [1, 1, 1], "density": 100, "friction": 0.5,
                 "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "settings": {},
  "nodes": [{"name": "ground", "material": "rock", "shape": {"type": "plane"},
             "collider": {"body": "static"}},
            {"name": "ball", "material": "rock", "shape": {"type": "sphere", "radius": 1},
             "transform": {"position": [0, 3, 0]}, "collider": {"body": "dynamic"}}]})");

SweepPlan planOf(const std::string& set) {
  auto parameter = SweepPlan::parseSet(set, kDoc);
  EXPECT_TRUE(parameter.ok()) << (parameter.ok() ? "" : parameter.error().message());
  auto plan = SweepPlan::make({*parameter});
  EXPECT_TRUE(plan.ok());
  return *plan;
}

TEST(SweepCancel, AFlagSetBeforehandRunsNothing) {
  const SweepPlan plan = planOf("/materials/0/friction=0:0.1:1");
  std::atomic<bool> cancel{true};
  SweepOptions options;
  options.ticks = 10;
  options.jobs = 2;
  options.runs = {0, plan.runCount()};
  options.cancel = &cancel;
  int rows = 0;
  const Expected<void> result = runSweep(plan, kDoc, options, [&](const SweepRow&) {
    ++rows;
    return Expected<void>{};
  });
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().what, kSweepCancelled);
  EXPECT_EQ(rows, 0);
}

TEST(SweepCancel, AFlagSetMidwayStopsAfterTheRowsHandedBack) {
  // 101 runs of ten million ticks: the sweep ends only because the flag stops the run under way.
  const SweepPlan plan = planOf("/materials/0/friction=0:0.01:1");
  std::atomic<bool> cancel{false};
  SweepOptions options;
  options.ticks = 10'000'000;
  options.jobs = 1;
  options.runs = {0, plan.runCount()};
  options.cancel = &cancel;
  std::uint64_t progressCalls = 0;
  options.progress = [&](std::uint64_t, std::uint64_t) { ++progressCalls; };
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  int rows = 0;
  const Expected<void> result = runSweep(plan, kDoc, options, [&](const SweepRow&) {
    ++rows;
    return Expected<void>{};
  });
  canceller.join();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().what, kSweepCancelled);
  EXPECT_EQ(rows, 0);  // the first run's ten million ticks were cut short
  EXPECT_EQ(progressCalls, 0u);
}

TEST(SweepCancel, WithoutAFlagEveryRowComes) {
  const SweepPlan plan = planOf("/materials/0/friction=0:0.5:1");
  std::atomic<bool> cancel{false};
  SweepOptions options;
  options.ticks = 5;
  options.jobs = 2;
  options.runs = {0, plan.runCount()};
  options.cancel = &cancel;
  std::vector<std::uint64_t> order;
  const Expected<void> result = runSweep(plan, kDoc, options, [&](const SweepRow& row) {
    order.push_back(row.run);
    return Expected<void>{};
  });
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(order, (std::vector<std::uint64_t>{0, 1, 2}));
}

}  // namespace
}  // namespace floptle::runtime
