// Tuning-sweep throughput: 16 runs (friction 0:0.1:1.5 on a slope of 8 resting boxes), 120
// ticks each, through runtime::runSweep with /J worker threads. Wall time (the runs run in
// parallel), items = runs: compare items_per_second across J for the scaling.
#include <benchmark/benchmark.h>

#include <string>

#include "floptle/runtime/sweep_plan.h"
#include "floptle/runtime/sweep_run.h"

namespace {

using namespace floptle;
using Json = nlohmann::ordered_json;

Json sweepScene() {
  Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [{"id": "stuff", "color": [1, 0, 0], "density": 1000, "friction": 0.5,
                   "restitution": 0.2, "bulk_modulus": 1e9, "yield_strength": 1e6}],
    "interactions": [],
    "nodes": [{"name": "slope", "material": "stuff", "collider": {"body": "static"},
               "shape": {"type": "plane", "normal": [0.34202014, 0.93969262, 0], "offset": 0}}]})");
  for (int i = 0; i < 8; ++i) {
    // Boxes of 1 m resting on the 20 degree slope, 2 m apart along z.
    doc["nodes"].push_back(Json::parse(R"({"material": "stuff", "collider": {"body": "dynamic"},
      "transform": {"position": [0.1881, 0.5168, 0], "rotation": [0, 0, -0.17364818, 0.98480775]},
      "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}})"));
    doc["nodes"].back()["name"] = "box" + std::to_string(i);
    doc["nodes"].back()["transform"]["position"][2] = 2.0 * i;
  }
  return doc;
}

void BM_Sweep(benchmark::State& state) {
  const Json doc = sweepScene();
  auto parameter = runtime::SweepPlan::parseSet("/materials/0/friction=0:0.1:1.5", doc);
  if (!parameter) {
    state.SkipWithError(parameter.error().message().c_str());
    return;
  }
  auto plan = runtime::SweepPlan::make({*parameter});
  runtime::SweepOptions options;
  options.ticks = 120;
  options.sceneName = "bench";
  options.jobs = static_cast<unsigned>(state.range(0));
  options.runs = {0, plan->runCount()};
  for (auto _ : state) {
    std::uint64_t rows = 0;
    auto done =
        runtime::runSweep(*plan, doc, options, [&](const runtime::SweepRow&) -> Expected<void> {
          ++rows;
          return {};
        });
    if (!done || rows != plan->runCount()) state.SkipWithError("the sweep failed");
  }
  state.SetItemsProcessed(std::int64_t(state.iterations() * plan->runCount()));
}
BENCHMARK(BM_Sweep)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
