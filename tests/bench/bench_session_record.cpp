// What recording a play session adds to each tick (editor play mode, PlaySession): the state
// hash, the snapshot every 30 ticks (within 64 MiB) and the per-tick series, on a plane with
// 200 dynamic spheres and a walking character.
// - BM_Step: the tick alone;
// - BM_RecordedStep: the tick and what a recording keeps of it, from tick 1 on (the series
//   table is addressed by tick); the counter record_us is the recording's part per tick (thread CPU
//   time).
#include <benchmark/benchmark.h>

#include <ctime>
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/scene/scene.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/scene_runtime.h"
#include "floptle/runtime/session_snapshots.h"
#include "floptle/runtime/tick_series.h"

namespace {

using namespace floptle;

/// This thread's CPU time (s): preemption by other processes does not count.
double threadSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

nlohmann::ordered_json sceneWithSpheres(int count) {
  auto scene = nlohmann::ordered_json::parse(R"({
    "format": "floptle.scene", "version": 1,
    "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "friction": 0.8, "restitution": 0.1,
                   "density": 2600, "bulk_modulus": 5e10, "yield_strength": 1e8}],
    "interactions": [],
    "nodes": [
      {"name": "ground", "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0},
       "material": "rock", "collider": {"body": "static"}},
      {"name": "player", "transform": {"position": [0, 0.9, 0]},
       "character": {"radius": 0.3, "height": 1.8, "speed": 4, "jump_speed": 5}}]})");
  for (int i = 0; i < count; ++i) {
    const double x = 2.0 + 1.1 * (i % 20), z = 1.1 * (i / 20), y = 0.5 + 0.3 * (i % 3);
    scene["nodes"].push_back({{"name", "ball" + std::to_string(i)},
                              {"transform", {{"position", {x, y, z}}}},
                              {"shape", {{"type", "sphere"}, {"radius", 0.4}}},
                              {"material", "rock"},
                              {"collider", {{"body", "dynamic"}}}});
  }
  return scene;
}

runtime::SceneRuntime build(const nlohmann::ordered_json& document) {
  auto scene = scene::buildScene(document);
  auto runtime = runtime::SceneRuntime::build(document, scene.value());
  runtime::SceneRuntime out = std::move(runtime.value());
  out.physics()->characterInput(0).move = Vec2(0.0f, 1.0f);
  return out;
}

void BM_Step(benchmark::State& state) {
  runtime::SceneRuntime runtime = build(sceneWithSpheres(200));
  for (auto _ : state) runtime.step();
}
BENCHMARK(BM_Step)->Unit(benchmark::kMicrosecond);

void BM_RecordedStep(benchmark::State& state) {
  runtime::SceneRuntime runtime = build(sceneWithSpheres(200));
  const physics::Simulation& sim = *runtime.physics();
  runtime::SnapshotKeeper snapshots;
  runtime::SeriesTable series;
  std::uint64_t hashes = 0;
  double recordSeconds = 0.0;
  for (auto _ : state) {
    runtime.step();
    const double start = threadSeconds();
    hashes ^= sim.stateHash();
    snapshots.offer(sim);
    series.record(sim, 0.0);
    recordSeconds += threadSeconds() - start;
  }
  benchmark::DoNotOptimize(hashes);
  state.counters["record_us"] =
      benchmark::Counter(recordSeconds * 1e6 / double(state.iterations()));
  state.counters["snapshots"] = double(snapshots.size());
}
BENCHMARK(BM_RecordedStep)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
