// UnionField: binned-SAH hierarchy over the parts' boxes and the nearest-first queries.
#include "floptle/core/field/union_field.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

namespace floptle::field {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
/// Boxes wider than this (m) on any axis count as unbounded (planes report ~1e30).
constexpr float kUnboundedExtent = 1e7f;
constexpr int kBins = 12;
/// Deepest hierarchy the traversal stack holds; the build makes leaves of
/// whatever remains below it.
constexpr int kMaxDepth = 40;

bool unboundedBox(const Aabb& box) {
  if (box.empty()) return false;
  const Vec3 size = box.max - box.min;
  return !(std::isfinite(size.x) && std::isfinite(size.y) && std::isfinite(size.z)) ||
         size.x > kUnboundedExtent || size.y > kUnboundedExtent || size.z > kUnboundedExtent;
}

struct Builder {
  const std::vector<Aabb>& boxes;
  std::vector<std::int32_t>& order;
  std::vector<UnionBvhNode>& nodes;

  Aabb boundsOf(int begin, int end) const {
    Aabb b;
    for (int i = begin; i < end; ++i) b.expand(boxes[std::size_t(order[std::size_t(i)])]);
    return b;
  }

  void build(int begin, int end, int depth) {
    const int index = int(nodes.size());
    nodes.push_back({});
    nodes[std::size_t(index)].box = boundsOf(begin, end);
    const int count = end - begin;
    if (count <= UnionField::kLeafSize || depth >= kMaxDepth) {
      makeLeaf(index, begin, count);
      return;
    }
    Aabb centroids;
    for (int i = begin; i < end; ++i)
      centroids.expand(boxes[std::size_t(order[std::size_t(i)])].center());
    // Binned SAH: for each axis, kBins buckets of centroids; the split minimizing
    // area(left) * n(left) + area(right) * n(right).
    float bestCost = kInf;
    int bestAxis = -1, bestSplit = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const float lo = centroids.min[axis], extent = centroids.max[axis] - lo;
      if (!(extent > 0.0f)) continue;
      std::array<Aabb, kBins> binBox{};
      std::array<int, kBins> binCount{};
      for (int i = begin; i < end; ++i) {
        const Aabb& box = boxes[std::size_t(order[std::size_t(i)])];
        const int bin = std::min(kBins - 1, int(float(kBins) * (box.center()[axis] - lo) / extent));
        binBox[std::size_t(bin)].expand(box);
        ++binCount[std::size_t(bin)];
      }
      std::array<float, kBins> rightCost{};
      Aabb acc;
      int n = 0;
      for (int b = kBins - 1; b > 0; --b) {
        acc.expand(binBox[std::size_t(b)]);
        n += binCount[std::size_t(b)];
        rightCost[std::size_t(b)] = acc.surfaceArea() * float(n);
      }
      acc = Aabb{};
      n = 0;
      for (int b = 0; b < kBins - 1; ++b) {
        acc.expand(binBox[std::size_t(b)]);
        n += binCount[std::size_t(b)];
        const float cost = acc.surfaceArea() * float(n) + rightCost[std::size_t(b + 1)];
        if (n > 0 && n < count && cost < bestCost) {
          bestCost = cost;
          bestAxis = axis;
          bestSplit = b;
        }
      }
    }
    int mid = begin + count / 2;
    if (bestAxis >= 0) {
      const float lo = centroids.min[bestAxis],
                  extent = centroids.max[bestAxis] - centroids.min[bestAxis];
      auto* first = order.data() + begin;
      auto* split = std::partition(first, order.data() + end, [&](std::int32_t part) {
        const float c = boxes[std::size_t(part)].center()[bestAxis];
        return std::min(kBins - 1, int(float(kBins) * (c - lo) / extent)) <= bestSplit;
      });
      mid = int(split - order.data());
    }
    if (mid <= begin || mid >= end) {
      // Every centroid in one place: split the range in half.
      mid = begin + count / 2;
    }
    build(begin, mid, depth + 1);
    nodes[std::size_t(index)].right = int(nodes.size());
    build(mid, end, depth + 1);
  }

  void makeLeaf(int index, int begin, int count) {
    UnionBvhNode& node = nodes[std::size_t(index)];
    node.first = begin;
    node.count = count;
  }
};

}  // namespace

Expected<UnionField> UnionField::build(std::vector<FieldProgram> parts, double time) {
  if (parts.empty()) return Error{"parts", "a union needs at least one part"};
  if (!std::isfinite(time)) return Error{"time", "must be finite"};
  UnionField field;
  field.parts_ = std::move(parts);
  field.fittedTime_ = time;
  field.boxes_.resize(field.parts_.size());
  std::vector<std::int32_t> bounded;
  for (std::size_t i = 0; i < field.parts_.size(); ++i) {
    field.boxes_[i] = field.parts_[i].bounds(time);
    if (field.parts_[i].animated()) field.animatedParts_.push_back(std::int32_t(i));
    if (unboundedBox(field.boxes_[i]))
      field.unbounded_.push_back(std::int32_t(i));
    else
      bounded.push_back(std::int32_t(i));
  }
  if (!bounded.empty()) {
    field.nodes_.reserve(bounded.size() * 2);
    Builder builder{field.boxes_, bounded, field.nodes_};
    builder.build(0, int(bounded.size()), 0);
  }
  field.leafParts_ = std::move(bounded);
  return field;
}

