// Gravity field sampling, one body's sample at a time, single thread (targets:
// tier 0 and each tier-1 source <= 20 ns a sample; tier 2 on the baked field <= 150 ns). Each
// benchmark is a field of one term (BM_Sample/0, labelled global, is the constant alone) sampled at
// 4096 pre-generated points spread over a 100 m cube, every answer consumed. Run:
//   build/tests/bench_gravity --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "floptle/core/field/node_spec.h"
#include "floptle/gravity/gravity_field.h"
#include "floptle/gravity/surface_bake.h"
#include "floptle/physics/field_collider.h"

namespace {

using floptle::Vec3;
using floptle::scene::GravityFieldDesc;
using floptle::scene::GravitySource;

std::vector<Vec3> points() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-50.0f, 50.0f);
  std::vector<Vec3> p(4096);
  for (Vec3& v : p) v = Vec3(u(rng), u(rng), u(rng));
  return p;
}

GravityFieldDesc fieldOf(int term) {
  GravityFieldDesc d;
  switch (term) {
    case 0:
      d.global = Vec3(0, -9.81f, 0);
      break;
    case 1:
      d.boxes.push_back(
          {Vec3(0), Vec3(20, 10, 20), glm::angleAxis(0.3f, Vec3(0, 1, 0)), Vec3(0, 1, 0), 9.81f});
      break;
    case 2:
      d.spheres.push_back({Vec3(0), 30.0f, false, 9.81f});
      break;
    default: {
      GravitySource s;
      s.type = term == 3   ? GravitySource::Type::Point
               : term == 4 ? GravitySource::Type::Sphere
               : term == 5 ? GravitySource::Type::Line
                           : GravitySource::Type::Planet;
      s.center = Vec3(1, 2, 3);
      s.end = Vec3(1, 30, 3);
      s.mass = 1e4f;
      s.radius = 10.0f;
      s.rOuter = 80.0f;
      d.sources.push_back(s);
    }
  }
  return d;
}

void BM_Sample(benchmark::State& state) {
  const floptle::gravity::GravityField field(fieldOf(int(state.range(0))));
  const std::vector<Vec3> p = points();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(field.sample(p[i], 0.0));
    i = (i + 1) & 4095;
  }
  state.SetLabel(state.range(0) == 0   ? "global"
                 : state.range(0) == 1 ? "box region"
                 : state.range(0) == 2 ? "sphere region"
                 : state.range(0) == 3 ? "point"
                 : state.range(0) == 4 ? "ball"
                 : state.range(0) == 5 ? "rod"
                                       : "planet");
}
BENCHMARK(BM_Sample)->DenseRange(0, 6);

/// Tier 2 over a world of one planet (a field sphere of radius 20 m at the origin), sampled at
/// 4096 points within the pull's range (3 m) of its surface: /0/x on the baked field (cell
/// 0.5 m, blur 1), /1/x the live 8-tap difference (epsilon 0.1 m); /x/0 points scattered over
/// the shell (every sample a cache miss), /x/1 the path of one walking body.
void BM_SurfaceSample(benchmark::State& state) {
  floptle::field::FieldNode sphere =
      floptle::field::makeDefaultNode(floptle::field::NodeType::Sphere);
  sphere.params[std::size_t(floptle::field::paramSlotOffset(sphere.type, "radius"))] = 20.0f;
  auto collider = floptle::physics::FieldCollider::make(sphere, floptle::Transform{});
  floptle::physics::CollisionWorld world;
  world.add(std::make_unique<floptle::physics::FieldCollider>(std::move(collider.value())),
            "planet");
  world.refit(0.0);
  const bool baked = state.range(0) == 0;
  GravityFieldDesc desc;
  desc.sdf = floptle::scene::GravitySdfDesc{};
  desc.sdf->range = 3.0f;
  desc.sdf->epsilon = 0.1f;
  desc.sdf->bakedCell = baked ? 0.5f : 0.0f;
  desc.sdf->blur = 1.0f;
  floptle::gravity::GravityField field(desc);
  field.setSurface(&world);
  if (baked)
    field.setBakedSurface(floptle::gravity::bakeSurfaceGravity(world, *desc.sdf, 0.0).value());
  std::mt19937 rng(11);
  std::normal_distribution<float> n(0.0f, 1.0f);
  std::uniform_real_distribution<float> h(0.0f, 3.0f);
  std::vector<Vec3> p(4096);
  for (Vec3& v : p) v = glm::normalize(Vec3(n(rng), n(rng), n(rng))) * (20.0f + h(rng));
  if (state.range(1) == 1) {
    // One body walking: successive samples 7 cm apart (4 m/s at 60 Hz) round a great circle
    // 1 m up, so the bricks it reads stay in cache from one sample to the next.
    for (std::size_t k = 0; k < p.size(); ++k) {
      const float a = 0.07f / 21.0f * float(k);
      p[k] = 21.0f * Vec3(std::cos(a), std::sin(a), 0.0f);
    }
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(field.sample(p[i], 0.0));
    i = (i + 1) & 4095;
  }
  state.SetLabel(std::string(baked ? "sdf baked" : "sdf live") +
                 (state.range(1) ? ", one body walking" : ", scattered points"));
}
BENCHMARK(BM_SurfaceSample)->ArgsProduct({{0, 1}, {0, 1}});

}  // namespace

BENCHMARK_MAIN();
