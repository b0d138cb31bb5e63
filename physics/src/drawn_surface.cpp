// drawnSurface: chunked surface nets with vertex projection.
#include "floptle/physics/drawn_surface.h"

#include <cmath>
#include <vector>

namespace floptle::physics {

Expected<asset::TriangleMesh> drawnSurface(const CollisionShape& shape,
                                           const DrawnSurfaceSettings& settings,
                                           const std::atomic<bool>* cancel) {
  const float h = settings.cellSize;
  if (!(h > 0.0f) || !std::isfinite(h)) return Error{"cell_size", "must be a finite number > 0"};
  Aabb bounds = settings.bounds.empty() ? shape.aabb(settings.t) : settings.bounds;
  if (bounds.empty() || !isFinite(bounds.min) || !isFinite(bounds.max) ||
      glm::any(glm::greaterThan(bounds.max - bounds.min, Vec3(1e5f))))
    return Error{"bounds", "the region to draw must be finite (under 100 km) and non-empty"};
  bounds = bounds.inflated(2.0f * h);
  const glm::dvec3 cellCount = glm::ceil(glm::dvec3(bounds.max - bounds.min) / double(h));
  if (cellCount.x * cellCount.y * cellCount.z > double(1u << 30))
    return Error{"cell_size", "too small for the region: more than 2^30 cells"};
  const glm::ivec3 cells = glm::max(glm::ivec3(cellCount), glm::ivec3(1));
  const int C = std::max(4, settings.chunkCells);
  const glm::ivec3 chunks = (cells + C - 1) / C;
  const Vec3 origin = bounds.min;
  const double t = settings.t;

  asset::TriangleMesh out;
  const int S = C + 2;  // samples per chunk edge: indices -1 .. C
  std::vector<float> value(static_cast<std::size_t>(S) * S * S);
  std::vector<std::int32_t> vertexOf(static_cast<std::size_t>(C + 1) * (C + 1) * (C + 1));
  auto sampleIndex = [&](int i, int j, int k) { return (i + 1) + S * ((j + 1) + S * (k + 1)); };
  auto cellIndex = [&](int i, int j, int k) {
    return (i + 1) + (C + 1) * ((j + 1) + (C + 1) * (k + 1));
  };
  const float chunkHalfDiagonal = 0.5f * std::sqrt(3.0f) * (C + 2) * h;

  for (int cz = 0; cz < chunks.z; ++cz)
    for (int cy = 0; cy < chunks.y; ++cy)
      for (int cx = 0; cx < chunks.x; ++cx) {
        if (cancel && cancel->load(std::memory_order_relaxed))
          return Error{"drawn_surface", "cancelled"};
        const glm::ivec3 base = glm::ivec3(cx, cy, cz) * C;
        const Vec3 chunkMin = origin + Vec3(base) * h;
        const Vec3 centre = chunkMin + Vec3(0.5f * (C - 1) * h);
        if (std::abs(shape.distance(centre, t)) > chunkHalfDiagonal + h)
          continue;  // no surface here
        auto position = [&](int i, int j, int k) {
          return chunkMin + Vec3(float(i), float(j), float(k)) * h;
        };
        for (int k = -1; k <= C; ++k)
          for (int j = -1; j <= C; ++j)
            for (int i = -1; i <= C; ++i) {
              float d = shape.distance(position(i, j, k), t);
              if (!std::isfinite(d)) d = 1e30f;
              value[sampleIndex(i, j, k)] = d;
            }
        // One vertex per crossed cell (cells -1 .. C-1 of this chunk).
        std::fill(vertexOf.begin(), vertexOf.end(), -1);
        for (int k = -1; k < C; ++k)
          for (int j = -1; j < C; ++j)
            for (int i = -1; i < C; ++i) {
              float corner[8];
              int inside = 0;
              for (int n = 0; n < 8; ++n) {
                corner[n] = value[sampleIndex(i + (n & 1), j + ((n >> 1) & 1), k + ((n >> 2) & 1))];
                inside += corner[n] < 0.0f;
              }
              if (inside == 0 || inside == 8) continue;
              Vec3 sum(0.0f);
              int crossings = 0;
              static constexpr int kEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                                    {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
              for (const auto& e : kEdges) {
                const float a = corner[e[0]], b = corner[e[1]];
                if ((a < 0.0f) == (b < 0.0f)) continue;
                const float s = a / (a - b);
                const Vec3 pa(float(e[0] & 1), float((e[0] >> 1) & 1), float((e[0] >> 2) & 1));
                const Vec3 pb(float(e[1] & 1), float((e[1] >> 1) & 1), float((e[1] >> 2) & 1));
                sum += pa + (pb - pa) * s;
                ++crossings;
              }
              const Vec3 cellMin = position(i, j, k);
              Vec3 v = cellMin + (sum / float(crossings)) * h;
              for (int step = 0; step < settings.projectionSteps; ++step) {
                const float d = shape.distance(v, t);
                const Vec3 n = shape.normal(v, t);
                if (!std::isfinite(d) || !isFinite(n)) break;
                const Vec3 moved = v - d * n;
                // Stay near the cell so the net keeps its topology.
                v = glm::clamp(moved, cellMin - Vec3(0.5f * h), cellMin + Vec3(1.5f * h));
              }
              vertexOf[cellIndex(i, j, k)] = static_cast<std::int32_t>(out.positions.size());
              out.positions.push_back(v);
            }
        // One quad per crossed edge whose base sample this chunk owns (0 .. C-1 on every axis).
        for (int k = 0; k < C; ++k)
          for (int j = 0; j < C; ++j)
            for (int i = 0; i < C; ++i) {
              if (base.x + i >= cells.x || base.y + j >= cells.y || base.z + k >= cells.z) continue;
              const float d0 = value[sampleIndex(i, j, k)];
              for (int axis = 0; axis < 3; ++axis) {
                glm::ivec3 p(i, j, k), q(i, j, k);
                q[axis] += 1;
                const float d1 = value[sampleIndex(q.x, q.y, q.z)];
                if ((d0 < 0.0f) == (d1 < 0.0f)) continue;
                // The four cells around the edge, in the plane of the next two axes (b, c)
                // counter-clockwise seen from +axis: (0,0), (-1,0), (-1,-1), (0,-1).
                const int b = (axis + 1) % 3, c = (axis + 2) % 3;
                std::int32_t quad[4];
                const int offsets[4][2] = {{0, 0}, {-1, 0}, {-1, -1}, {0, -1}};
                bool complete = true;
                for (int n = 0; n < 4; ++n) {
                  glm::ivec3 cell = p;
                  cell[b] += offsets[n][0];
                  cell[c] += offsets[n][1];
                  quad[n] = vertexOf[cellIndex(cell.x, cell.y, cell.z)];
                  complete = complete && quad[n] >= 0;
                }
                if (!complete) continue;
                // Inside at the base: the surface faces +axis, keep the order; else reverse.
                if (!(d0 < 0.0f)) std::swap(quad[1], quad[3]);
                auto u = [&](int n) { return static_cast<std::uint32_t>(quad[n]); };
                out.triangles.push_back({u(0), u(1), u(2)});
                out.triangles.push_back({u(0), u(2), u(3)});
              }
            }
      }
  out.triangleSlots.assign(out.triangles.size(), 0);
  return out;
}

}  // namespace floptle::physics
