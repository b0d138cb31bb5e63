// RayBvh4: collapse of the binary SAH tree into four-wide nodes, and the ray traversal over it
// (SSE slab test of four boxes at once, nearest child first, pruning by the best hit so far).
#include "mesh/tri_ray_bvh4.h"

#include <emmintrin.h>
#include <xmmintrin.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "mesh/triangle_geometry.h"

namespace floptle::physics::mesh {
namespace {

/// One child of a binary node: its box and what it points at (index < 0: empty).
struct Slot {
  float min[3], max[3];
  std::int32_t index;
  std::uint32_t count;
  float area() const {
    const float dx = max[0] - min[0], dy = max[1] - min[1], dz = max[2] - min[2];
    return dx * dy + dy * dz + dz * dx;
  }
};

/// Leaf-order triangles [first, first + count) under one binary node (a subtree's leaves are
/// contiguous: the builder partitions the order in place).
struct Range {
  std::uint32_t first = 0, count = 0;
};

class Collapser {
 public:
  Collapser(const TriBvh& binary, std::vector<Bvh4Node>& out, std::vector<LeafBlock>& leaves)
      : binary_(binary), out_(out), leaves_(leaves), ranges_(binary.nodes().size()) {
    rangeOf(0);
  }
  int depth = 0;

  /// Emits the four-wide node covering binary node `b` and, depth first, its inner children.
  std::uint32_t emit(std::int32_t b, int level) {
    depth = std::max(depth, level);
    const auto& nodes = binary_.nodes();
    Slot slots[4];
    int n = 0;
    for (int s = 0; s < 2; ++s)
      if (nodes[b].child[s].index >= 0) slots[n++] = slotOf(nodes[b], s);
    // Open the largest inner slot until four slots are filled (or only leaves remain).
    while (n < 4) {
      int pick = -1;
      for (int k = 0; k < n; ++k)
        if (slots[k].count == 0 && (pick < 0 || slots[k].area() > slots[pick].area())) pick = k;
      if (pick < 0) break;
      const BvhNode& inner = nodes[slots[pick].index];
      Slot kids[2];
      int m = 0;
      for (int s = 0; s < 2; ++s)
        if (inner.child[s].index >= 0) kids[m++] = slotOf(inner, s);
      slots[pick] = kids[0];
      if (m == 2) slots[n++] = kids[1];
    }
    const auto id = static_cast<std::uint32_t>(out_.size());
    out_.emplace_back();
    Bvh4Node node{};
    constexpr float kBig = std::numeric_limits<float>::max();
    for (int k = 0; k < 4; ++k) {
      node.minX[k] = node.minY[k] = node.minZ[k] = kBig;
      node.maxX[k] = node.maxY[k] = node.maxZ[k] = -kBig;
      node.child[k] = 0;
      node.count[k] = 0;
    }
    for (int k = 0; k < n; ++k) {
      node.minX[k] = slots[k].min[0], node.minY[k] = slots[k].min[1], node.minZ[k] = slots[k].min[2];
      node.maxX[k] = slots[k].max[0], node.maxY[k] = slots[k].max[1], node.maxZ[k] = slots[k].max[2];
      node.count[k] = slots[k].count;
      node.child[k] = slots[k].count > 0 ? addLeaf(static_cast<std::uint32_t>(slots[k].index), slots[k].count) : 0u;
    }
    for (int k = 0; k < n; ++k)
      if (slots[k].count == 0) node.child[k] = emit(slots[k].index, level + 1);
    out_[id] = node;
    return id;
  }

 private:
  Range rangeOf(std::int32_t b) {
    Range r{~0u, 0};
    for (const BvhChild& c : binary_.nodes()[b].child) {
      if (c.index < 0) continue;
      const Range part = c.count > 0 ? Range{static_cast<std::uint32_t>(c.index), c.count} : rangeOf(c.index);
      r.first = std::min(r.first, part.first);
      r.count += part.count;
    }
    ranges_[b] = r;
    return r;
  }

