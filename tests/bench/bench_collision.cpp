// Collision-world queries against one analytic sphere, single thread, through the public
// query API (CollisionWorld::raycast etc.), as Jolt's "ray vs one sphere through its world
// query" (11.7 M/s on this machine kind; target >= 12 M/s). Run:
//   build/tests/bench_collision --benchmark_min_time=1
//
// Building worlds: BM_BuildWorld/N adds N sphere colliders in one CollisionWorld::addMany
// (the binned SAH build a scene load uses), BM_AddOneByOne/N the same by N add()s (incremental
// inserts); BM_RemoveAndAdd removes a random collider of a 100,000-sphere world and adds a
// new one (one pair per iteration). Shapes are made outside the timed region.
//
// Two figures: BM_RaycastOneSphere is the sphere node as authored (a field that is one sphere
// answers casts in closed form through CollisionShape::castSphere, as Jolt's sphere does);
// BM_RaycastOneSphereMarched forces the general path (sphere marching the compiled field).
//
// The work: a field collider (sphere r = 1 m at (0, 1, 0), placed by a node transform) in a
// world; 4096 pre-generated rays from random points on a 10 m shell around it, aimed at
// random points of its 2 m bounding box (so ~35% graze past or miss), 100 m long. Every
// answer is consumed so nothing is optimized away.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "floptle/core/field/node_spec.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/field_collider.h"

namespace {

using namespace floptle;
using namespace floptle::physics;

constexpr int kRayCount = 4096;
constexpr Vec3 kCentre{0.0f, 1.0f, 0.0f};

/// marched = false: the node's shape is the sphere itself, which FieldCollider answers in
/// closed form. marched = true: the same sphere as the only child of a union, so the field is
/// not recognised as one sphere and every cast is sphere-marched through the field program.
CollisionWorld oneSphereWorld(bool marched = false) {
  field::FieldNode sphere = field::makeDefaultNode(field::NodeType::Sphere);
  sphere.params[0] = 1.0f;
  if (marched) {
    field::FieldNode wrap = field::makeDefaultNode(field::NodeType::Union);
    wrap.children.push_back(sphere);
    sphere = wrap;
  }
  Transform at;
  at.position = kCentre;
  auto collider = FieldCollider::make(sphere, at);
  CollisionWorld world;
  world.add(std::make_unique<FieldCollider>(std::move(collider.value())), "ball");
  world.refit(0.0);
  return world;
}

std::vector<Ray> aimedRays() {
  std::mt19937 rng(7);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<Ray> rays(kRayCount);
  for (Ray& r : rays) {
    Vec3 d(g(rng), g(rng), g(rng));
    r.origin = kCentre + glm::normalize(d) * 10.0f;
    const Vec3 target = kCentre + Vec3(u(rng), u(rng), u(rng));
    r.direction = glm::normalize(target - r.origin);
  }
  return rays;
}

// Rays at one sphere collider: `marched` forces the general sphere-marching path instead of
// the closed-form fast path a lone analytic sphere gets.
void raycastOneSphere(benchmark::State& state, bool marched) {
  const CollisionWorld world = oneSphereWorld(marched);
  const std::vector<Ray> rays = aimedRays();
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    auto hit = world.raycast(rays[i], 100.0f, 0.0);
    hits += hit.ok() && hit.value().has_value();
    benchmark::DoNotOptimize(hit);
    i = (i + 1) & (kRayCount - 1);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["hit_fraction"] =
      static_cast<double>(hits) / static_cast<double>(state.iterations());
}
void BM_RaycastOneSphere(benchmark::State& state) {
  raycastOneSphere(state, false);
}
BENCHMARK(BM_RaycastOneSphere);
void BM_RaycastOneSphereMarched(benchmark::State& state) {
  raycastOneSphere(state, true);
}
BENCHMARK(BM_RaycastOneSphereMarched);

void BM_SpherecastOneSphere(benchmark::State& state) {
  const CollisionWorld world = oneSphereWorld();
  const std::vector<Ray> rays = aimedRays();
  std::size_t i = 0;
  for (auto _ : state) {
    auto hit = world.spherecast(rays[i].origin, rays[i].direction, 0.5f, 100.0f, 0.0);
    benchmark::DoNotOptimize(hit);
    i = (i + 1) & (kRayCount - 1);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_SpherecastOneSphere);

void BM_ClosestOneSphere(benchmark::State& state) {
  const CollisionWorld world = oneSphereWorld();
  const std::vector<Ray> rays = aimedRays();
  std::size_t i = 0;
  for (auto _ : state) {
    auto hit = world.closest(rays[i].origin * 0.2f, 0.0);
    benchmark::DoNotOptimize(hit);
    i = (i + 1) & (kRayCount - 1);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_ClosestOneSphere);

/// `count` unit-ish spheres scattered in a cube that holds them at about 8 per 10 m^3.
std::vector<std::unique_ptr<CollisionShape>> scatteredSpheres(int count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const float side = std::cbrt(static_cast<float>(count) * 1.25f);
  std::uniform_real_distribution<float> u(0.0f, side);
  std::vector<std::unique_ptr<CollisionShape>> shapes;
  shapes.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    field::FieldNode sphere = field::makeDefaultNode(field::NodeType::Sphere);
    sphere.params[0] = 0.25f + 0.25f * (u(rng) / side);
    Transform at;
    at.position = Vec3(u(rng), u(rng), u(rng));
    shapes.push_back(std::make_unique<FieldCollider>(FieldCollider::make(sphere, at).value()));
  }
  return shapes;
}

void BM_BuildWorld(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<CollisionWorld::NewCollider> batch;
    for (auto& shape : scatteredSpheres(count, 1)) batch.push_back({std::move(shape), "s"});
    CollisionWorld world;
    state.ResumeTiming();
    world.addMany(std::move(batch));
    benchmark::DoNotOptimize(world);
    state.PauseTiming();
    { CollisionWorld gone = std::move(world); }  // freeing is not building
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * count);
}
BENCHMARK(BM_BuildWorld)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_AddOneByOne(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    std::vector<std::unique_ptr<CollisionShape>> shapes = scatteredSpheres(count, 1);
    CollisionWorld world;
    state.ResumeTiming();
    for (auto& shape : shapes) world.add(std::move(shape), "s");
    benchmark::DoNotOptimize(world);
    state.PauseTiming();
    { CollisionWorld gone = std::move(world); }
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * count);
}
BENCHMARK(BM_AddOneByOne)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_RemoveAndAdd(benchmark::State& state) {
  constexpr int kCount = 100000;
  constexpr int kSpare = 4096;
  CollisionWorld world;
  std::vector<CollisionWorld::NewCollider> batch;
  for (auto& shape : scatteredSpheres(kCount, 1)) batch.push_back({std::move(shape), "s"});
  std::vector<ColliderId> ids = world.addMany(std::move(batch));
  std::vector<std::unique_ptr<CollisionShape>> spare = scatteredSpheres(kSpare, 2);
  std::mt19937 rng(3);
  std::size_t next = 0;
  for (auto _ : state) {
    if (next == spare.size()) {
      state.PauseTiming();
      spare = scatteredSpheres(kSpare, static_cast<std::uint32_t>(rng()));
      next = 0;
      state.ResumeTiming();
    }
    const std::size_t k = rng() % ids.size();
    benchmark::DoNotOptimize(world.remove(ids[k]));
    ids[k] = world.add(std::move(spare[next++]), "s");
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_RemoveAndAdd);

}  // namespace

BENCHMARK_MAIN();
