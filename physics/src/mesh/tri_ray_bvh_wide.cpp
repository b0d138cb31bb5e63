// RayBvhWide: collapse of the binary SAH tree into kWidth-wide nodes, and the ray traversal over
// it (SSE slab tests of four boxes at once, nearest child first, pruning by the best hit so far).
#include "mesh/tri_ray_bvh_wide.h"

#include <emmintrin.h>
#include <xmmintrin.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "mesh/triangle_geometry.h"

static_assert(floptle::physics::mesh::kWidth % 4 == 0 && floptle::physics::mesh::kWidth <= 32);

namespace floptle::physics::mesh {
namespace {

/// One child of a binary node: its box and what it points at (index < 0: empty).
struct Slot {
  float min[3], max[3];
  std::int32_t index;
  std::uint32_t count;
};

/// Leaf-order triangles [first, first + count) under one binary node (a subtree's leaves are
/// contiguous: the builder partitions the order in place).
struct Range {
  std::uint32_t first = 0, count = 0;
};

/// SAH weights of the collapse (relative): entering a wide node (its lines fetched together,
/// two four-box slab tests) and testing a leaf block (three lines, one four-triangle test).
constexpr float kNodeCost = 1.0f;
constexpr float kLeafCost = 1.5f;

/// Collapses the binary SAH tree into kWidth-wide nodes by dynamic programming: for every
/// binary node x and slot budget k (1..kWidth), best[x][k] is the least SAH cost of covering
/// x's subtree with at most k slots of one wide node, each slot a leaf block (a subtree of at
/// most four triangles), an emitted wide node, or opened further. (A greedy collapse, opening
/// the largest slot until the node is full, left 61% of the four-wide nodes with only two
/// leaves: an eight-triangle subtree that its parent had no room to open.)
/// Deterministic: fixed enumeration order, strict comparisons.
class Collapser {
 public:
  Collapser(const TriBvh& binary, HugePageVector<WideNode>& out, HugePageVector<LeafBlock>& leaves)
      : binary_(binary),
        out_(out),
        leaves_(leaves),
        ranges_(binary.nodes().size()),
        area_(binary.nodes().size()),
        plan_(binary.nodes().size()) {
    rangeOf(0);
    solve(0);
  }
  int depth = 0;

  /// Emits the wide node covering binary node `b` (opened into kWidth slots) and, depth
  /// first, the nodes of its inner slots.
  std::uint32_t emit(std::int32_t b, int level) {
    depth = std::max(depth, level);
    Slot slots[kWidth];
    int n = 0;
    openInto(b, kWidth, slots, n);
    const auto id = static_cast<std::uint32_t>(out_.size());
    out_.emplace_back();
    WideNode node{};
    constexpr float kBig = std::numeric_limits<float>::max();
    for (int k = 0; k < kWidth; ++k) {
      node.minX[k] = node.minY[k] = node.minZ[k] = kBig;
      node.maxX[k] = node.maxY[k] = node.maxZ[k] = -kBig;
      node.child[k] = 0;
      node.count[k] = 0;
    }
    for (int k = 0; k < n; ++k) {
      node.minX[k] = slots[k].min[0], node.minY[k] = slots[k].min[1],
      node.minZ[k] = slots[k].min[2];
      node.maxX[k] = slots[k].max[0], node.maxY[k] = slots[k].max[1],
      node.maxZ[k] = slots[k].max[2];
      node.count[k] = slots[k].count;
      node.child[k] = slots[k].count > 0
                          ? addLeaf(static_cast<std::uint32_t>(slots[k].index), slots[k].count)
                          : 0u;
    }
    for (int k = 0; k < n; ++k)
      if (slots[k].count == 0) node.child[k] = emit(slots[k].index, level + 1);
    out_[id] = node;
    return id;
  }

 private:
  /// The choice behind best[x][k]: x as one slot (leaf or node), or opened with k0 slots
  /// for its first child and k - k0 for its second.
  struct Plan {
    float best[kWidth + 1] = {};
    std::int8_t split[kWidth + 1] = {};  // 0: one slot; else slots given to child 0
  };

