#pragma once
// The benchmark terrain shared by the collision benchmarks (issue 4), so figures compare with
// Jolt measured on the same machine kind: 224 x 224 cells of 0.5 m (100,352 triangles, a 112 m
// square centred on the origin), h(x, z) = 2 sin(0.4 (x + 56)) cos(0.4 (z + 56)) m.
// "Down" rays start at y = 10 over a random point, direction (U(-0.1,0.1), -1, U(-0.1,0.1))
// normalized, 20 m long. "Aimed" rays start anywhere in the 112 x 25 x 112 m box from y = 5 to
// 30 and aim through a random surface point (length: to that point + 1 m).
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "floptle/core/asset/triangle_mesh.h"

namespace floptle::bench {

inline constexpr int kTerrainCells = 224;        // per side (-)
inline constexpr float kTerrainCellSize = 0.5f;  // (m)
inline constexpr float kTerrainHalf = 56.0f;     // half side (m)

inline float terrainHeight(float x, float z) {
  return 2.0f * std::sin(0.4f * (x + 56.0f)) * std::cos(0.4f * (z + 56.0f));
}

inline asset::TriangleMesh benchmarkTerrain() {
  asset::TriangleMesh m;
  constexpr int n = kTerrainCells + 1;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float x = -kTerrainHalf + i * kTerrainCellSize,
                  z = -kTerrainHalf + j * kTerrainCellSize;
      m.positions.emplace_back(x, terrainHeight(x, z), z);
    }
  for (int j = 0; j < kTerrainCells; ++j)
    for (int i = 0; i < kTerrainCells; ++i) {
      const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      // Counter-clockwise seen from above (+Y normals).
      m.triangles.push_back({a, c, b});
      m.triangles.push_back({b, c, d});
    }
  m.triangleSlots.assign(m.triangles.size(), 0);
  m.materialSlots.push_back({"ground", {}});
  return m;
}

struct BenchRays {
  std::vector<Vec3> origins, directions;
  std::vector<float> lengths;  // (m)
};

inline BenchRays downRays(int count, std::uint32_t seed = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> xz(-kTerrainHalf, kTerrainHalf), tilt(-0.1f, 0.1f);
  BenchRays r;
  for (int i = 0; i < count; ++i) {
    r.origins.emplace_back(xz(rng), 10.0f, xz(rng));
    r.directions.push_back(glm::normalize(Vec3(tilt(rng), -1.0f, tilt(rng))));
    r.lengths.push_back(20.0f);
  }
  return r;
}

inline BenchRays aimedRays(int count, std::uint32_t seed = 2) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> xz(-kTerrainHalf, kTerrainHalf), y(5.0f, 30.0f);
  BenchRays r;
  for (int i = 0; i < count; ++i) {
    const Vec3 origin(xz(rng), y(rng), xz(rng));
    const float tx = xz(rng), tz = xz(rng);
    const Vec3 target(tx, terrainHeight(tx, tz), tz);
    r.origins.push_back(origin);
    r.directions.push_back(glm::normalize(target - origin));
    r.lengths.push_back(glm::length(target - origin) + 1.0f);
  }
  return r;
}

}  // namespace floptle::bench
