#pragma once
// RayBvh4: a four-wide copy of TriBvh for rays only. Each binary node and its inner children
// are collapsed into one 128-byte node holding up to four child boxes in structure-of-arrays
// form, so one SSE slab test answers all four; nodes are stored depth first (a node's first
// inner child follows it). Each leaf's triangles are copied into one SoA block (leaf order,
// so a block is contiguous with its neighbours in the tree); hits are reported as TriBvh leaf
// indices. Built once from a TriBvh, immutable, every query const.
#include <cstdint>
#include <vector>

#include "mesh/tri_bvh.h"

namespace floptle::physics::mesh {

struct alignas(64) Bvh4Node {
  // Child boxes (m); an empty slot holds min = +FLT_MAX, max = -FLT_MAX, which the
  // sign-ordered slab test always rejects.
  float minX[4], minY[4], minZ[4];
  float maxX[4], maxY[4], maxZ[4];
  /// Inner child (count == 0): index of its Bvh4Node. Leaf (count > 0): its LeafBlock.
  std::uint32_t child[4];
  std::uint32_t count[4];
  // 128 bytes: two cache lines
};

/// Up to four triangles of one leaf in structure-of-arrays form (corner a, edges e1 = b - a,
/// e2 = c - a, (m)), so one SSE Moller-Trumbore test answers the whole leaf. Unused lanes are
/// degenerate (zero edges), which the determinant test rejects.
struct alignas(64) LeafBlock {
  float ax[4], ay[4], az[4];
  float e1x[4], e1y[4], e1z[4];
  float e2x[4], e2y[4], e2z[4];
  std::uint32_t first;        ///< leaf-order index of lane 0 (TriBvh::triangles(), order())
  std::uint32_t triangle[4];  ///< input triangle index of each lane (ties, the answer)
  // 192 bytes: three cache lines
};

/// A ray's nearest triangle, with what the caller needs to answer from it without touching
/// the (cold) full-size arrays again.
struct RayBvhHit {
  float distance = 0.0f;      ///< along the unit direction (m)
  std::uint32_t leaf = 0;     ///< leaf-order index (TriBvh::triangles())
  std::uint32_t triangle = 0; ///< input triangle index
  Vec3 e1{0.0f}, e2{0.0f};    ///< the triangle's edges b - a, c - a (m)
};

class RayBvh4 {
 public:
  void build(const TriBvh& binary);

  const std::vector<Bvh4Node>& nodes() const { return nodes_; }
  /// Levels from the root to the deepest node (root = 1); bounds the traversal stack.
  int depth() const { return depth_; }

  /// Nearest triangle hit by origin + s * dir, s in [0, maxDistance]; ties go to the lower
  /// input triangle index, so the answer does not depend on
  /// the traversal order. Returns false for a miss; on a hit fills `hit`.
  bool raycast(Vec3 origin, Vec3 dir, float maxDistance, RayBvhHit& hit) const;

  /// Largest depth() the fixed traversal stack takes (3 pending children per level).
  static constexpr int kMaxDepth = 80;

 private:
  std::vector<Bvh4Node> nodes_;
  std::vector<LeafBlock> leaves_;
  int depth_ = 0;
};

}  // namespace floptle::physics::mesh