  Range rangeOf(std::int32_t b) {
    Range r{~0u, 0};
    Aabb box;
    const BvhNode& node = binary_.nodes()[b];
    for (int s = 0; s < 2; ++s) {
      const BvhChild& c = node.child[s];
      if (c.index < 0) continue;
      box.expand(Vec3(node.minX[s], node.minY[s], node.minZ[s]));
      box.expand(Vec3(node.maxX[s], node.maxY[s], node.maxZ[s]));
      const Range part =
          c.count > 0 ? Range{static_cast<std::uint32_t>(c.index), c.count} : rangeOf(c.index);
      r.first = std::min(r.first, part.first);
      r.count += part.count;
    }
    ranges_[b] = r;
    area_[b] = box.surfaceArea();
    return r;
  }

  /// Cost of child slot s of binary node b with at most k slots.
  float slotCost(std::int32_t b, int s, int k) const {
    const BvhNode& node = binary_.nodes()[b];
    const BvhChild& c = node.child[s];
    if (c.index < 0) return 0.0f;
    if (c.count > 0) return slotArea(node, s) * kLeafCost;
    return plan_[c.index].best[k];
  }
  static float slotArea(const BvhNode& n, int s) {
    const float dx = n.maxX[s] - n.minX[s], dy = n.maxY[s] - n.minY[s], dz = n.maxZ[s] - n.minZ[s];
    return 2.0f * (dx * dy + dy * dz + dz * dx);
  }

  /// Least cost of b opened into at most k slots (k >= 2; a one-child root takes all k).
  float openCost(std::int32_t b, int k, std::int8_t& split) const {
    const BvhNode& node = binary_.nodes()[b];
    if (node.child[1].index < 0) {
      split = static_cast<std::int8_t>(k);
      return slotCost(b, 0, k);
    }
    float best = std::numeric_limits<float>::infinity();
    for (int k0 = 1; k0 < k; ++k0) {
      const float c = slotCost(b, 0, k0) + slotCost(b, 1, k - k0);
      if (c < best) best = c, split = static_cast<std::int8_t>(k0);
    }
    return best;
  }

  void solve(std::int32_t b) {
    const BvhNode& node = binary_.nodes()[b];
    for (const BvhChild& c : node.child)
      if (c.index >= 0 && c.count == 0) solve(c.index);
    Plan& p = plan_[b];
    if (ranges_[b].count <= 4) {
      // A subtree that fits one leaf block stays one: opening it would add a block (memory,
      // a second test) for the same triangles.
      for (int k = 1; k <= kWidth; ++k) p.best[k] = area_[b] * kLeafCost, p.split[k] = 0;
      return;
    }
    std::int8_t split4 = 0;
    const float open4 = openCost(b, kWidth, split4);
    // One slot: a node opening b into kWidth.
    const float single = area_[b] * kNodeCost + open4;
    p.best[1] = single, p.split[1] = 0;
    for (int k = 2; k <= kWidth; ++k) {
      std::int8_t split = 0;
      const float open = k == kWidth ? open4 : openCost(b, k, split);
      if (k == kWidth) split = split4;
      if (open < single)
        p.best[k] = open, p.split[k] = split;
      else
        p.best[k] = single, p.split[k] = 0;
    }
  }

  /// Appends the slots of child s of binary node b given at most k slots.
  void slotInto(std::int32_t b, int s, int k, Slot* slots, int& n) const {
    const BvhNode& node = binary_.nodes()[b];
    const BvhChild& c = node.child[s];
    if (c.index < 0) return;
    if (c.count == 0 && plan_[c.index].split[k] != 0) {
      openInto(c.index, k, slots, n);
      return;
    }
    Slot slot{{node.minX[s], node.minY[s], node.minZ[s]},
              {node.maxX[s], node.maxY[s], node.maxZ[s]},
              c.index,
              c.count};
    if (c.count == 0 && ranges_[c.index].count <= 4) {  // a small subtree: one leaf block
      slot.count = ranges_[c.index].count;
      slot.index = static_cast<std::int32_t>(ranges_[c.index].first);
    }
    slots[n++] = slot;
  }
  /// Appends the slots of binary node b opened into at most k slots.
  void openInto(std::int32_t b, int k, Slot* slots, int& n) const {
    std::int8_t split = 0;
    openCost(b, k, split);
    if (binary_.nodes()[b].child[1].index < 0) {
      slotInto(b, 0, k, slots, n);
      return;
    }
    slotInto(b, 0, split, slots, n);
    slotInto(b, 1, k - split, slots, n);
  }

