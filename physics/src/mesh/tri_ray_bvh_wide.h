#pragma once
// RayBvhWide: an eight-wide copy of TriBvh for rays only. The binary SAH tree is collapsed
// (SAH-optimal cut, see the .cpp) into nodes of up to eight child boxes in structure-of-arrays
// form, tested four at a time with SSE; nodes are stored depth first (a node's first inner
// child follows it). Each leaf's triangles are copied into one SoA block. Built once from a
// TriBvh, immutable, every query const.
//
// Why eight wide: a ray's walk is a chain of dependent loads (the next node is known only
// once this one is tested), so it runs at memory latency per level. On the 100k-triangle
// benchmark terrain a down ray visited 7.7 four-wide nodes but 5.1 eight-wide ones (+1 leaf);
// the four lines of an eight-wide node are fetched in parallel, so fewer levels means less
// waiting: 1.4-1.8x the rays per second of the four-wide tree here.
#include <cstdint>
#include <vector>

#include "mesh/tri_bvh.h"
#include "mesh/tri_huge_pages.h"

namespace floptle::physics::mesh {

/// Children per node (a multiple of 4: tested four at a time).
inline constexpr int kWidth = 8;

struct alignas(64) WideNode {
  // Child boxes (m); an empty slot holds min = +FLT_MAX, max = -FLT_MAX, which the
  // sign-ordered slab test always rejects.
  float minX[kWidth], minY[kWidth], minZ[kWidth];
  float maxX[kWidth], maxY[kWidth], maxZ[kWidth];
  /// Inner child (count == 0): index of its WideNode. Leaf (count > 0): its LeafBlock.
  std::uint32_t child[kWidth];
  std::uint32_t count[kWidth];
  // 256 bytes: four cache lines, fetched together
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
  float distance = 0.0f;       ///< along the unit direction (m)
  std::uint32_t leaf = 0;      ///< leaf-order index (TriBvh::triangles())
  std::uint32_t triangle = 0;  ///< input triangle index
  Vec3 e1{0.0f}, e2{0.0f};     ///< the triangle's edges b - a, c - a (m)
};

class RayBvhWide {
 public:
  void build(const TriBvh& binary);

  const HugePageVector<WideNode>& nodes() const { return nodes_; }
  /// Levels from the root to the deepest node (root = 1); bounds the traversal stack.
  int depth() const { return depth_; }
  /// Bytes of the node and leaf arrays (bytes).
  std::size_t memoryBytes() const {
    return nodes_.size() * sizeof(WideNode) + leaves_.size() * sizeof(LeafBlock);
  }

  /// Nearest triangle hit by origin + s * dir, s in [0, maxDistance]; ties go to the lower
  /// input triangle index, so the answer does not depend on
  /// the traversal order. Returns false for a miss; on a hit fills `hit`.
  bool raycast(Vec3 origin, Vec3 dir, float maxDistance, RayBvhHit& hit) const;

  /// Largest depth() the fixed traversal stack takes (kWidth - 1 pending children per level).
  static constexpr int kMaxDepth = 80;

 private:
  HugePageVector<WideNode> nodes_;
  HugePageVector<LeafBlock> leaves_;
  int depth_ = 0;
};

}  // namespace floptle::physics::mesh