  /// A child slot; an inner child holding at most four triangles becomes one leaf (one SIMD
  /// test answers it, cheaper than visiting its nodes).
  Slot slotOf(const BvhNode& n, int s) const {
    Slot slot{{n.minX[s], n.minY[s], n.minZ[s]}, {n.maxX[s], n.maxY[s], n.maxZ[s]}, n.child[s].index, n.child[s].count};
    if (slot.index >= 0 && slot.count == 0 && ranges_[slot.index].count <= 4) {
      slot.count = ranges_[slot.index].count;
      slot.index = static_cast<std::int32_t>(ranges_[slot.index].first);
    }
    return slot;
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
  std::vector<Bvh4Node>& out_;
  std::vector<LeafBlock>& leaves_;
  std::vector<Range> ranges_;
};

/// Moller-Trumbore on four triangles at once: exactly the operations, in the same order, of
/// intersectRayTriangle (triangle_geometry.h), so each lane's parameter has the same bits.
/// Returns the lane mask of hits with 0 <= s <= best, and the parameters in `s`.
int intersectLeaf(const LeafBlock& b, const __m128 o[3], const __m128 d[3], float best, float s[4]) {
  const __m128 e1x = _mm_load_ps(b.e1x), e1y = _mm_load_ps(b.e1y), e1z = _mm_load_ps(b.e1z);
  const __m128 e2x = _mm_load_ps(b.e2x), e2y = _mm_load_ps(b.e2y), e2z = _mm_load_ps(b.e2z);
  // pvec = cross(dir, e2)
  const __m128 px = _mm_sub_ps(_mm_mul_ps(d[1], e2z), _mm_mul_ps(e2y, d[2]));
  const __m128 py = _mm_sub_ps(_mm_mul_ps(d[2], e2x), _mm_mul_ps(e2z, d[0]));
  const __m128 pz = _mm_sub_ps(_mm_mul_ps(d[0], e2y), _mm_mul_ps(e2x, d[1]));
  const __m128 det = _mm_add_ps(_mm_add_ps(_mm_mul_ps(e1x, px), _mm_mul_ps(e1y, py)), _mm_mul_ps(e1z, pz));
  const __m128 absDet = _mm_andnot_ps(_mm_set1_ps(-0.0f), det);
  __m128 ok = _mm_cmpge_ps(absDet, _mm_set1_ps(1e-20f));
  if (_mm_movemask_ps(ok) == 0) return 0;
  const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), det);
  const __m128 tx = _mm_sub_ps(o[0], _mm_load_ps(b.ax)), ty = _mm_sub_ps(o[1], _mm_load_ps(b.ay));
  const __m128 tz = _mm_sub_ps(o[2], _mm_load_ps(b.az));
  const __m128 u = _mm_mul_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(tx, px), _mm_mul_ps(ty, py)), _mm_mul_ps(tz, pz)), inv);
  const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
  // Scalar rejects u < 0 || u > 1; !(u < 0) && !(u > 1) lets a NaN through there too.
  ok = _mm_and_ps(ok, _mm_andnot_ps(_mm_or_ps(_mm_cmplt_ps(u, zero), _mm_cmpgt_ps(u, one)), _mm_castsi128_ps(_mm_set1_epi32(-1))));
  if (_mm_movemask_ps(ok) == 0) return 0;
  // qvec = cross(tvec, e1)
  const __m128 qx = _mm_sub_ps(_mm_mul_ps(ty, e1z), _mm_mul_ps(e1y, tz));
  const __m128 qy = _mm_sub_ps(_mm_mul_ps(tz, e1x), _mm_mul_ps(e1z, tx));
  const __m128 qz = _mm_sub_ps(_mm_mul_ps(tx, e1y), _mm_mul_ps(e1x, ty));
  const __m128 v = _mm_mul_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(d[0], qx), _mm_mul_ps(d[1], qy)), _mm_mul_ps(d[2], qz)), inv);
  ok = _mm_and_ps(ok, _mm_andnot_ps(_mm_or_ps(_mm_cmplt_ps(v, zero), _mm_cmpgt_ps(_mm_add_ps(u, v), one)),
                                    _mm_castsi128_ps(_mm_set1_epi32(-1))));
  const __m128 t = _mm_mul_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(e2x, qx), _mm_mul_ps(e2y, qy)), _mm_mul_ps(e2z, qz)), inv);
  // The caller keeps s >= 0 && s <= best.
  ok = _mm_and_ps(ok, _mm_and_ps(_mm_cmpge_ps(t, zero), _mm_cmple_ps(t, _mm_set1_ps(best))));
  _mm_storeu_ps(s, t);
  return _mm_movemask_ps(ok);
}

