// FieldBlend cost: the scene's composed field (scene::sceneField) per evaluation with the
// interaction matrix's merge and carve rules, against the plain union of the same nodes (no
// rule). Eight unit-ish spheres on a ring, four of material "goo" and four of "rock"; the
// points fill the ring's box. Compare items_per_second (points evaluated per second):
//   build/tests/bench_field_blend --benchmark_min_time=0.2 --benchmark_repetitions=5
//     --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
// Also the physics side: CollisionWorld::distance over the same scene built into a world.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "floptle/core/field/field_program.h"
#include "floptle/core/scene/scene.h"
#include "floptle/physics/scene_collision.h"

using namespace floptle;

namespace {

constexpr int kPoints = 4096;

const std::vector<Vec3>& points() {
  static const std::vector<Vec3> pts = [] {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-2.5f, 2.5f);
    std::vector<Vec3> v(kPoints);
    for (Vec3& p : v) p = {u(rng), 0.5f * u(rng), u(rng)};
    return v;
  }();
  return pts;
}

using Json = nlohmann::ordered_json;

/// rule: "" for none, else the rule of (goo, rock); k a number or a driver.
scene::Scene ring(const std::string& rule, Json k) {
  Json doc = Json::parse(R"({"format": "floptle.scene", "version": 1,
    "materials": [
      {"id": "goo", "color": [0.2, 0.8, 0.3], "density": 1100, "friction": 0.9,
       "restitution": 0.1, "bulk_modulus": 2e9, "yield_strength": 1e5},
      {"id": "rock", "color": [0.5, 0.5, 0.5], "density": 2600, "friction": 0.8,
       "restitution": 0.1, "bulk_modulus": 5e10, "yield_strength": 1e8}],
    "interactions": [], "nodes": []})");
  if (!rule.empty())
    doc["interactions"].push_back(Json{{"a", "goo"}, {"b", "rock"}, {"rule", rule}, {"k", k}});
  for (int i = 0; i < 8; ++i) {
    const float angle = 0.785398f * float(i);
    doc["nodes"].push_back(
        Json{{"name", "s" + std::to_string(i)},
             {"transform", {{"position", {1.6 * std::cos(angle), 0.0, 1.6 * std::sin(angle)}}}},
             {"shape", {{"type", "sphere"}, {"radius", 0.7}}},
             {"material", i % 2 == 0 ? "goo" : "rock"}});
  }
  auto built = scene::buildScene(doc);
  if (!built) std::abort();
  return std::move(built.value());
}

void runProgram(benchmark::State& state, const scene::Scene& scene, double t) {
  auto program = field::FieldProgram::compile(scene::sceneField(scene));
  if (!program) std::abort();
  const std::vector<Vec3>& pts = points();
  for (auto _ : state) {
    float sum = 0.0f;
    for (const Vec3& p : pts) sum += program->distance(p, t);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kPoints);
}

void runWorld(benchmark::State& state, const scene::Scene& scene) {
  auto world = physics::buildCollisionWorld(scene, ".");
  if (!world) std::abort();
  const std::vector<Vec3>& pts = points();
  for (auto _ : state) {
    float sum = 0.0f;
    for (const Vec3& p : pts) sum += world->distance(p, 0.0);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kPoints);
}

void BM_FieldUnion(benchmark::State& state) {
  runProgram(state, ring("", 0.0), 0.0);
}
void BM_FieldBlendMerge(benchmark::State& state) {
  runProgram(state, ring("merge", 0.4), 0.0);
}
void BM_FieldBlendCarve(benchmark::State& state) {
  runProgram(state, ring("carve", 0.2), 0.0);
}
void BM_FieldBlendMergeKeys(benchmark::State& state) {
  runProgram(state, ring("merge", Json::parse(R"({"keys": [[0, 0], [2, 0.8]]})")), 1.0);
}
void BM_WorldUnion(benchmark::State& state) {
  runWorld(state, ring("", 0.0));
}
void BM_WorldBlendMerge(benchmark::State& state) {
  runWorld(state, ring("merge", 0.4));
}

BENCHMARK(BM_FieldUnion);
BENCHMARK(BM_FieldBlendMerge);
BENCHMARK(BM_FieldBlendCarve);
BENCHMARK(BM_FieldBlendMergeKeys);
BENCHMARK(BM_WorldUnion);
BENCHMARK(BM_WorldBlendMerge);

}  // namespace

BENCHMARK_MAIN();
