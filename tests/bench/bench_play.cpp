// Play-mode benchmarks on the benchmark terrain as a field:
//   h(x, z) = 2 sin(0.4 (x + 56)) cos(0.4 (z + 56)) over a 112 m square.
// - the character step (1.35 m, r 0.3 capsule walking at 5 m/s): mean, and p99 as a counter;
//   BM_CharacterStepSurfaceGravity is the same step under tier-2 gravity (its sample at the
//   character included; /0 on the baked field, /1 the live 8-tap difference): target within
//   1.3x of BM_CharacterStep's cpu_mean_us;
// - 1,000 spheres settling on the terrain: step time;
// - a 20-level box pyramid on a plane: step time.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <memory>
#include <vector>

#include "floptle/gravity/gravity_field.h"
#include "floptle/gravity/surface_bake.h"
#include "floptle/physics/simulation.h"

namespace {

using namespace floptle;
using namespace floptle::physics;

/// The benchmark terrain as an analytic field: the height difference y - h over the local
/// slope factor sqrt(1 + |grad h|^2), which is the distance to the tangent plane under the
/// point: exact on a plane and within O(d^2 |h''|) (|h''| <= 0.32 /m) near this surface.
class TerrainField final : public CollisionShape {
 public:
  static float height(float x, float z) {
    return 2.0f * std::sin(0.4f * (x + 56.0f)) * std::cos(0.4f * (z + 56.0f));
  }
  static Vec3 upGradient(Vec3 p) {  // (-dh/dx, 1, -dh/dz)
    const float dx = 0.8f * std::cos(0.4f * (p.x + 56.0f)) * std::cos(0.4f * (p.z + 56.0f));
    const float dz = -0.8f * std::sin(0.4f * (p.x + 56.0f)) * std::sin(0.4f * (p.z + 56.0f));
    return Vec3(-dx, 1.0f, -dz);
  }
  float distance(Vec3 p, double) const override {
    ++evaluations;
    return (p.y - height(p.x, p.z)) / glm::length(upGradient(p));
  }
  Vec3 normal(Vec3 p, double) const override { return glm::normalize(upGradient(p)); }
  Aabb aabb(double) const override {
    return {Vec3(-56.0f, -2.0f, -56.0f), Vec3(56.0f, 2.0f, 56.0f)};
  }
  /// Distance evaluations so far (the benchmark's cost unit; single-threaded).
  static inline std::uint64_t evaluations = 0;
};

class FlatPlane final : public CollisionShape {
 public:
  float distance(Vec3 p, double) const override { return p.y; }
  Vec3 normal(Vec3, double) const override { return Vec3(0, 1, 0); }
  Aabb aabb(double) const override { return {Vec3(-1e30f), Vec3(1e30f)}; }
};

/// This thread's CPU time (us): preemption by other processes does not count.
double threadCpuMicros() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e6 + double(ts.tv_nsec) * 1e-3;
}

Simulation terrainSimulation() {
  CollisionWorld world;
  world.add(std::make_unique<TerrainField>(), "terrain");
  return Simulation({}, std::move(world), {SurfaceMaterial{0.8f, 0.0f, false}});
}

/// Times one character step a tick; with `field`, the step obeys the field sampled at the
/// character first (the sample counted in the step's time).
void characterStep(benchmark::State& state, Simulation& sim,
                   const floptle::gravity::GravityField* field) {
  CharacterDesc d;
  d.name = "player";
  d.radius = 0.3f;
  d.height = 1.35f;
  d.speed = 5.0f;
  d.position = Vec3(0.0f, TerrainField::height(0, 0) + 0.7f, 0.0f);
  sim.addCharacter(d);
  sim.characterInput(0).move = Vec2(0.6f, 0.8f);
  for (int i = 0; i < 30; ++i) sim.step();
  std::vector<double> samples, cpuSamples;
  samples.reserve(1 << 16);
  cpuSamples.reserve(1 << 16);
  // What two thread-CPU clock reads and two steady-clock reads cost with nothing between
  // (median of many), taken off each CPU-time sample.
  std::vector<double> empty;
  for (int i = 0; i < 2001; ++i) {
    const double c0 = threadCpuMicros();
    const auto t0 = std::chrono::steady_clock::now();
    const auto t1 = std::chrono::steady_clock::now();
    const double c1 = threadCpuMicros();
    benchmark::DoNotOptimize(t1 - t0);
    empty.push_back(c1 - c0);
  }
  std::nth_element(empty.begin(), empty.begin() + 1000, empty.end());
  const double clockOverhead = empty[1000];
  const float dt = float(sim.settings().fixedDt);
  int n = 0;
  double sweeps = 0, hits = 0, depen = 0, grounded = 0;
  const std::uint64_t evaluationsBefore = TerrainField::evaluations;
  for (auto _ : state) {
    // Turn around before the edge of the terrain, deterministically.
    if (++n % 600 == 0) sim.characterInput(0).move = -sim.characterInput(0).move;
    const double c0 = threadCpuMicros();
    const auto t0 = std::chrono::steady_clock::now();
    const Vec3 g = field ? field->sample(sim.characters()[0].state().position, sim.time())
                         : sim.characterGravity(0);
    sim.characters()[0].step(sim.world(), sim.time(), dt, g, sim.characterInput(0));
    const auto t1 = std::chrono::steady_clock::now();
    const double c1 = threadCpuMicros();
    samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    cpuSamples.push_back(c1 - c0 - clockOverhead);
    const CharacterCounters& k = sim.characters()[0].counters();
    sweeps += k.sweeps;
    hits += k.slideHits;
    depen += k.depenetrations;
    grounded += sim.characters()[0].state().grounded;
  }
  auto meanOf = [](const std::vector<double>& v) {
    double m = 0.0;
    for (double x : v) m += x;
    return m / double(std::max<std::size_t>(v.size(), 1));
  };
  auto p99Of = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() * 99 / 100];
  };
  // Wall clock per step (what a frame waits for; inflated by preemption on a loaded
  // machine) and this thread's CPU time per step (the clock reads' own cost taken off).
  state.counters["mean_us"] = meanOf(samples);
  state.counters["p99_us"] = p99Of(samples);
  state.counters["cpu_mean_us"] = meanOf(cpuSamples);
  state.counters["cpu_p99_us"] = p99Of(cpuSamples);
  state.counters["clock_overhead_us"] = clockOverhead;
  const double steps = double(std::max<std::size_t>(samples.size(), 1));
  state.counters["grounded_share"] = grounded / steps;
  state.counters["sweeps_per_step"] = sweeps / steps;
  state.counters["field_evals_per_step"] =
      double(TerrainField::evaluations - evaluationsBefore) / steps;
  state.counters["slide_hits_per_step"] = hits / steps;
  state.counters["depenetrations_per_step"] = depen / steps;
}

