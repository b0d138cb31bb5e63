// Tier 3, single thread (targets: trilinear sampling <= 30 ns; a 64^3 isolated Poisson solve
// <= 20 ms; Barnes-Hut over 10,000 bodies >= 20x faster than the direct sum at <= 1% RMS
// force error). Run:
//   build/tests/bench_gravity_density --benchmark_min_time=0.5
// BM_DensitySample: one sample of a solved 64^3 grid (a ball of matter) at 4096 pre-generated
// points inside it. BM_PoissonSolve: rho -> Phi on n^3 nodes (FFT on the zero-padded
// (2n)^3 grid) plus g at the nodes and the mass moments (DensityGrid::solve), n = 32, 64.
// BM_BarnesHutAll (a walk per body) / BM_BarnesHutGrouped (a walk per group of bodies, SIMD
// lanes over the group) / BM_DirectSumAll (scalar) / BM_DirectSumLanes (the grouped walk's
// SIMD lanes): g at each of 10,000 bodies, the tree's build included; rms_error is the tree's
// RMS relative error against the direct sum at that theta.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "floptle/gravity/barnes_hut.h"
#include "floptle/gravity/density_grid.h"

namespace {

using floptle::Aabb;
using floptle::Vec3;
using floptle::gravity::BarnesHutTree;
using floptle::gravity::DensityGrid;

DensityGrid ballGrid(int n) {
  const float half = 32.0f;
  auto grid = DensityGrid::create(Aabb{Vec3(-half), Vec3(half)}, 2.0f * half / float(n - 1), 1.0f,
                                  "/bench");
  DensityGrid g = std::move(grid.value());
  g.addMatter(Aabb{Vec3(-20.0f), Vec3(20.0f)}, 5.0f, [](Vec3 p) { return glm::length(p) - 20.0f; });
  return g;
}

void BM_DensitySample(benchmark::State& state) {
  DensityGrid grid = ballGrid(64);
  grid.solve();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-31.0f, 31.0f);
  std::vector<Vec3> p(4096);
  for (Vec3& v : p) v = Vec3(u(rng), u(rng), u(rng));
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(grid.sample(p[i]));
    i = (i + 1) & 4095;
  }
}
BENCHMARK(BM_DensitySample);

void BM_PoissonSolve(benchmark::State& state) {
  DensityGrid grid = ballGrid(int(state.range(0)));
  for (auto _ : state) {
    grid.solve();
    benchmark::DoNotOptimize(grid.mass());
  }
  state.SetLabel(std::to_string(state.range(0)) + "^3 nodes");
}
BENCHMARK(BM_PoissonSolve)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

struct Bodies {
  std::vector<Vec3> positions;
  std::vector<float> masses;
};

const Bodies& bodies() {
  static const Bodies b = [] {
    std::mt19937 rng(3);
    std::normal_distribution<float> clump(0.0f, 10.0f);
    std::uniform_real_distribution<float> spread(-100.0f, 100.0f), mass(0.5f, 2.0f);
    Bodies out;
    for (int i = 0; i < 10000; ++i) {
      out.positions.push_back(i % 2 ? Vec3(clump(rng), clump(rng), clump(rng))
                                    : Vec3(spread(rng), spread(rng), spread(rng)));
      out.masses.push_back(mass(rng));
    }
    return out;
  }();
  return b;
}

constexpr float kSoftening = 0.05f;

void BM_BarnesHutAll(benchmark::State& state) {
  const Bodies& b = bodies();
  const float theta = float(state.range(0)) / 100.0f;
  BarnesHutTree tree;
  for (auto _ : state) {
    tree.build(b.positions, b.masses);
    for (const Vec3& p : b.positions)
      benchmark::DoNotOptimize(tree.accel(p, 1.0f, theta, kSoftening));
  }
  double sum = 0.0;
  for (const Vec3& p : b.positions) {
    const Vec3 exact = BarnesHutTree::directSum(p, b.positions, b.masses, 1.0f, kSoftening);
    const double e =
        glm::length(tree.accel(p, 1.0f, theta, kSoftening) - exact) / glm::length(exact);
    sum += e * e;
  }
  state.counters["rms_error"] = std::sqrt(sum / double(b.positions.size()));
  state.SetLabel("theta " + std::to_string(theta));
}
BENCHMARK(BM_BarnesHutAll)->Arg(50)->Arg(70)->Unit(benchmark::kMillisecond);

/// The same through the grouped walk (accelAll): one walk per group of bodies.
void BM_BarnesHutGrouped(benchmark::State& state) {
  const Bodies& b = bodies();
  const float theta = float(state.range(0)) / 100.0f;
  BarnesHutTree tree;
  std::vector<Vec3> g(b.positions.size());
  for (auto _ : state) {
    tree.build(b.positions, b.masses);
    tree.accelAll(1.0f, theta, kSoftening, g);
    benchmark::DoNotOptimize(g.data());
  }
  double sum = 0.0;
  for (std::size_t i = 0; i < b.positions.size(); ++i) {
    const Vec3 exact =
        BarnesHutTree::directSum(b.positions[i], b.positions, b.masses, 1.0f, kSoftening);
    const double e = glm::length(g[i] - exact) / glm::length(exact);
    sum += e * e;
  }
  state.counters["rms_error"] = std::sqrt(sum / double(b.positions.size()));
  state.SetLabel("theta " + std::to_string(theta));
}
BENCHMARK(BM_BarnesHutGrouped)->Arg(50)->Arg(70)->Arg(90)->Unit(benchmark::kMillisecond);

void BM_DirectSumAll(benchmark::State& state) {
  const Bodies& b = bodies();
  for (auto _ : state)
    for (const Vec3& p : b.positions)
      benchmark::DoNotOptimize(
          BarnesHutTree::directSum(p, b.positions, b.masses, 1.0f, kSoftening));
}
BENCHMARK(BM_DirectSumAll)->Unit(benchmark::kMillisecond);

/// The direct sum through the same SIMD lanes as the grouped walk.
void BM_DirectSumLanes(benchmark::State& state) {
  const Bodies& b = bodies();
  std::vector<Vec3> g(b.positions.size());
  for (auto _ : state) {
    BarnesHutTree::directSumAll(b.positions, b.masses, 1.0f, kSoftening, g);
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(BM_DirectSumLanes)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
