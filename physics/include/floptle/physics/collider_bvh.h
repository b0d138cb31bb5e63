#pragma once
// ColliderBvh: the broadphase of the collision world, a dynamic binary AABB tree over
// collider boxes (the layout of Box2D's b2DynamicTree: nodes in one array, parent links, a
// free list).
//
//  - insert / remove are O(log n): a leaf goes next to the sibling of least surface-area
//    cost (SAH: the area the new parent adds, plus what every ancestor grows by), and the
//    path back to the root is rebalanced by AVL rotations, so the height stays O(log n)
//    whatever the order of inserts and removes.
//  - build() replaces the tree by a top-down binned SAH build over all items, O(n log n):
//    the tree for a world loaded at once.
//  - refit() re-reads every leaf box and recomputes the inner boxes (topology unchanged);
//    setLeafBox() does it for one leaf and its ancestors.
//
// Leaf boxes are the items' own boxes, not fattened: a query that reads a leaf's box (the
// ray entry of a cast) gets the same numbers as a scan of the items. The shape of the tree
// depends on the history of inserts and removes; which items a traversal visits does not,
// and its order never depends on pointers. Callers that pick a best item break ties by item.
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "floptle/core/math.h"
#include "floptle/core/vec_divide.h"

namespace floptle::physics {

class ColliderBvh {
 public:
  /// A leaf's handle: its node index (stable until the leaf is removed or the tree rebuilt).
  using Leaf = std::int32_t;
  static constexpr Leaf kNoLeaf = -1;

  /// Replaces the tree by a binned SAH build over items[i] with box boxes[i]; leaves[i]
  /// receives item i's leaf. Empty boxes are kept as unreachable leaves.
  void build(std::span<const std::uint32_t> items, std::span<const Aabb> boxes,
             std::span<Leaf> leaves);
  /// Adds `item` with `box`; returns its leaf.
  Leaf insert(std::uint32_t item, const Aabb& box);
  /// Removes a leaf returned by insert or build.
  void remove(Leaf leaf);
  /// Refits every node to boxesByItem[item] of its leaves (topology unchanged).
  void refit(std::span<const Aabb> boxesByItem);
  /// A new box for one leaf; its ancestors grow or shrink to fit.
  void setLeafBox(Leaf leaf, const Aabb& box);
  void clear();

  std::size_t itemCount() const { return itemCount_; }
  bool empty() const { return root_ < 0; }
  /// Longest root-to-leaf path in edges (0 for one leaf, -1 when empty).
  int height() const { return root_ < 0 ? -1 : nodes_[static_cast<std::size_t>(root_)].height; }
  /// Checks the parent links, heights and boxes (tests).
  bool valid() const;

  /// Calls visit(item) for every item whose box overlaps `box`, in tree order.
  template <class Visit>
  void forEachOverlapping(const Aabb& box, Visit&& visit) const;

  /// Calls visit(item, tEnter, tExit) for every item whose box the ray meets within
  /// [0, maxDistance()] where maxDistance() is re-read after each visit, so a visitor that
  /// found a nearer hit prunes the rest. `inflate` grows every box (m), for sphere casts.
  /// Children are visited nearer-entry first.
  template <class MaxDistance, class Visit>
  void forEachOnRay(const Ray& ray, float inflate, MaxDistance&& maxDistance, Visit&& visit) const;

  /// Calls visit(item, boxDistance) for items whose box lies within bound() of p, where
  /// bound() is re-read after each visit (best-first pruning for closest-point queries).
  template <class Bound, class Visit>
  void forEachNear(Vec3 p, Bound&& bound, Visit&& visit) const;

  /// Slab test of a ray (origin, per-axis inverse direction) against a box within
  /// [0, maxT]; entry and exit (m). Axis-parallel rays give +-inf products that the min/max
  /// handle; a NaN from 0 * inf (origin exactly on a slab plane) is tested explicitly.
  static bool rayBox(const Aabb& b, Vec3 origin, Vec3 invDir, float maxT, float& tEnter,
                     float& tExit);

 private:
  /// Traversal stack depth: the AVL balance of inserts and removes, and the median splits
  /// the build falls back to below kSahDepth, keep every path far shorter.
  static constexpr int kStackSize = 128;
  struct Node {
    Aabb box;
    /// Leaf: item index, second = -1. Inner: the two child node indices.
    std::int32_t first = -1;
    std::int32_t second = -1;
    std::int32_t parent = -1;  ///< -1 at the root; next free node while on the free list
    std::int32_t height = 0;   ///< 0 for a leaf
    bool leaf() const { return second < 0; }
  };
  std::int32_t allocateNode();
  void freeNode(std::int32_t node);
  void insertLeaf(std::int32_t leaf);
  void removeLeaf(std::int32_t leaf);
  /// AVL rotation at `node` when its children's heights differ by more than one; returns
  /// the node now in its place.
  std::int32_t balance(std::int32_t node);
  /// Recomputes box and height of every node from `node` up to the root, rebalancing.
  void fixUpwards(std::int32_t node);
  struct BuildItem;
  std::int32_t buildRange(std::span<BuildItem> items, int depth, std::span<Leaf> leaves);
  void refitNode(std::int32_t node, std::span<const Aabb> boxes);
  Node& node(std::int32_t i) { return nodes_[static_cast<std::size_t>(i)]; }
  const Node& node(std::int32_t i) const { return nodes_[static_cast<std::size_t>(i)]; }

