#pragma once
// ColliderBvh: the broadphase of the collision world, a binary AABB tree over collider boxes.
// Built once from the boxes (top-down, median split on the longest axis of the centres,
// ties broken by item index, so the tree is a pure function of its input) and refit each
// step: refit() recomputes every node's box bottom-up from new leaf boxes without changing
// the topology. Traversal order is a function of the tree alone (never of pointers), so every
// query that walks it is deterministic.
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "floptle/core/math.h"
#include "floptle/core/vec_divide.h"

namespace floptle::physics {

class ColliderBvh {
 public:
  /// Rebuilds the tree over boxes[i] for item i (empty boxes are kept as unreachable leaves).
  void build(std::span<const Aabb> boxes);
  /// Refits every node to new boxes of the same items (boxes.size() must equal itemCount()).
  void refit(std::span<const Aabb> boxes);
  std::size_t itemCount() const { return itemCount_; }
  bool empty() const { return nodes_.empty(); }

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
  struct Node {
    Aabb box;
    /// Leaf: item index, second = -1. Inner: the two child node indices.
    std::int32_t first = -1;
    std::int32_t second = -1;
    bool leaf() const { return second < 0; }
  };
  std::int32_t buildRange(std::span<const Aabb> boxes, std::vector<std::uint32_t>& items,
                          std::size_t begin, std::size_t end);
  void refitNode(std::int32_t node, std::span<const Aabb> boxes);

  std::vector<Node> nodes_;  ///< nodes_[0] is the root when not empty
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
  if (nodes_.empty()) return;
  std::int32_t stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[static_cast<std::size_t>(stack[--top])];
    if (!n.box.overlaps(box)) continue;
    if (n.leaf()) {
      visit(static_cast<std::uint32_t>(n.first));
    } else {
      stack[top++] = n.second;
      stack[top++] = n.first;
    }
  }
}

template <class MaxDistance, class Visit>
void ColliderBvh::forEachOnRay(const Ray& ray, float inflate, MaxDistance&& maxDistance,
                               Visit&& visit) const {
  if (nodes_.empty()) return;
  const Vec3 invDir = reciprocal(ray.direction);
  // Each node's box is tested once, by its parent (the root by itself), and the entry and
  // exit kept: a leaf is visited with them, its exit clipped to the current maxDistance(),
  // which is what testing it again against that smaller bound would give.
  struct Entry {
    std::int32_t node;
    float tEnter, tExit;
  };
  Entry stack[64];
  int top = 0;
  float e0, x0;
  const Node& root = nodes_[0];
  if (!rayBox(root.box.inflated(inflate), ray.origin, invDir, maxDistance(), e0, x0)) return;
  if (root.leaf()) {  // a world of one collider: no stack
    visit(static_cast<std::uint32_t>(root.first), e0, std::min(x0, maxDistance()));
    return;
  }
  stack[top++] = {0, e0, x0};
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
    bool hitA = rayBox(nodes_[static_cast<std::size_t>(n.first)].box.inflated(inflate),
                             ray.origin, invDir, maxT, ea, xa);
    bool hitB = rayBox(nodes_[static_cast<std::size_t>(n.second)].box.inflated(inflate),
                             ray.origin, invDir, maxT, eb, xb);
    // Push the farther child first so the nearer one is visited first; equal entries keep
    // the tree order (first child first).
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
  if (nodes_.empty()) return;
  struct Entry {
    std::int32_t node;
    float distance;
  };
  Entry stack[64];
  int top = 0;
  stack[top++] = {0, nodes_[0].box.distance(p)};
  while (top > 0) {
    Entry e = stack[--top];
    if (e.distance > bound()) continue;
    const Node& n = nodes_[static_cast<std::size_t>(e.node)];
    if (n.leaf()) {
      visit(static_cast<std::uint32_t>(n.first), e.distance);
      continue;
    }
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