void BM_CharacterStep(benchmark::State& state) {
  Simulation sim = terrainSimulation();
  characterStep(state, sim, nullptr);
}
BENCHMARK(BM_CharacterStep)->Iterations(20000);

void BM_CharacterStepSurfaceGravity(benchmark::State& state) {
  Simulation sim = terrainSimulation();
  const bool baked = state.range(0) == 0;
  floptle::scene::GravityFieldDesc desc;
  desc.sdf = floptle::scene::GravitySdfDesc{};
  desc.sdf->strength = 9.81f;
  desc.sdf->range = 3.0f;
  desc.sdf->epsilon = 0.1f;
  desc.sdf->bakedCell = baked ? 0.5f : 0.0f;
  desc.sdf->blur = 1.0f;
  floptle::gravity::GravityField field(desc);
  field.setSurface(&sim.world());
  if (baked) {
    auto map = floptle::gravity::bakeSurfaceGravity(sim.world(), *desc.sdf, 0.0);
    if (!map) {
      state.SkipWithError(map.error().message().c_str());
      return;
    }
    field.setBakedSurface(map.value());
  }
  state.SetLabel(baked ? "baked, cell 0.5 m, blur 1" : "live, epsilon 0.1 m");
  characterStep(state, sim, &field);
}
BENCHMARK(BM_CharacterStepSurfaceGravity)->Arg(0)->Arg(1)->Iterations(20000);

void BM_ThousandSpheresSettling(benchmark::State& state) {
  Simulation sim = terrainSimulation();
  for (int i = 0; i < 1000; ++i) {
    RigidBodyDesc b;
    b.shape = BodyShape::sphere(0.4f);
    const float x = -30.0f + 2.0f * float(i % 32), z = -30.0f + 2.0f * float(i / 32);
    b.position = Vec3(x, TerrainField::height(x, z) + 1.5f, z);
    b.mass = 10.0f;
    sim.addBody(b);
  }
  for (auto _ : state) sim.step();
  state.counters["awake"] = sim.bodies().counters().awakeBodies;
  state.counters["contacts"] =
      sim.bodies().counters().worldContacts + sim.bodies().counters().bodyContacts;
}
BENCHMARK(BM_ThousandSpheresSettling)->Iterations(300)->Unit(benchmark::kMillisecond);

void BM_BoxPyramid20(benchmark::State& state) {
  CollisionWorld world;
  world.add(std::make_unique<FlatPlane>(), "ground");
  Simulation sim({}, std::move(world), {SurfaceMaterial{0.6f, 0.0f, false}});
  const int levels = 20;
  for (int level = 0; level < levels; ++level)
    for (int i = 0; i < levels - level; ++i) {
      RigidBodyDesc b;
      b.shape = BodyShape::box(Vec3(0.5f));
      b.friction = 0.6f;
      b.mass = 1.0f;
      b.position = Vec3(float(i) * 1.05f + 0.525f * float(level) - 10.0f,
                        0.5f + float(level) * 1.001f, 0.0f);
      sim.addBody(b);
    }
  for (auto _ : state) sim.step();
  state.counters["boxes"] = double(sim.bodies().size());
  state.counters["awake"] = sim.bodies().counters().awakeBodies;
  state.counters["contacts"] =
      sim.bodies().counters().worldContacts + sim.bodies().counters().bodyContacts;
  // Whether it still stands: the top box's drop from where it was placed (m).
  const std::uint32_t top = std::uint32_t(sim.bodies().size() - 1);
  state.counters["top_drop_m"] =
      double(sim.bodies().desc(top).position.y - sim.bodies().state(top).position.y);
}
BENCHMARK(BM_BoxPyramid20)->Iterations(300)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