  std::uint32_t addLeaf(std::uint32_t first, std::uint32_t count) {
    LeafBlock b{};
    b.first = first;
    const auto& order = binary_.order();
    for (std::uint32_t j = 0; j < 4; ++j) {
      // Unused lanes repeat lane 0's corner with zero edges: det = 0, never a hit.
      const LeafTriangle& t = binary_.triangles()[first + (j < count ? j : 0)];
      const Vec3 e1 = j < count ? t.e1 : Vec3(0.0f), e2 = j < count ? t.e2 : Vec3(0.0f);
      b.ax[j] = t.a.x, b.ay[j] = t.a.y, b.az[j] = t.a.z;
      b.e1x[j] = e1.x, b.e1y[j] = e1.y, b.e1z[j] = e1.z;
      b.e2x[j] = e2.x, b.e2y[j] = e2.y, b.e2z[j] = e2.z;
      b.triangle[j] = j < count ? order[first + j] : ~0u;
    }
    leaves_.push_back(b);
    return static_cast<std::uint32_t>(leaves_.size() - 1);
  }

  const TriBvh& binary_;
  HugePageVector<WideNode>& out_;
  HugePageVector<LeafBlock>& leaves_;
  std::vector<Range> ranges_;
  std::vector<float> area_;  // surface area of each binary node's box (m^2)
  std::vector<Plan> plan_;
};

/// Moller-Trumbore on four triangles at once: exactly the operations, in the same order, of
/// intersectRayTriangle (triangle_geometry.h), so each lane's parameter has the same bits.
/// Returns the lane mask of hits with 0 <= s <= best, and the parameters in `s`.
int intersectLeaf(const LeafBlock& b, const __m128 o[3], const __m128 d[3], float best,
                  float s[4]) {
  const __m128 e1x = _mm_load_ps(b.e1x), e1y = _mm_load_ps(b.e1y), e1z = _mm_load_ps(b.e1z);
  const __m128 e2x = _mm_load_ps(b.e2x), e2y = _mm_load_ps(b.e2y), e2z = _mm_load_ps(b.e2z);
  // pvec = cross(dir, e2)
  const __m128 px = _mm_sub_ps(_mm_mul_ps(d[1], e2z), _mm_mul_ps(e2y, d[2]));
  const __m128 py = _mm_sub_ps(_mm_mul_ps(d[2], e2x), _mm_mul_ps(e2z, d[0]));
  const __m128 pz = _mm_sub_ps(_mm_mul_ps(d[0], e2y), _mm_mul_ps(e2x, d[1]));
  const __m128 det =
      _mm_add_ps(_mm_add_ps(_mm_mul_ps(e1x, px), _mm_mul_ps(e1y, py)), _mm_mul_ps(e1z, pz));
  const __m128 absDet = _mm_andnot_ps(_mm_set1_ps(-0.0f), det);
  __m128 ok = _mm_cmpge_ps(absDet, _mm_set1_ps(1e-20f));
  if (_mm_movemask_ps(ok) == 0) return 0;
  const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), det);
  const __m128 tx = _mm_sub_ps(o[0], _mm_load_ps(b.ax)), ty = _mm_sub_ps(o[1], _mm_load_ps(b.ay));
  const __m128 tz = _mm_sub_ps(o[2], _mm_load_ps(b.az));
  const __m128 u = _mm_mul_ps(
      _mm_add_ps(_mm_add_ps(_mm_mul_ps(tx, px), _mm_mul_ps(ty, py)), _mm_mul_ps(tz, pz)), inv);
  const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
  // Scalar rejects u < 0 || u > 1; !(u < 0) && !(u > 1) lets a NaN through there too.
  ok = _mm_and_ps(ok, _mm_andnot_ps(_mm_or_ps(_mm_cmplt_ps(u, zero), _mm_cmpgt_ps(u, one)),
                                    _mm_castsi128_ps(_mm_set1_epi32(-1))));
  if (_mm_movemask_ps(ok) == 0) return 0;
  // qvec = cross(tvec, e1)
  const __m128 qx = _mm_sub_ps(_mm_mul_ps(ty, e1z), _mm_mul_ps(e1y, tz));
  const __m128 qy = _mm_sub_ps(_mm_mul_ps(tz, e1x), _mm_mul_ps(e1z, tx));
  const __m128 qz = _mm_sub_ps(_mm_mul_ps(tx, e1y), _mm_mul_ps(e1x, ty));
  const __m128 v = _mm_mul_ps(
      _mm_add_ps(_mm_add_ps(_mm_mul_ps(d[0], qx), _mm_mul_ps(d[1], qy)), _mm_mul_ps(d[2], qz)),
      inv);
  ok = _mm_and_ps(
      ok, _mm_andnot_ps(_mm_or_ps(_mm_cmplt_ps(v, zero), _mm_cmpgt_ps(_mm_add_ps(u, v), one)),
                        _mm_castsi128_ps(_mm_set1_epi32(-1))));
  const __m128 t = _mm_mul_ps(
      _mm_add_ps(_mm_add_ps(_mm_mul_ps(e2x, qx), _mm_mul_ps(e2y, qy)), _mm_mul_ps(e2z, qz)), inv);
  // The caller keeps s >= 0 && s <= best.
  ok = _mm_and_ps(ok, _mm_and_ps(_mm_cmpge_ps(t, zero), _mm_cmple_ps(t, _mm_set1_ps(best))));
  _mm_storeu_ps(s, t);
  return _mm_movemask_ps(ok);
}

