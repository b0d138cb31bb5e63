// TriBvh::build: binned SAH (12 bins per axis, all three axes), leaves of at most 4 triangles.
#include "mesh/tri_bvh.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace floptle::physics::mesh {
namespace {

constexpr int kBins = 12;
constexpr std::uint32_t kMaxLeaf = 4;
constexpr float kTraversalCost = 1.0f;  // relative to one triangle test (-)

struct Ref {
  Aabb box;
  Vec3 centroid;
};

struct TempNode {
  Aabb box;
  int left = -1, right = -1;  // children in temp nodes, or -1 for a leaf
  std::uint32_t first = 0, count = 0;
};

class Builder {
 public:
  Builder(std::vector<Ref>& refs, HugePageVector<std::uint32_t>& order)
      : refs_(refs), order_(order) {}
  std::vector<TempNode> nodes;

  int build(std::uint32_t begin, std::uint32_t end) {
    TempNode node;
    Aabb centroids;
    for (std::uint32_t i = begin; i < end; ++i) {
      node.box.expand(refs_[order_[i]].box);
      centroids.expand(refs_[order_[i]].centroid);
    }
    const std::uint32_t count = end - begin;
    const int id = static_cast<int>(nodes.size());
    nodes.push_back(node);
    int bestAxis = -1, bestSplit = 0;
    float bestCost = static_cast<float>(count);  // cost of a leaf
    const Vec3 extent = centroids.max - centroids.min;
    if (count > 1) {
      for (int axis = 0; axis < 3; ++axis) {
        if (!(extent[axis] > 0.0f)) continue;
        Aabb binBox[kBins];
        std::uint32_t binCount[kBins] = {};
        const float scale = kBins / extent[axis];
        for (std::uint32_t i = begin; i < end; ++i) {
          const Ref& r = refs_[order_[i]];
          const int b = std::min(
              kBins - 1, static_cast<int>((r.centroid[axis] - centroids.min[axis]) * scale));
          binBox[b].expand(r.box);
          ++binCount[b];
        }
        float rightArea[kBins];
        std::uint32_t rightCount[kBins];
        Aabb acc;
        std::uint32_t n = 0;
        for (int b = kBins - 1; b > 0; --b) {
          acc.expand(binBox[b]);
          n += binCount[b];
          rightArea[b] = acc.surfaceArea();
          rightCount[b] = n;
        }
        acc = Aabb{};
        n = 0;
        const float invArea = 1.0f / std::max(node.box.surfaceArea(), 1e-30f);
        for (int b = 1; b < kBins; ++b) {
          acc.expand(binBox[b - 1]);
          n += binCount[b - 1];
          if (n == 0 || rightCount[b] == 0) continue;
          const float cost =
              kTraversalCost + (acc.surfaceArea() * n + rightArea[b] * rightCount[b]) * invArea;
          if (cost < bestCost) bestCost = cost, bestAxis = axis, bestSplit = b;
        }
      }
    }
    if (bestAxis < 0 && count > kMaxLeaf) {
      // No profitable split but too many for a leaf: median split on the widest axis.
      const int axis =
          extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
      const std::uint32_t mid = begin + count / 2;
      std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                       [&](std::uint32_t a, std::uint32_t b) {
                         return refs_[a].centroid[axis] < refs_[b].centroid[axis] ||
                                (refs_[a].centroid[axis] == refs_[b].centroid[axis] && a < b);
                       });
      return finishInner(id, begin, mid, end);
    }
    if (bestAxis < 0) {
      nodes[id].first = begin, nodes[id].count = count;
      return id;
    }
    const float scale = kBins / extent[bestAxis];
    auto* split = std::partition(order_.data() + begin, order_.data() + end, [&](std::uint32_t i) {
      const int b = std::min(
          kBins - 1,
          static_cast<int>((refs_[i].centroid[bestAxis] - centroids.min[bestAxis]) * scale));
      return b < bestSplit;
    });
    return finishInner(id, begin, static_cast<std::uint32_t>(split - order_.data()), end);
  }

 private:
  int finishInner(int id, std::uint32_t begin, std::uint32_t mid, std::uint32_t end) {
    const int left = build(begin, mid);
    const int right = build(mid, end);
    nodes[id].left = left, nodes[id].right = right;
    return id;
  }
  std::vector<Ref>& refs_;
  HugePageVector<std::uint32_t>& order_;
};

}  // namespace

