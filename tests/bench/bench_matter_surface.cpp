// The matter's shared brickmap (matter::SoftBodySurfaceMap), one thread: the per-step re-bake
// of the bricks near a moving soft body.
//   BM_SurfaceRebake/B  a 512-particle cube (8^3, 1 m) dropped 1 m onto a plane; its 90
//                       steps (1.5 s: it falls, lands, squashes and settles) are simulated
//                       once up front, then each iteration puts the next step's state in
//                       and times SoftBodySurfaceMap::update alone (the cage fit, the skinned
//                       field and rebakeNearest on a budget of B top cells) and
//                       takeChangedCells (what a viewer would re-upload).
// Counters: bricks_per_step (top cells re-baked a step, <= B), changed_per_step (the cells a
// viewer re-uploads), cell_mm (the fine cell, half the particle spacing).
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <vector>

#include "floptle/core/field/node_spec.h"
#include "floptle/matter/soft_body.h"
#include "floptle/matter/soft_body_surface_map.h"
#include "floptle/physics/field_collider.h"

namespace {

using namespace floptle;

constexpr float kDt = 1.0f / 60.0f;
constexpr int kSteps = 90;
const Vec3 kCentre(0.0f, 1.5f, 0.0f);

physics::CollisionWorld floorWorld() {
  field::FieldNode plane = field::makeDefaultNode(field::NodeType::Plane);
  plane.params[0] = 0.0f, plane.params[1] = 1.0f, plane.params[2] = 0.0f, plane.params[3] = 0.0f;
  auto collider = physics::FieldCollider::make(plane, Transform{});
  physics::CollisionWorld world;
  world.add(std::make_unique<physics::FieldCollider>(std::move(collider.value())), "floor");
  return world;
}

float restCube(Vec3 p) {
  const Vec3 q = glm::abs(p - kCentre) - Vec3(0.5f);
  return glm::length(glm::max(q, Vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
}

void BM_SurfaceRebake(benchmark::State& state) {
  matter::SoftBodyDesc desc;
  desc.name = "cube";
  desc.knobs.particles = 512;
  desc.knobs.shapeMatch = 0.1f;
  std::vector<matter::SoftBody> bodies{
      matter::SoftBody::build(desc, restCube, Aabb{kCentre - Vec3(0.5f), kCentre + Vec3(0.5f)}, "")
          .value()};
  const physics::CollisionWorld world = floorWorld();
  std::vector<matter::SoftBody::State> states;
  double t = 0.0;
  for (int s = 0; s < kSteps; ++s) {
    t += kDt;
    bodies[0].step(world, Vec3(0.0f, -9.81f, 0.0f), t, kDt);
    states.push_back(bodies[0].state());
  }
  bodies[0].state() = states.back();
  auto map = matter::SoftBodySurfaceMap::build(
                 bodies, {"cube"}, {restCube},
                 Aabb{Vec3(-2.0f, -0.5f, -2.0f), Vec3(2.0f, 2.5f, 2.0f)}, "", int(state.range(0)))
                 .value();
  std::uint64_t steps = 0, bricks = 0, changed = 0;
  for (auto _ : state) {
    bodies[0].state() = states[steps % kSteps];
    const auto start = std::chrono::steady_clock::now();
    map.update(bodies);
    const std::vector<glm::ivec3> cells = map.takeChangedCells();
    const auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    bricks += map.counters().bricksRebaked;
    changed += cells.size();
    ++steps;
  }
  state.counters["bricks_per_step"] = double(bricks) / double(steps);
  state.counters["changed_per_step"] = double(changed) / double(steps);
  state.counters["cell_mm"] = 1000.0 * double(map.map().cellSize());
}
BENCHMARK(BM_SurfaceRebake)
    ->Arg(16)
    ->Arg(64)
    ->Arg(256)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
