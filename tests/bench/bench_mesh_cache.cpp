// What the mesh collider cache saves: makeMeshCollider on the issue-4 terrain (100,352
// triangles, written as an OBJ) built cold (import, BVH, and for "field" the 0.25 m bake) and
// answered from the cache (a shared BVH, a copied BrickMap). The counters give the bytes an
// entry holds, the figures behind the cache's 1 GiB budget.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "bench_terrain.h"
#include "floptle/physics/baked_field_collider.h"
#include "floptle/physics/mesh_collider.h"
#include "floptle/physics/mesh_collider_cache.h"

namespace {

using namespace floptle;

/// The benchmark terrain as an OBJ in a temp folder (written once per process, removed at exit).
struct TempDir {
  std::filesystem::path path;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const std::filesystem::path& terrainDir() {
  static const TempDir dir{[] {
    const auto d = std::filesystem::temp_directory_path() /
                   ("floptle_bench_mesh_cache_" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(d);
    const asset::TriangleMesh m = bench::benchmarkTerrain();
    std::ofstream obj(d / "terrain.obj");
    for (const Vec3& p : m.positions) obj << "v " << p.x << ' ' << p.y << ' ' << p.z << '\n';
    for (const auto& t : m.triangles)
      obj << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
    return d;
  }()};
  return dir.path;
}

void run(benchmark::State& state, const char* collision, bool warm) {
  const nlohmann::ordered_json component = {{"file", "terrain.obj"}, {"collision", collision}};
  physics::MeshColliderCache cache;  // this benchmark's own
  physics::ColliderBuildOptions options;
  options.meshCache = &cache;
  if (warm && !physics::makeMeshCollider(component, terrainDir(), Transform{}, options).ok())
    state.SkipWithError("cannot build the terrain collider");
  for (auto _ : state) {
    if (!warm) cache.clear();
    auto shape = physics::makeMeshCollider(component, terrainDir(), Transform{}, options);
    if (!shape.ok()) state.SkipWithError(shape.error().message().c_str());
    benchmark::DoNotOptimize(shape);
  }
  const physics::MeshColliderCacheStats s = cache.stats();
  state.counters["entry_MB"] = double(s.bytes) / 1e6;
}

void BM_MeshColliderTerrainCold(benchmark::State& state) {
  run(state, "mesh", false);
}
void BM_MeshColliderTerrainCached(benchmark::State& state) {
  run(state, "mesh", true);
}
void BM_FieldColliderTerrainCold(benchmark::State& state) {
  run(state, "field", false);
}
void BM_FieldColliderTerrainCached(benchmark::State& state) {
  run(state, "field", true);
}

BENCHMARK(BM_MeshColliderTerrainCold)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_MeshColliderTerrainCached)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FieldColliderTerrainCold)->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();
BENCHMARK(BM_FieldColliderTerrainCached)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
