// SoftBody benchmarks, one thread, 60 Hz fixed step, 10 substeps, against the Jolt
// Physics soft-body anchors measured on this machine kind (one thread, 60 Hz, 10 iterations,
// edge and tetrahedral volume constraints):
//   BM_SoftCube/512      a 512-particle cube (8^3) dropped 0.2 m onto a plane
//                         Jolt 0.57 ms a step (volume kept 0.998); target <= 0.28 ms
//   BM_FourSoftCubes      four of them side by side: Jolt 2.31 ms
//   BM_SoftCube/10648     a 10,648-particle cube (22^3): Jolt 14.9 ms; target (10,000
//                         particles) <= 7.5 ms
//   BM_SoftCube/10000     about 10,000 particles (the lattice decides: 21^3 = 9,261 or
//                         22^3): the target's count
//   BM_FourSoftCubesStage the four through the matter stage (SoftBodyStage::stepBodies: the
//                         contacts between bodies and their bounds tests included)
// Each cycle drops the cube and steps 90 ticks (1.5 s: it lands, squashes and settles, and
// stays awake) before it is put back (untimed). Counters: particles, tetrahedra, edges, and
// volume_kept (the smallest volume / rest volume seen) and volume_end (at the cycle's end).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "floptle/core/field/node_spec.h"
#include "floptle/matter/soft_body.h"
#include "floptle/matter/soft_body_stage.h"
#include "floptle/physics/field_collider.h"

namespace {

using namespace floptle;

constexpr float kDt = 1.0f / 60.0f;
constexpr int kCycle = 90;
const Vec3 kGravity(0.0f, -9.81f, 0.0f);

physics::CollisionWorld floorWorld() {
  field::FieldNode plane = field::makeDefaultNode(field::NodeType::Plane);
  plane.params[0] = 0.0f, plane.params[1] = 1.0f, plane.params[2] = 0.0f, plane.params[3] = 0.0f;
  auto collider = physics::FieldCollider::make(plane, Transform{});
  physics::CollisionWorld world;
  world.add(std::make_unique<physics::FieldCollider>(std::move(collider.value())), "floor");
  return world;
}

matter::SoftBody softCube(Vec3 centre, std::int64_t particles) {
  matter::SoftBodyDesc desc;
  desc.name = "cube";
  desc.knobs.particles = particles;
  desc.knobs.stiffness = 0.5f;
  desc.knobs.volumePreserve = 1.0f;
  desc.knobs.shapeMatch = 0.1f;
  desc.knobs.substeps = 10;
  desc.knobs.damping = 1.0f;
  const float half = 0.5f;
  auto field = [=](Vec3 p) {
    const Vec3 q = glm::abs(p - centre) - Vec3(half);
    return glm::length(glm::max(q, Vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
  };
  return std::move(
      matter::SoftBody::build(desc, field, Aabb{centre - Vec3(half), centre + Vec3(half)}, "")
          .value());
}

void runCubes(benchmark::State& state, std::vector<matter::SoftBody> cubes) {
  const physics::CollisionWorld world = floorWorld();
  std::vector<matter::SoftBody::State> start;
  for (const auto& c : cubes) start.push_back(c.state());
  float kept = 1.0f, end = 1.0f;
  int tick = 0;
  for (auto _ : state) {
    if (tick == kCycle) {
      state.PauseTiming();
      for (auto& c : cubes) end = std::min(end, c.volume() / c.restVolume());
      for (std::size_t i = 0; i < cubes.size(); ++i) cubes[i].state() = start[i];
      tick = 0;
      state.ResumeTiming();
    }
    ++tick;
    for (auto& c : cubes) c.step(world, kGravity, double(tick) * kDt, kDt);
    for (auto& c : cubes) kept = std::min(kept, c.volume() / c.restVolume());
  }
  for (const auto& c : cubes) {
    if (c.state().asleep) state.SkipWithError("a cube fell asleep: the timing is not of a step");
  }
  state.counters["particles"] = double(cubes[0].particleCount());
  state.counters["tetrahedra"] = double(cubes[0].tetCount());
  state.counters["edges"] = double(cubes[0].edgeCount());
  state.counters["volume_kept"] = kept;
  state.counters["volume_end"] = end;
}

void BM_SoftCube(benchmark::State& state) {
  std::vector<matter::SoftBody> cubes;
  cubes.push_back(softCube(Vec3(0, 0.7f, 0), state.range(0)));
  runCubes(state, std::move(cubes));
}
BENCHMARK(BM_SoftCube)->Arg(512)->Arg(10000)->Arg(10648)->Unit(benchmark::kMillisecond);

void BM_FourSoftCubes(benchmark::State& state) {
  std::vector<matter::SoftBody> cubes;
  for (int i = 0; i < 4; ++i) cubes.push_back(softCube(Vec3(2.0f * float(i), 0.7f, 0), 512));
  runCubes(state, std::move(cubes));
}
BENCHMARK(BM_FourSoftCubes)->Unit(benchmark::kMillisecond);

void BM_FourSoftCubesStage(benchmark::State& state) {
  matter::SoftBodyStage stage;
  for (int k = 0; k < 4; ++k) stage.add(softCube(Vec3(1.5f * float(k), 0.7f, 0), 512));
  const physics::CollisionWorld world = floorWorld();
  std::vector<matter::SoftBody::State> start;
  for (const auto& c : stage.bodies()) start.push_back(c.state());
  int tick = 0;
  for (auto _ : state) {
    if (tick == kCycle) {
      state.PauseTiming();
      for (std::size_t i = 0; i < start.size(); ++i) stage.bodies()[i].state() = start[i];
      tick = 0;
      state.ResumeTiming();
    }
    ++tick;
    stage.stepBodies(
        world, [](Vec3) { return kGravity; }, double(tick) * kDt, kDt);
  }
  state.counters["particles"] = double(stage.counts().particles);
}
BENCHMARK(BM_FourSoftCubesStage)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