/// Relative slack of the box tests (-): far above the few ulps by which a slab parameter and
/// the triangle test's distance can round apart, far below a box's size. Only culling is
/// loosened; which triangle wins is still decided by the exact test and the tie rule.
constexpr float kRobust = 1.0f + 0x1p-16f;

struct Pending {
  std::uint32_t child;  // node index, or first leaf triangle
  std::uint32_t count;  // 0: inner node
  float entry;          // ray parameter where the box is entered (m)
};

}  // namespace

void RayBvhWide::build(const TriBvh& binary) {
  nodes_.clear();
  leaves_.clear();
  depth_ = 0;
  if (binary.nodes().empty()) return;
  Collapser collapser(binary, nodes_, leaves_);
  collapser.emit(0, 1);
  depth_ = collapser.depth;
  // Exact-size buffers: large ones land whole on huge pages (tri_huge_pages.h).
  nodes_.shrink_to_fit(), leaves_.shrink_to_fit();
}

bool RayBvhWide::raycast(Vec3 origin, Vec3 dir, float maxDistance, RayBvhHit& hit) const {
  if (nodes_.empty()) return false;
  // 1/0 = +-inf is what the slab test wants. Per axis the near plane is the box's min for a
  // positive direction and its max for a negative one, so tNear <= tFar holds for every box
  // the ray crosses and an empty slot (inverted box) is always rejected. 0 * inf = NaN (origin
  // on a plane of an axis the ray runs parallel to) is dropped by max/min, which return their
  // second operand when one is NaN: that axis then does not clip (conservative).
  const float inv[3] = {1.0f / dir.x, 1.0f / dir.y, 1.0f / dir.z};
  const __m128 invX = _mm_set1_ps(inv[0]), invY = _mm_set1_ps(inv[1]), invZ = _mm_set1_ps(inv[2]);
  const __m128 oX = _mm_set1_ps(origin.x), oY = _mm_set1_ps(origin.y), oZ = _mm_set1_ps(origin.z);
  const bool negX = std::signbit(inv[0]), negY = std::signbit(inv[1]), negZ = std::signbit(inv[2]);
  const __m128 zero = _mm_setzero_ps();
  const __m128 inf = _mm_set1_ps(std::numeric_limits<float>::infinity());
  const __m128 robust = _mm_set1_ps(kRobust);
  const __m128 o4[3] = {oX, oY, oZ};
  const __m128 d4[3] = {_mm_set1_ps(dir.x), _mm_set1_ps(dir.y), _mm_set1_ps(dir.z)};

  float best = maxDistance;
  bool found = false;
  std::uint32_t bestBlock = 0, bestLane = 0, bestTriangle = 0;
  Pending stack[(kWidth - 1) * kMaxDepth + 4];
  int sp = 0;
  stack[sp++] = {0, 0, 0.0f};
  while (sp > 0) {
    const Pending e = stack[--sp];
    if (!(e.entry <= best * kRobust)) continue;
    if (e.count > 0) {
      const LeafBlock& block = leaves_[e.child];
      float s[4];
      int lanes = intersectLeaf(block, o4, d4, best, s);
      while (lanes != 0) {
        const int j = __builtin_ctz(static_cast<unsigned>(lanes));
        lanes &= lanes - 1;
        if (s[j] > best) continue;  // an earlier lane of this leaf came nearer
        if (s[j] < best || !found || block.triangle[j] < bestTriangle) {
          best = s[j], found = true;
          bestBlock = e.child, bestLane = static_cast<std::uint32_t>(j),
          bestTriangle = block.triangle[j];
        }
      }
      continue;
    }
    const WideNode& node = nodes_[e.child];
    int mask = 0;
    alignas(16) float entry[kWidth];
    for (int g = 0; g < kWidth; g += 4) {
      const __m128 nearX = _mm_load_ps((negX ? node.maxX : node.minX) + g),
                   farX = _mm_load_ps((negX ? node.minX : node.maxX) + g);
      const __m128 nearY = _mm_load_ps((negY ? node.maxY : node.minY) + g),
                   farY = _mm_load_ps((negY ? node.minY : node.maxY) + g);
      const __m128 nearZ = _mm_load_ps((negZ ? node.maxZ : node.minZ) + g),
                   farZ = _mm_load_ps((negZ ? node.minZ : node.maxZ) + g);
      const __m128 tx0 = _mm_mul_ps(_mm_sub_ps(nearX, oX), invX),
                   tx1 = _mm_mul_ps(_mm_sub_ps(farX, oX), invX);
      const __m128 ty0 = _mm_mul_ps(_mm_sub_ps(nearY, oY), invY),
                   ty1 = _mm_mul_ps(_mm_sub_ps(farY, oY), invY);
      const __m128 tz0 = _mm_mul_ps(_mm_sub_ps(nearZ, oZ), invZ),
                   tz1 = _mm_mul_ps(_mm_sub_ps(farZ, oZ), invZ);
      const __m128 tNear = _mm_max_ps(tz0, _mm_max_ps(ty0, _mm_max_ps(tx0, zero)));
      // The exit is pushed out by kRobust: the rounded slab parameters could otherwise put a
      // box's exit just before its entry, or its entry just past the best hit, for a ray
      // through a vertex or an edge on the box's face, and cull a triangle (or a tie) that the
      // exact test hits (cf. Ize, "Robust BVH ray traversal", 2013).
      __m128 exit = _mm_min_ps(tx1, inf);  // min(NaN, x) is x: a NaN axis does not clip
      exit = _mm_min_ps(tz1, _mm_min_ps(ty1, exit));
      const __m128 tFar = _mm_min_ps(_mm_mul_ps(exit, robust), _mm_set1_ps(best * kRobust));
      mask |= _mm_movemask_ps(_mm_cmple_ps(tNear, tFar)) << g;
      _mm_store_ps(entry + g, tNear);
    }
    if (mask == 0) continue;
    // Hit children sorted far to near, so the nearest is popped first.
    Pending hits[kWidth];
    int n = 0;
    while (mask != 0) {
      const int k = __builtin_ctz(static_cast<unsigned>(mask));
      mask &= mask - 1;
      Pending p{node.child[k], node.count[k], entry[k]};
      int j = n++;
      while (j > 0 && hits[j - 1].entry < p.entry) hits[j] = hits[j - 1], --j;
      hits[j] = p;
    }
    // The walk is bound by memory latency: start fetching every child now, so the loads
    // overlap with this node's remaining work and the siblings' tests.
    for (int j = 0; j < n; ++j) {
      const char* at = hits[j].count > 0 ? reinterpret_cast<const char*>(&leaves_[hits[j].child])
                                         : reinterpret_cast<const char*>(&nodes_[hits[j].child]);
      const int lines =
          hits[j].count > 0 ? int(sizeof(LeafBlock) / 64) : int(sizeof(WideNode) / 64);
      for (int l = 0; l < lines; ++l) _mm_prefetch(at + 64 * l, _MM_HINT_T0);
      stack[sp++] = hits[j];
    }
  }
  if (!found) return false;
  const LeafBlock& b = leaves_[bestBlock];
  const std::uint32_t j = bestLane;
  hit.distance = best;
  hit.leaf = b.first + j;
  hit.triangle = bestTriangle;
  hit.e1 = Vec3(b.e1x[j], b.e1y[j], b.e1z[j]);
  hit.e2 = Vec3(b.e2x[j], b.e2y[j], b.e2z[j]);
  return true;
}

}  // namespace floptle::physics::mesh
