// Embree 3 (Debian libembree-dev) against our own BVH on the benchmark terrain (issue 4: "measure
// it against your own BVH and keep what is faster and deterministic"). Built only where
// find_package(embree 3) succeeds; Embree is not a dependency of the product.
//
// The same rays as bench_mesh.cpp (bench_terrain.h) go through rtcIntersect1 on one thread.
// At start the program checks (counters, not timed): that two Embree builds of the same mesh
// answer every ray with the same bits (deterministic), and how often Embree and
// TriMeshCollider::raycast disagree on hit/miss, the triangle or the distance (beyond 1e-4 m).
#include <benchmark/benchmark.h>
#include <embree3/rtcore.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "bench_terrain.h"
#include "floptle/physics/tri_mesh_collider.h"

namespace {

using namespace floptle;
constexpr int kRays = 1 << 16;

/// One Embree device and scene holding the mesh as one triangle geometry.
class EmbreeMesh {
 public:
  explicit EmbreeMesh(const asset::TriangleMesh& mesh, const char* config) {
    device_ = rtcNewDevice(config);
    scene_ = rtcNewScene(device_);
    rtcSetSceneBuildQuality(scene_, RTC_BUILD_QUALITY_HIGH);
    RTCGeometry geometry = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
    auto* vertices = static_cast<float*>(
        rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                3 * sizeof(float), mesh.positions.size()));
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
      vertices[3 * i] = mesh.positions[i].x, vertices[3 * i + 1] = mesh.positions[i].y;
      vertices[3 * i + 2] = mesh.positions[i].z;
    }
    auto* indices = static_cast<unsigned*>(
        rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                3 * sizeof(unsigned), mesh.triangles.size()));
    for (std::size_t i = 0; i < mesh.triangles.size(); ++i)
      for (int k = 0; k < 3; ++k) indices[3 * i + k] = mesh.triangles[i][k];
    rtcCommitGeometry(geometry);
    rtcAttachGeometry(scene_, geometry);
    rtcReleaseGeometry(geometry);
    rtcCommitScene(scene_);
  }
  ~EmbreeMesh() {
    rtcReleaseScene(scene_);
    rtcReleaseDevice(device_);
  }
  EmbreeMesh(const EmbreeMesh&) = delete;
  EmbreeMesh& operator=(const EmbreeMesh&) = delete;

  /// Nearest hit within [0, length]: (t, primID), or primID = RTC_INVALID_GEOMETRY_ID.
  RTCRayHit intersect(Vec3 o, Vec3 d, float length) const {
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    RTCRayHit rh{};
    rh.ray.org_x = o.x, rh.ray.org_y = o.y, rh.ray.org_z = o.z;
    rh.ray.dir_x = d.x, rh.ray.dir_y = d.y, rh.ray.dir_z = d.z;
    rh.ray.tnear = 0.0f;
    rh.ray.tfar = length;
    rh.ray.mask = ~0u;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.primID = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene_, &context, &rh);
    return rh;
  }

 private:
  RTCDevice device_;
  RTCScene scene_;
};

