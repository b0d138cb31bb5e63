// One Drift sandbox tick with 16 live ripples (seed 003 target: under 2 us on this machine).
// Ripples sit on rings around the boat so that bands sweep it every tick; contacts happen
// while the once-only flags are fresh. Run:
//   build/tests/bench_drift --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

#include "floptle/drift/sandbox.h"

namespace {

using floptle::drift::kMaxRipples;
using floptle::drift::Sandbox;
using floptle::drift::Tuning;

// A sandbox with kMaxRipples live ripples, at most a few ticks old, spread around the boat.
std::unique_ptr<Sandbox> makeBusySandbox() {
  Tuning t;
  t.placementCooldown = 0.0;
  t.rippleLifetime = 1000.0;  // Ripples stay alive for the whole measurement.
  t.waterVelocity = {0.3, 0.1};
  auto s = std::make_unique<Sandbox>();
  s->restart(t, {{0.0, 0.0}, {1.0, 0.5}});
  for (int i = 0; i < kMaxRipples; ++i) {
    const double angle = 0.39 * i, distance = 1.0 + 0.35 * i;
    s->queuePlacement({distance * std::cos(angle), distance * std::sin(angle)});
  }
  s->tick();
  return s;
}

void BM_DriftTick16Ripples(benchmark::State& state) {
  auto s = makeBusySandbox();
  int ticks = 0;
  double contacts = 0.0;
  for (auto _ : state) {
    s->tick();
    if (++ticks == 600) {  // Re-arm: fresh ripples (and contacts) every 10 s of game time.
      state.PauseTiming();
      contacts += static_cast<double>(s->counters().contacts);
      s = makeBusySandbox();
      ticks = 0;
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(s->boat());
  }
  state.counters["ripples"] = s->rippleCount();
  contacts += static_cast<double>(s->counters().contacts);
  state.counters["contacts/tick"] =
      benchmark::Counter(contacts, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_DriftTick16Ripples);

void BM_DriftSnapshot16Ripples(benchmark::State& state) {
  auto s = makeBusySandbox();
  for (auto _ : state) benchmark::DoNotOptimize(s->snapshot());
}
BENCHMARK(BM_DriftSnapshot16Ripples);

}  // namespace

BENCHMARK_MAIN();