struct Pending {
  std::uint32_t child;  // node index, or first leaf triangle
  std::uint32_t count;  // 0: inner node
  float entry;          // ray parameter where the box is entered (m)
};

}  // namespace

void RayBvh4::build(const TriBvh& binary) {
  nodes_.clear();
  leaves_.clear();
  depth_ = 0;
  if (binary.nodes().empty()) return;
  Collapser collapser(binary, nodes_, leaves_);
  collapser.emit(0, 1);
  depth_ = collapser.depth;
}

bool RayBvh4::raycast(Vec3 origin, Vec3 dir, float maxDistance, RayBvhHit& hit) const {
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
  const __m128 o4[3] = {oX, oY, oZ};
  const __m128 d4[3] = {_mm_set1_ps(dir.x), _mm_set1_ps(dir.y), _mm_set1_ps(dir.z)};

  float best = maxDistance;
  bool found = false;
  std::uint32_t bestBlock = 0, bestLane = 0, bestTriangle = 0;
  Pending stack[3 * kMaxDepth + 4];
  int sp = 0;
  stack[sp++] = {0, 0, 0.0f};
  while (sp > 0) {
    const Pending e = stack[--sp];
    if (!(e.entry <= best)) continue;
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
          bestBlock = e.child, bestLane = static_cast<std::uint32_t>(j), bestTriangle = block.triangle[j];
        }
      }
      continue;
    }
    const Bvh4Node& node = nodes_[e.child];
    const __m128 nearX = _mm_load_ps(negX ? node.maxX : node.minX), farX = _mm_load_ps(negX ? node.minX : node.maxX);
    const __m128 nearY = _mm_load_ps(negY ? node.maxY : node.minY), farY = _mm_load_ps(negY ? node.minY : node.maxY);
    const __m128 nearZ = _mm_load_ps(negZ ? node.maxZ : node.minZ), farZ = _mm_load_ps(negZ ? node.minZ : node.maxZ);
    const __m128 tx0 = _mm_mul_ps(_mm_sub_ps(nearX, oX), invX), tx1 = _mm_mul_ps(_mm_sub_ps(farX, oX), invX);
    const __m128 ty0 = _mm_mul_ps(_mm_sub_ps(nearY, oY), invY), ty1 = _mm_mul_ps(_mm_sub_ps(farY, oY), invY);
    const __m128 tz0 = _mm_mul_ps(_mm_sub_ps(nearZ, oZ), invZ), tz1 = _mm_mul_ps(_mm_sub_ps(farZ, oZ), invZ);
    const __m128 tNear = _mm_max_ps(tz0, _mm_max_ps(ty0, _mm_max_ps(tx0, zero)));
    const __m128 tFar = _mm_min_ps(tz1, _mm_min_ps(ty1, _mm_min_ps(tx1, _mm_set1_ps(best))));
    int mask = _mm_movemask_ps(_mm_cmple_ps(tNear, tFar));
    if (mask == 0) continue;
    alignas(16) float entry[4];
    _mm_store_ps(entry, tNear);
    // Hit children sorted far to near, so the nearest is popped first.
    Pending hits[4];
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
      _mm_prefetch(at, _MM_HINT_T0);
      _mm_prefetch(at + 64, _MM_HINT_T0);
      if (hits[j].count > 0) _mm_prefetch(at + 128, _MM_HINT_T0);
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
