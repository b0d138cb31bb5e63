#include "floptle/physics/collider_bvh.h"

#include <algorithm>
#include <cassert>

namespace floptle::physics {

namespace {

/// A usable centre for splitting: unbounded boxes (planes) are clamped so that the sort keys
/// stay finite; empty boxes sort last.
Vec3 splitKey(const Aabb& b) {
  if (b.empty()) return Vec3(std::numeric_limits<float>::max());
  constexpr float kFar = 1e15f;
  return glm::clamp(b.center(), Vec3(-kFar), Vec3(kFar));
}

}  // namespace

void ColliderBvh::build(std::span<const Aabb> boxes) {
  nodes_.clear();
  itemCount_ = boxes.size();
  if (boxes.empty()) return;
  std::vector<std::uint32_t> items(boxes.size());
  for (std::size_t i = 0; i < items.size(); ++i) items[i] = static_cast<std::uint32_t>(i);
  nodes_.reserve(2 * boxes.size());
  buildRange(boxes, items, 0, items.size());
}

std::int32_t ColliderBvh::buildRange(std::span<const Aabb> boxes,
                                     std::vector<std::uint32_t>& items, std::size_t begin,
                                     std::size_t end) {
  const auto index = static_cast<std::int32_t>(nodes_.size());
  nodes_.push_back({});
  if (end - begin == 1) {
    nodes_[static_cast<std::size_t>(index)].first = static_cast<std::int32_t>(items[begin]);
    nodes_[static_cast<std::size_t>(index)].box = boxes[items[begin]];
    return index;
  }
  Aabb centres;
  for (std::size_t i = begin; i < end; ++i) centres.expand(splitKey(boxes[items[i]]));
  const Vec3 extent = centres.max - centres.min;
  const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
  const std::size_t mid = begin + (end - begin) / 2;
  // nth_element is not stable; the (key, index) order makes the split a function of input.
  std::nth_element(items.begin() + static_cast<std::ptrdiff_t>(begin),
                   items.begin() + static_cast<std::ptrdiff_t>(mid),
                   items.begin() + static_cast<std::ptrdiff_t>(end),
                   [&](std::uint32_t a, std::uint32_t b) {
                     float ka = splitKey(boxes[a])[axis], kb = splitKey(boxes[b])[axis];
                     return ka < kb || (ka == kb && a < b);
                   });
  std::int32_t left = buildRange(boxes, items, begin, mid);
  std::int32_t right = buildRange(boxes, items, mid, end);
  Node& n = nodes_[static_cast<std::size_t>(index)];
  n.first = left;
  n.second = right;
  n.box = nodes_[static_cast<std::size_t>(left)].box;
  n.box.expand(nodes_[static_cast<std::size_t>(right)].box);
  return index;
}

void ColliderBvh::refit(std::span<const Aabb> boxes) {
  assert(boxes.size() == itemCount_);
  if (!nodes_.empty()) refitNode(0, boxes);
}

void ColliderBvh::refitNode(std::int32_t node, std::span<const Aabb> boxes) {
  Node& n = nodes_[static_cast<std::size_t>(node)];
  if (n.leaf()) {
    n.box = boxes[static_cast<std::size_t>(n.first)];
    return;
  }
  refitNode(n.first, boxes);
  refitNode(n.second, boxes);
  Aabb box = nodes_[static_cast<std::size_t>(n.first)].box;
  box.expand(nodes_[static_cast<std::size_t>(n.second)].box);
  nodes_[static_cast<std::size_t>(node)].box = box;
}

}  // namespace floptle::physics
