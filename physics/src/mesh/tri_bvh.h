#pragma once
// TriBvh: a binary bounding-volume hierarchy over triangles, built once with the binned
// surface-area heuristic. Each 64-byte node holds both children's boxes, so one cache line
// answers a node's two slab tests. Triangles are stored in leaf order as (a, b - a, c - a).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "floptle/core/math.h"
#include "mesh/tri_huge_pages.h"

namespace floptle::physics::mesh {

/// One child slot: an inner node (count == 0, index >= 0), a leaf (count > 0: triangles
/// [index, index + count) in leaf order) or nothing (index < 0).
struct BvhChild {
  std::int32_t index = -1;
  std::uint32_t count = 0;
};

struct alignas(64) BvhNode {
  float minX[2], minY[2], minZ[2];  // child boxes (m), structure-of-arrays
  float maxX[2], maxY[2], maxZ[2];
  BvhChild child[2];
  // 64 bytes
};

/// Per-child sums for the fast winding number: area-weighted normal (m^2), area-weighted
/// centroid (m) and the radius of a ball about it holding the child's box (m).
struct BvhMoments {
  Vec3 areaNormal[2];
  Vec3 centre[2];
  float radius[2];
};

struct LeafTriangle {
  Vec3 a, e1, e2;  // corner a and the edges b - a, c - a (m)
};

class TriBvh {
 public:
  /// Builds over `triangles` (m). Leaf order permutation in `order()`.
  void build(std::span<const std::array<Vec3, 3>> triangles);

  const HugePageVector<BvhNode>& nodes() const { return nodes_; }
  const HugePageVector<BvhMoments>& moments() const { return moments_; }
  const HugePageVector<LeafTriangle>& triangles() const { return tris_; }
  /// order()[leafIndex] = index of the triangle in the input.
  const HugePageVector<std::uint32_t>& order() const { return order_; }
  Aabb bounds() const { return bounds_; }

 private:
  HugePageVector<BvhNode> nodes_;
  HugePageVector<BvhMoments> moments_;
  HugePageVector<LeafTriangle> tris_;
  HugePageVector<std::uint32_t> order_;
  Aabb bounds_;
};

/// Squared distance from p to a child box of a node.
inline float childBoxDistance2(const BvhNode& n, int i, Vec3 p) {
  const float dx = std::max(std::max(n.minX[i] - p.x, p.x - n.maxX[i]), 0.0f);
  const float dy = std::max(std::max(n.minY[i] - p.y, p.y - n.maxY[i]), 0.0f);
  const float dz = std::max(std::max(n.minZ[i] - p.z, p.z - n.maxZ[i]), 0.0f);
  return dx * dx + dy * dy + dz * dz;
}

/// Slab test of a child box grown by `margin`; entry parameter or +inf for a miss.
inline float childBoxEntry(const BvhNode& n, int i, Vec3 o, Vec3 invDir, float maxT, float margin) {
  const float tx0 = (n.minX[i] - margin - o.x) * invDir.x,
              tx1 = (n.maxX[i] + margin - o.x) * invDir.x;
  const float ty0 = (n.minY[i] - margin - o.y) * invDir.y,
              ty1 = (n.maxY[i] + margin - o.y) * invDir.y;
  const float tz0 = (n.minZ[i] - margin - o.z) * invDir.z,
              tz1 = (n.maxZ[i] + margin - o.z) * invDir.z;
  const float tNear = std::max(std::max(std::min(tx0, tx1), std::min(ty0, ty1)),
                               std::max(std::min(tz0, tz1), 0.0f));
  const float tFar = std::min(std::min(std::max(tx0, tx1), std::max(ty0, ty1)),
                              std::min(std::max(tz0, tz1), maxT));
  return tNear <= tFar ? tNear : std::numeric_limits<float>::infinity();
}

}  // namespace floptle::physics::mesh