struct Fixture {
  asset::TriangleMesh terrain = bench::benchmarkTerrain();
  EmbreeMesh embree{terrain, nullptr};
  std::unique_ptr<physics::TriMeshCollider> own =
      std::move(physics::TriMeshCollider::create(terrain)).value();
  bench::BenchRays down = bench::downRays(kRays), aimed = bench::aimedRays(kRays);
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

/// Disagreements between two Embree builds (bitwise) and between Embree and our collider.
struct Agreement {
  int embreeRebuildDiffers = 0, hitMissDiffers = 0, triangleDiffers = 0, distanceDiffers = 0;
  float maxDistanceGap = 0.0f;  ///< largest |t_embree - t_own| where both hit the same triangle (m)
  double maxOwnError = 0.0, maxEmbreeError = 0.0;  ///< largest |t - t_exact| there (m)
};

/// The ray parameter where the ray meets the plane of input triangle `i`, in double precision.
double exactDistance(const asset::TriangleMesh& m, std::uint32_t i, Vec3 o, Vec3 d) {
  const glm::dvec3 a(m.positions[m.triangles[i][0]]), b(m.positions[m.triangles[i][1]]),
      c(m.positions[m.triangles[i][2]]);
  const glm::dvec3 n = glm::cross(b - a, c - a);
  return glm::dot(n, a - glm::dvec3(o)) / glm::dot(n, glm::dvec3(d));
}

Agreement compare(const bench::BenchRays& rays) {
  const Fixture& f = fixture();
  const EmbreeMesh second(f.terrain, "threads=1");
  Agreement a;
  for (int i = 0; i < kRays; ++i) {
    const Vec3 o = rays.origins[i], d = rays.directions[i];
    const float len = rays.lengths[i];
    const RTCRayHit e = f.embree.intersect(o, d, len), e2 = second.intersect(o, d, len);
    if (e.hit.primID != e2.hit.primID || std::memcmp(&e.ray.tfar, &e2.ray.tfar, sizeof(float)) != 0)
      ++a.embreeRebuildDiffers;
    const auto own = f.own->raycast(o, d, len);
    const bool embreeHit = e.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    if (embreeHit != own.hit) {
      ++a.hitMissDiffers;
    } else if (own.hit) {
      if (own.triangle != e.hit.primID) ++a.triangleDiffers;
      if (std::abs(own.distance - e.ray.tfar) > 1e-4f) ++a.distanceDiffers;
      if (own.triangle == e.hit.primID) {
        a.maxDistanceGap = std::max(a.maxDistanceGap, std::abs(own.distance - e.ray.tfar));
        const double exact = exactDistance(f.terrain, own.triangle, o, d);
        a.maxOwnError = std::max(a.maxOwnError, std::abs(own.distance - exact));
        a.maxEmbreeError = std::max(a.maxEmbreeError, std::abs(e.ray.tfar - exact));
      }
    }
  }
  return a;
}

void runEmbree(benchmark::State& state, const bench::BenchRays& rays) {
  const Fixture& f = fixture();
  const Agreement agreement = compare(rays);
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & (kRays - 1);
    const RTCRayHit h = f.embree.intersect(rays.origins[k], rays.directions[k], rays.lengths[k]);
    hits += h.hit.geomID != RTC_INVALID_GEOMETRY_ID;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["hit_rate"] =
      static_cast<double>(hits) / std::max<double>(1.0, double(state.iterations()));
  state.counters["rebuild_differs"] = agreement.embreeRebuildDiffers;
  state.counters["vs_own_hit_differs"] = agreement.hitMissDiffers;
  state.counters["vs_own_tri_differs"] = agreement.triangleDiffers;
  state.counters["vs_own_dist_differs"] = agreement.distanceDiffers;
  state.counters["vs_own_max_dist_gap_m"] = agreement.maxDistanceGap;
  state.counters["own_max_err_m"] = agreement.maxOwnError;
  state.counters["embree_max_err_m"] = agreement.maxEmbreeError;
}

void runOwn(benchmark::State& state, const bench::BenchRays& rays) {
  const Fixture& f = fixture();
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    const std::size_t k = i++ & (kRays - 1);
    hits += f.own->raycast(rays.origins[k], rays.directions[k], rays.lengths[k]).hit;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["hit_rate"] =
      static_cast<double>(hits) / std::max<double>(1.0, double(state.iterations()));
}

void BM_EmbreeRayDown(benchmark::State& state) {
  runEmbree(state, fixture().down);
}
void BM_EmbreeRayAimed(benchmark::State& state) {
  runEmbree(state, fixture().aimed);
}
void BM_OwnBvhRayDown(benchmark::State& state) {
  runOwn(state, fixture().down);
}
void BM_OwnBvhRayAimed(benchmark::State& state) {
  runOwn(state, fixture().aimed);
}

BENCHMARK(BM_EmbreeRayDown);
BENCHMARK(BM_OwnBvhRayDown);
BENCHMARK(BM_EmbreeRayAimed);
BENCHMARK(BM_OwnBvhRayAimed);

}  // namespace

BENCHMARK_MAIN();