  std::vector<Node> nodes_;
  std::int32_t root_ = -1;
  std::int32_t freeList_ = -1;
  std::size_t itemCount_ = 0;
};

// ---- traversal (templates, in the header so visitors inline) -----------------------------

[[gnu::always_inline]] inline bool ColliderBvh::rayBox(const Aabb& b, Vec3 origin, Vec3 invDir,
                                                       float maxT, float& tEnter, float& tExit) {
  if (b.empty()) return false;
  float t0 = 0.0f, t1 = maxT;
  for (int axis = 0; axis < 3; ++axis) {
    float a = (b.min[axis] - origin[axis]) * invDir[axis];
    float c = (b.max[axis] - origin[axis]) * invDir[axis];
    if (a != a || c != c) {  // parallel ray on the boundary plane: inside iff within slab
      if (origin[axis] < b.min[axis] || origin[axis] > b.max[axis]) return false;
      continue;
    }
    if (a > c) std::swap(a, c);
    t0 = a > t0 ? a : t0;
    t1 = c < t1 ? c : t1;
    if (t0 > t1) return false;
  }
  tEnter = t0;
  tExit = t1;
  return true;
}

template <class Visit>
void ColliderBvh::forEachOverlapping(const Aabb& box, Visit&& visit) const {
  if (root_ < 0) return;
  std::int32_t stack[kStackSize];
  int top = 0;
  stack[top++] = root_;
  while (top > 0) {
    const Node& n = nodes_[static_cast<std::size_t>(stack[--top])];
    if (!n.box.overlaps(box)) continue;
    if (n.leaf()) {
      visit(static_cast<std::uint32_t>(n.first));
    } else {
      assert(top + 2 <= kStackSize);
      stack[top++] = n.second;
      stack[top++] = n.first;
    }
  }
}

template <class MaxDistance, class Visit>
void ColliderBvh::forEachOnRay(const Ray& ray, float inflate, MaxDistance&& maxDistance,
                               Visit&& visit) const {
  if (root_ < 0) return;
  const Vec3 invDir = reciprocal(ray.direction);
  // Each node's box is tested once, by its parent (the root by itself), and the entry and
  // exit kept: a leaf is visited with them, its exit clipped to the current maxDistance(),
  // which is what testing it again against that smaller bound would give.
  struct Entry {
    std::int32_t node;
    float tEnter, tExit;
  };
  Entry stack[kStackSize];
  int top = 0;
  float e0, x0;
  const Node& root = node(root_);
  if (!rayBox(root.box.inflated(inflate), ray.origin, invDir, maxDistance(), e0, x0)) return;
  if (root.leaf()) {  // a world of one collider: no stack
    visit(static_cast<std::uint32_t>(root.first), e0, std::min(x0, maxDistance()));
    return;
  }
  stack[top++] = {root_, e0, x0};
  while (top > 0) {
    const Entry e = stack[--top];
    const float maxT = maxDistance();
    if (e.tEnter > maxT) continue;
    const Node& n = nodes_[static_cast<std::size_t>(e.node)];
    if (n.leaf()) {
      visit(static_cast<std::uint32_t>(n.first), e.tEnter, std::min(e.tExit, maxT));
      continue;
    }
    float ea = 0.0f, xa = 0.0f, eb = 0.0f, xb = 0.0f;
    bool hitA = rayBox(nodes_[static_cast<std::size_t>(n.first)].box.inflated(inflate), ray.origin,
                       invDir, maxT, ea, xa);
    bool hitB = rayBox(nodes_[static_cast<std::size_t>(n.second)].box.inflated(inflate), ray.origin,
                       invDir, maxT, eb, xb);
    // Push the farther child first so the nearer one is visited first; equal entries keep
    // the tree order (first child first).
    assert(top + 2 <= kStackSize);
    if (hitA && hitB) {
      if (eb < ea) {
        stack[top++] = {n.first, ea, xa};
        stack[top++] = {n.second, eb, xb};
      } else {
        stack[top++] = {n.second, eb, xb};
        stack[top++] = {n.first, ea, xa};
      }
    } else if (hitA) {
      stack[top++] = {n.first, ea, xa};
    } else if (hitB) {
      stack[top++] = {n.second, eb, xb};
    }
  }
}

template <class Bound, class Visit>
void ColliderBvh::forEachNear(Vec3 p, Bound&& bound, Visit&& visit) const {
  if (root_ < 0) return;
  struct Entry {
    std::int32_t node;
    float distance;
  };
  Entry stack[kStackSize];
  int top = 0;
  stack[top++] = {root_, node(root_).box.distance(p)};
  while (top > 0) {
    Entry e = stack[--top];
    if (e.distance > bound()) continue;
    const Node& n = nodes_[static_cast<std::size_t>(e.node)];
    if (n.leaf()) {
      visit(static_cast<std::uint32_t>(n.first), e.distance);
      continue;
    }
    assert(top + 2 <= kStackSize);
    float da = nodes_[static_cast<std::size_t>(n.first)].box.distance(p);
    float db = nodes_[static_cast<std::size_t>(n.second)].box.distance(p);
    if (db < da) {
      stack[top++] = {n.first, da};
      stack[top++] = {n.second, db};
    } else {
      stack[top++] = {n.second, db};
      stack[top++] = {n.first, da};
    }
  }
}

}  // namespace floptle::physics