void UnionField::refitNodes() {
  // Children follow their parent in the array: a reverse sweep sees children first.
  for (std::size_t i = nodes_.size(); i-- > 0;) {
    UnionBvhNode& node = nodes_[i];
    Aabb box;
    if (node.count > 0) {
      for (int k = 0; k < node.count; ++k)
        box.expand(boxes_[std::size_t(leafParts_[std::size_t(node.first + k)])]);
    } else {
      box = nodes_[i + 1].box;
      box.expand(nodes_[std::size_t(node.right)].box);
    }
    node.box = box;
  }
}

void UnionField::refit(double t) {
  if (!std::isfinite(t)) return;
  fittedTime_ = t;
  if (animatedParts_.empty()) return;
  for (std::int32_t i : animatedParts_) boxes_[std::size_t(i)] = parts_[std::size_t(i)].bounds(t);
  refitNodes();
}

void UnionField::replacePart(int index, FieldProgram program) {
  const std::size_t i = std::size_t(index);
  const bool wasUnbounded =
      std::find(unbounded_.begin(), unbounded_.end(), index) != unbounded_.end();
  const Aabb box = program.bounds(fittedTime_);
  if (unboundedBox(box) != wasUnbounded) {
    // The part moves in or out of the hierarchy: rebuild it (rare: a shape's type changed).
    std::vector<FieldProgram> parts = std::move(parts_);
    parts[i] = std::move(program);
    *this = *build(std::move(parts), fittedTime_);
    return;
  }
  parts_[i] = std::move(program);
  boxes_[i] = box;
  animatedParts_.erase(std::remove(animatedParts_.begin(), animatedParts_.end(), index),
                       animatedParts_.end());
  if (parts_[i].animated()) {
    animatedParts_.insert(
        std::lower_bound(animatedParts_.begin(), animatedParts_.end(), std::int32_t(index)),
        std::int32_t(index));
  }
  if (!wasUnbounded) refitNodes();
}

template <class Visit>
void UnionField::visitNear(Vec3 p, float& best, Visit&& visit) const {
  if (nodes_.empty()) return;
  std::int32_t stack[kMaxDepth + 2];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const UnionBvhNode& node = nodes_[std::size_t(stack[--top])];
    if (node.box.distance(p) >= best) continue;
    if (node.count > 0) {
      for (int k = 0; k < node.count; ++k) visit(leafParts_[std::size_t(node.first + k)]);
      continue;
    }
    // Nearer child on top of the stack, so it is visited first.
    const std::int32_t left = std::int32_t(&node - nodes_.data()) + 1, right = node.right;
    const float dl = nodes_[std::size_t(left)].box.distance(p),
                dr = nodes_[std::size_t(right)].box.distance(p);
    if (dl <= dr) {
      stack[top++] = right;
      stack[top++] = left;
    } else {
      stack[top++] = left;
      stack[top++] = right;
    }
  }
}

int UnionField::nearestPart(Vec3 p, double t) const {
  float best = kInf;
  int nearest = -1;
  auto consider = [&](std::int32_t i) {
    const float d = parts_[std::size_t(i)].distance(p, t);
    if (d < best || nearest < 0) {
      best = d;
      nearest = i;
    }
  };
  for (std::int32_t i : unbounded_) consider(i);
  const bool stale = !fitted(t);
  if (stale)
    for (std::int32_t i : animatedParts_) consider(i);
  visitNear(p, best, [&](std::int32_t i) {
    if (stale && parts_[std::size_t(i)].animated()) return;
    consider(i);
  });
  return nearest;
}

float UnionField::distance(Vec3 p, double t) const {
  const int i = nearestPart(p, t);
  return parts_[std::size_t(i)].distance(p, t);
}

FieldSample UnionField::sample(Vec3 p, double t) const {
  return parts_[std::size_t(nearestPart(p, t))].sample(p, t);
}

FieldSample UnionField::renderSample(Vec3 p, double t, bool withUnbounded,
                                     float boundMargin) const {
  FieldSample best{kInf, 0};
  auto exact = [&](std::int32_t i) {
    const FieldSample s = parts_[std::size_t(i)].sample(p, t);
    if (s.distance < best.distance) best = s;
  };
  if (withUnbounded)
    for (std::int32_t i : unbounded_) exact(i);
  const bool stale = !fitted(t);
  if (stale)
    for (std::int32_t i : animatedParts_) exact(i);
  visitNear(p, best.distance, [&](std::int32_t i) {
    if (stale && parts_[std::size_t(i)].animated()) return;
    const float boxDistance = boxes_[std::size_t(i)].distance(p);
    if (boxDistance > boundMargin) {
      if (boxDistance < best.distance) best = {boxDistance, 0};
      return;
    }
    exact(i);
  });
  return best;
}

Vec3 UnionField::normal(Vec3 p, double t) const {
  const int i = nearestPart(p, t);
  return parts_[std::size_t(i)].normal(p, t);
}

Aabb UnionField::bounds() const {
  Aabb box;
  for (const Aabb& b : boxes_) box.expand(b);
  return box;
}

}  // namespace floptle::field
