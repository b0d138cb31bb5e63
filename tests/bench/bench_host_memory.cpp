// The host's memory latency, to read the other benchmarks by: a chain of dependent loads, each
// to a random cache line of a buffer of the given size on huge pages (HugePageVector, as the
// brick pool and the BVHs are). Time per load (ns).
//
// Why: this machine is a virtual one on a shared host. Its last-level cache is shared with
// neighbours, and how much of it this process gets changes from one minute to the next. The
// collision benchmarks walk 16 to 30 MB of brick samples or BVH nodes at random, so they run
// at L3 speed when the host is quiet and near DRAM speed when it is busy: the same binary gave
// 9.4 and 15.6 M closest points per second within one hour. Measured here on a quiet host,
// 20 MB took 53 ns a load, and 125 ns on a busy one; 4 MB 16-18 ns either way. Run this beside
// a figure (BM_RandomLine/20 above ~80 ns: the host is busy) before calling it a regression.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "floptle/core/huge_page_vector.h"

namespace {

constexpr std::size_t kLine = 64;  // bytes

void BM_RandomLine(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) << 20;
  const std::size_t lines = bytes / kLine;
  floptle::HugePageVector<std::uint64_t> buffer(bytes / sizeof(std::uint64_t), 0);
  // One cycle through every line in random order: each load's address is the previous load's
  // value, so nothing overlaps and the time is the latency.
  std::vector<std::size_t> order(lines);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  constexpr std::size_t kWordsPerLine = kLine / sizeof(std::uint64_t);
  for (std::size_t i = 0; i < lines; ++i)
    buffer[order[i] * kWordsPerLine] = order[(i + 1) % lines] * kWordsPerLine;
  std::uint64_t at = order[0] * kWordsPerLine;
  for (std::size_t i = 0; i < lines; ++i)
    at = buffer[at];  // warm: caches and TLB as in a steady walk
  for (auto _ : state) {
    for (int i = 0; i < 1024; ++i) at = buffer[at];
    benchmark::DoNotOptimize(at);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 1024);
  state.counters["load_latency"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 1024,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_RandomLine)
    ->Arg(1)
    ->Arg(4)
    ->Arg(8)
    ->Arg(20)
    ->Arg(32)
    ->Arg(64)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
