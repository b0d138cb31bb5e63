// Play-mode benchmarks on the benchmark terrain as a field:
//   h(x, z) = 2 sin(0.4 (x + 56)) cos(0.4 (z + 56)) over a 112 m square.
// - the character step (1.35 m, r 0.3 capsule walking at 5 m/s): mean, and p99 as a counter;
// - 1,000 spheres settling on the terrain: step time;
// - a 20-level box pyramid on a plane: step time.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "floptle/physics/simulation.h"

namespace {

using namespace floptle;
using namespace floptle::physics;

/// The benchmark terrain as an analytic field: (y - h) scaled by the bound of |grad h| so it
/// is a conservative signed distance (|grad (y - h)| <= sqrt(1 + 0.8^2 + 0.8^2)).
class TerrainField final : public CollisionShape {
 public:
  static float height(float x, float z) { return 2.0f * std::sin(0.4f * (x + 56.0f)) * std::cos(0.4f * (z + 56.0f)); }
  float distance(Vec3 p, double) const override { return (p.y - height(p.x, p.z)) * kScale; }
  Vec3 normal(Vec3 p, double) const override {
    const float dx = 0.8f * std::cos(0.4f * (p.x + 56.0f)) * std::cos(0.4f * (p.z + 56.0f));
    const float dz = -0.8f * std::sin(0.4f * (p.x + 56.0f)) * std::sin(0.4f * (p.z + 56.0f));
    return glm::normalize(Vec3(-dx, 1.0f, -dz));
  }
  Aabb aabb(double) const override { return {Vec3(-56.0f, -2.0f, -56.0f), Vec3(56.0f, 2.0f, 56.0f)}; }

 private:
  static constexpr float kScale = 0.662f;  // 1 / sqrt(1 + 2 * 0.64)
};

class FlatPlane final : public CollisionShape {
 public:
  float distance(Vec3 p, double) const override { return p.y; }
  Vec3 normal(Vec3, double) const override { return Vec3(0, 1, 0); }
  Aabb aabb(double) const override { return {Vec3(-1e30f), Vec3(1e30f)}; }
};

Simulation terrainSimulation() {
  CollisionWorld world;
  world.add(std::make_unique<TerrainField>(), "terrain");
  return Simulation({}, std::move(world), {SurfaceMaterial{0.8f, 0.0f, false}});
}

void BM_CharacterStep(benchmark::State& state) {
  Simulation sim = terrainSimulation();
  CharacterDesc d;
  d.name = "player";
  d.radius = 0.3f;
  d.height = 1.35f;
  d.speed = 5.0f;
  d.position = Vec3(0.0f, TerrainField::height(0, 0) + 0.7f, 0.0f);
  sim.addCharacter(d);
  sim.characterInput(0).move = Vec2(0.6f, 0.8f);
  for (int i = 0; i < 30; ++i) sim.step();
  std::vector<double> samples;
  samples.reserve(1 << 16);
  const float dt = float(sim.settings().fixedDt);
  int n = 0;
  for (auto _ : state) {
    // Turn around before the edge of the terrain, deterministically.
    if (++n % 600 == 0) sim.characterInput(0).move = -sim.characterInput(0).move;
    const auto t0 = std::chrono::steady_clock::now();
    sim.characters()[0].step(sim.world(), sim.time(), dt, sim.settings().gravity, sim.characterInput(0));
    const auto t1 = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::sort(samples.begin(), samples.end());
  double mean = 0.0;
  for (double s : samples) mean += s;
  mean /= double(std::max<std::size_t>(samples.size(), 1));
  state.counters["mean_us"] = mean;
  state.counters["p99_us"] = samples.empty() ? 0.0 : samples[samples.size() * 99 / 100];
  state.counters["grounded"] = sim.characters()[0].state().grounded;
}
BENCHMARK(BM_CharacterStep)->Iterations(20000);

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
  state.counters["contacts"] = sim.bodies().counters().worldContacts + sim.bodies().counters().bodyContacts;
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
      b.position = Vec3(float(i) * 1.05f + 0.525f * float(level) - 10.0f, 0.5f + float(level) * 1.001f, 0.0f);
      sim.addBody(b);
    }
  for (auto _ : state) sim.step();
  state.counters["boxes"] = double(sim.bodies().size());
  state.counters["awake"] = sim.bodies().counters().awakeBodies;
}
BENCHMARK(BM_BoxPyramid20)->Iterations(300)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
