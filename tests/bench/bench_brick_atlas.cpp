// Brick re-bake and atlas update per frame (issue 19, "One shared field, two readers"): a
// sphere of radius 0.5 m baked at 5 cm cells in a 4 m grid moves at 1 m/s on a circle, 60 Hz.
// Each frame re-bakes the top cells nearest it (BrickMap::rebakeNearest, budget 64, within
// 1 m) and hands the re-baked cells to the atlas (BrickAtlas::updateMap with
// cellsSampledInLastRound), then collects what a viewport would send (dirtySlots() at 1458
// bytes a brick, the index when it changed) and marks it sent.
//   BM_RebakeAndAtlasUpdate  the whole frame
//   BM_AtlasUpdateOnly       the atlas part alone (re-bake untimed)
//   BM_AtlasSyncOnly         the atlas part by syncMap's diff of every brick (a writer that
//                            does not track its cells)
// Counters per frame: rebaked (top cells), bricks_uploaded, bytes_uploaded (atlas slots plus
// the index when dirty).
#include <benchmark/benchmark.h>

#include <cmath>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/render/brick_atlas.h"

namespace {

using namespace floptle;

constexpr float kRadius = 0.5f, kCell = 0.05f, kDt = 1.0f / 60.0f, kSpeed = 1.0f, kOrbit = 1.0f;
constexpr int kBudget = 64;
constexpr float kSearch = 1.0f;

Vec3 centreAt(int frame) {
  const float angle = kSpeed / kOrbit * kDt * float(frame);
  return {kOrbit * std::cos(angle), 0.0f, kOrbit * std::sin(angle)};
}

DistanceBatchFn sphereAt(Vec3 centre) {
  return [centre](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i)
      out[i] = glm::length(points[i] - centre) - kRadius;
  };
}

struct Frame {
  BrickMap map;
  render::BrickAtlas atlas{glm::ivec3(render::BrickAtlas::kMaxSlotsPerAxis)};
  int id = 0;
  int frame = 0;
};

Frame setUp() {
  BrickMapSettings s;
  s.bounds = Aabb::fromCenterHalf(Vec3(0.0f), Vec3(2.0f));
  s.cellSize = kCell;
  Frame f{BrickMap::bake(s, sphereAt(centreAt(0))).value()};
  f.id = f.atlas.addMap(f.map, {}).value();
  f.atlas.markUploaded();
  return f;
}

int rebake(Frame& f) {
  const Vec3 c = centreAt(++f.frame);
  return f.map.rebakeNearest(sphereAt(c), std::span(&c, 1), kBudget, kSearch);
}

/// What a viewport sends this frame (bytes), then marks it sent.
std::size_t collect(render::BrickAtlas& atlas, int& bricks) {
  const std::vector<int> dirty = atlas.dirtySlots();
  bricks = int(dirty.size());
  std::size_t bytes = dirty.size() * render::BrickAtlas::kBrickSamples * sizeof(std::int16_t);
  if (atlas.indexDirty()) bytes += atlas.indexTexels().size() * sizeof(float);
  atlas.markUploaded();
  return bytes;
}

void report(benchmark::State& state, double rebaked, double bricks, double bytes) {
  const double frames = double(state.iterations());
  state.counters["rebaked"] = rebaked / frames;
  state.counters["bricks_uploaded"] = bricks / frames;
  state.counters["bytes_uploaded"] = bytes / frames;
}

void BM_RebakeAndAtlasUpdate(benchmark::State& state) {
  Frame f = setUp();
  double rebaked = 0, bricks = 0, bytes = 0;
  for (auto _ : state) {
    rebaked += rebake(f);
    auto ok = f.atlas.updateMap(f.id, f.map, render::cellsSampledInLastRound(f.map));
    if (!ok) state.SkipWithError(ok.error().message().c_str());
    int n = 0;
    bytes += double(collect(f.atlas, n));
    bricks += n;
  }
  report(state, rebaked, bricks, bytes);
}
BENCHMARK(BM_RebakeAndAtlasUpdate)->Unit(benchmark::kMicrosecond);

void BM_AtlasUpdateOnly(benchmark::State& state) {
  Frame f = setUp();
  double rebaked = 0, bricks = 0, bytes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    rebaked += rebake(f);
    state.ResumeTiming();
    auto ok = f.atlas.updateMap(f.id, f.map, render::cellsSampledInLastRound(f.map));
    if (!ok) state.SkipWithError(ok.error().message().c_str());
    int n = 0;
    bytes += double(collect(f.atlas, n));
    bricks += n;
  }
  report(state, rebaked, bricks, bytes);
}
BENCHMARK(BM_AtlasUpdateOnly)->Unit(benchmark::kMicrosecond);

void BM_AtlasSyncOnly(benchmark::State& state) {
  Frame f = setUp();
  double rebaked = 0, bricks = 0, bytes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    rebaked += rebake(f);
    state.ResumeTiming();
    auto ok = f.atlas.syncMap(f.id, f.map);
    if (!ok) state.SkipWithError(ok.error().message().c_str());
    int n = 0;
    bytes += double(collect(f.atlas, n));
    bricks += n;
  }
  report(state, rebaked, bricks, bytes);
}
BENCHMARK(BM_AtlasSyncOnly)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