void TriBvh::build(std::span<const std::array<Vec3, 3>> triangles) {
  const auto n = static_cast<std::uint32_t>(triangles.size());
  std::vector<Ref> refs(n);
  order_.resize(n);
  std::iota(order_.begin(), order_.end(), 0u);
  bounds_ = Aabb{};
  for (std::uint32_t i = 0; i < n; ++i) {
    Aabb box;
    for (const Vec3& v : triangles[i]) box.expand(v);
    refs[i] = {box, (triangles[i][0] + triangles[i][1] + triangles[i][2]) / 3.0f};
    bounds_.expand(box);
  }
  nodes_.clear(), moments_.clear(), tris_.clear();
  if (n == 0) return;
  Builder builder(refs, order_);
  builder.build(0, n);
  const std::vector<TempNode>& temp = builder.nodes;

  tris_.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& t = triangles[order_[i]];
    tris_[i] = {t[0], t[1] - t[0], t[2] - t[0]};
  }

  // Flatten: each inner temp node becomes one BvhNode holding its two children. A root that
  // is a leaf becomes a node with one leaf child.
  struct Sums {
    Vec3 areaNormal{0.0f}, weightedCentroid{0.0f};
    float area = 0.0f;
  };
  auto leafSums = [&](const TempNode& t) {
    Sums s;
    for (std::uint32_t i = t.first; i < t.first + t.count; ++i) {
      const LeafTriangle& tri = tris_[i];
      const Vec3 an = 0.5f * glm::cross(tri.e1, tri.e2);
      const float area = glm::length(an);
      s.areaNormal += an;
      s.weightedCentroid += area * (tri.a + (tri.e1 + tri.e2) / 3.0f);
      s.area += area;
    }
    return s;
  };
  // Recursive flatten returning the subtree sums.
  struct Flattener {
    TriBvh& bvh;
    const std::vector<TempNode>& temp;
    decltype(leafSums)& leafOf;
    Sums fill(BvhNode& node, BvhMoments& m, int slot, int tempIndex) {
      const TempNode& t = temp[tempIndex];
      node.minX[slot] = t.box.min.x, node.minY[slot] = t.box.min.y, node.minZ[slot] = t.box.min.z;
      node.maxX[slot] = t.box.max.x, node.maxY[slot] = t.box.max.y, node.maxZ[slot] = t.box.max.z;
      Sums s;
      if (t.left < 0) {
        node.child[slot] = {static_cast<std::int32_t>(t.first), t.count};
        s = leafOf(t);
      } else {
        const int index = static_cast<int>(bvh.nodes_.size());
        node.child[slot] = {index, 0};
        s = emit(tempIndex);
      }
      m.areaNormal[slot] = s.areaNormal;
      m.centre[slot] = s.area > 0.0f ? s.weightedCentroid / s.area : t.box.center();
      const Vec3 far =
          glm::max(glm::abs(t.box.min - m.centre[slot]), glm::abs(t.box.max - m.centre[slot]));
      m.radius[slot] = glm::length(far);
      return s;
    }
    Sums emit(int tempIndex) {
      const int index = static_cast<int>(bvh.nodes_.size());
      bvh.nodes_.emplace_back();
      bvh.moments_.emplace_back();
      const TempNode& t = temp[tempIndex];
      BvhNode node{};
      BvhMoments m{};
      node.child[1] = {-1, 0};
      // Empty slot 1 keeps an inverted box so slab and distance tests reject it.
      node.minX[1] = node.minY[1] = node.minZ[1] = std::numeric_limits<float>::max();
      node.maxX[1] = node.maxY[1] = node.maxZ[1] = -std::numeric_limits<float>::max();
      Sums total;
      if (t.left < 0) {
        total = fill(node, m, 0, tempIndex);
      } else {
        const Sums a = fill(node, m, 0, t.left);
        const Sums b = fill(node, m, 1, t.right);
        total.areaNormal = a.areaNormal + b.areaNormal;
        total.weightedCentroid = a.weightedCentroid + b.weightedCentroid;
        total.area = a.area + b.area;
      }
      bvh.nodes_[index] = node;
      bvh.moments_[index] = m;
      return total;
    }
  };
  Flattener flattener{*this, temp, leafSums};
  // A root leaf becomes the single child of node 0; an inner root's children fill node 0.
  flattener.emit(0);
  // Exact-size buffers: large ones land whole on huge pages (tri_huge_pages.h).
  nodes_.shrink_to_fit(), moments_.shrink_to_fit();
}

}  // namespace floptle::physics::mesh
