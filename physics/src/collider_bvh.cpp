// ColliderBvh: insert and remove (SAH descent, AVL rotations), the binned SAH build, refits.
#include "floptle/physics/collider_bvh.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace floptle::physics {

namespace {

/// Coordinates beyond this are clamped for costs and split keys (m): unbounded boxes
/// (planes) keep finite areas and sort keys.
constexpr float kFar = 1e15f;
/// Bins per axis of the SAH build (-).
constexpr int kBins = 16;
/// Ranges of this many items or fewer split by median: binning would cost more than the
/// SAH could save over so few boxes (-).
constexpr std::size_t kMedianRange = 4;
/// Below this depth the build splits by median instead of SAH, so no path grows past
/// kSahDepth + log2(n) whatever the boxes (-).
constexpr int kSahDepth = 40;

/// Surface area for SAH costs (m^2), in double over clamped coordinates; 0 when empty.
double area(const Aabb& b) {
  if (b.empty()) return 0.0;
  const glm::dvec3 lo = glm::clamp(glm::dvec3(b.min), glm::dvec3(-kFar), glm::dvec3(kFar));
  const glm::dvec3 hi = glm::clamp(glm::dvec3(b.max), glm::dvec3(-kFar), glm::dvec3(kFar));
  const glm::dvec3 d = hi - lo;
  return 2.0 * (d.x * d.y + d.y * d.z + d.z * d.x);
}

Aabb merged(const Aabb& a, const Aabb& b) {
  Aabb m = a;
  m.expand(b);
  return m;
}

/// A usable centre for splitting: the centre of the box clamped to kFar, finite even for
/// an unbounded box (whose own centre is inf - inf); empty boxes sort last.
Vec3 splitKey(const Aabb& b) {
  if (b.empty()) return Vec3(std::numeric_limits<float>::max());
  return 0.5f *
         (glm::clamp(b.min, Vec3(-kFar), Vec3(kFar)) + glm::clamp(b.max, Vec3(-kFar), Vec3(kFar)));
}

/// The SAH bin of a split key on `axis` of the centres' box (scale = kBins / its extent).
int binOf(Vec3 key, const Aabb& centres, int axis, float scale) {
  return std::min(kBins - 1, static_cast<int>((key[axis] - centres.min[axis]) * scale));
}

}  // namespace

struct ColliderBvh::BuildItem {
  std::uint32_t item;
  std::uint32_t slot;  ///< position in build()'s input, for its leaves[]
  Aabb box;
  Vec3 key;
};

void ColliderBvh::clear() {
  nodes_.clear();
  root_ = -1;
  freeList_ = -1;
  itemCount_ = 0;
}

std::int32_t ColliderBvh::allocateNode() {
  if (freeList_ >= 0) {
    const std::int32_t i = freeList_;
    freeList_ = node(i).parent;
    node(i) = Node{};
    return i;
  }
  nodes_.push_back({});
  return static_cast<std::int32_t>(nodes_.size() - 1);
}

void ColliderBvh::freeNode(std::int32_t i) {
  node(i) = Node{};
  node(i).parent = freeList_;
  node(i).height = -1;
  freeList_ = i;
}

ColliderBvh::Leaf ColliderBvh::insert(std::uint32_t item, const Aabb& box) {
  const std::int32_t leaf = allocateNode();
  Node& n = node(leaf);
  n.box = box;
  n.first = static_cast<std::int32_t>(item);
  n.second = -1;
  insertLeaf(leaf);
  ++itemCount_;
  return leaf;
}

void ColliderBvh::remove(Leaf leaf) {
  assert(leaf >= 0 && static_cast<std::size_t>(leaf) < nodes_.size() && node(leaf).leaf());
  removeLeaf(leaf);
  freeNode(leaf);
  --itemCount_;
}

void ColliderBvh::insertLeaf(std::int32_t leaf) {
  if (root_ < 0) {
    root_ = leaf;
    node(leaf).parent = -1;
    return;
  }
  // Descend towards the sibling of least cost: making a new parent here costs that parent's
  // area; going down costs what this node grows by plus the child's own growth (a leaf
  // child would become a new parent's sibling: its whole merged area).
  const Aabb box = node(leaf).box;
  std::int32_t index = root_;
  while (!node(index).leaf()) {
    const Node& n = node(index);
    const double combined = area(merged(n.box, box));
    const double cost = 2.0 * combined;
    const double inherited = 2.0 * (combined - area(n.box));
    auto descendCost = [&](std::int32_t child) {
      const Node& c = node(child);
      const double grown = area(merged(c.box, box));
      return (c.leaf() ? grown : grown - area(c.box)) + inherited;
    };
    const double costFirst = descendCost(n.first), costSecond = descendCost(n.second);
    if (cost < costFirst && cost < costSecond) break;
    index = costFirst <= costSecond ? n.first : n.second;
  }
  const std::int32_t sibling = index;
  const std::int32_t oldParent = node(sibling).parent;
  const std::int32_t parent = allocateNode();  // may move nodes_: no references held
  Node& p = node(parent);
  p.parent = oldParent;
  p.box = merged(node(sibling).box, box);
  p.height = node(sibling).height + 1;
  p.first = sibling;
  p.second = leaf;
  node(sibling).parent = parent;
  node(leaf).parent = parent;
  if (oldParent >= 0) {
    Node& op = node(oldParent);
    (op.first == sibling ? op.first : op.second) = parent;
  } else {
    root_ = parent;
  }
  fixUpwards(parent);
}

void ColliderBvh::removeLeaf(std::int32_t leaf) {
  if (leaf == root_) {
    root_ = -1;
    return;
  }
  const std::int32_t parent = node(leaf).parent;
  const std::int32_t grand = node(parent).parent;
  const std::int32_t sibling =
      node(parent).first == leaf ? node(parent).second : node(parent).first;
  node(sibling).parent = grand;
  freeNode(parent);
  if (grand >= 0) {
    Node& g = node(grand);
    (g.first == parent ? g.first : g.second) = sibling;
    fixUpwards(grand);
  } else {
    root_ = sibling;
  }
}

void ColliderBvh::fixUpwards(std::int32_t i) {
  while (i >= 0) {
    i = balance(i);
    Node& n = node(i);
    n.height = 1 + std::max(node(n.first).height, node(n.second).height);
    n.box = merged(node(n.first).box, node(n.second).box);
    i = n.parent;
  }
}

std::int32_t ColliderBvh::balance(std::int32_t a) {
  Node& A = node(a);
  if (A.leaf() || A.height < 2) return a;
  const int diff = node(A.second).height - node(A.first).height;
  if (diff >= -1 && diff <= 1) return a;
  // Lift the taller child X into A's place. X keeps its taller child; its shorter one moves
  // under A, where X was, and A becomes X's child.
  const bool liftSecond = diff > 1;
  const std::int32_t x = liftSecond ? A.second : A.first;
  Node& X = node(x);
  const bool keepFirst = node(X.first).height >= node(X.second).height;
  const std::int32_t moved = keepFirst ? X.second : X.first;
  X.parent = A.parent;
  if (A.parent >= 0) {
    Node& p = node(A.parent);
    (p.first == a ? p.first : p.second) = x;
  } else {
    root_ = x;
  }
  (keepFirst ? X.second : X.first) = a;
  A.parent = x;
  (liftSecond ? A.second : A.first) = moved;
  node(moved).parent = a;
  A.box = merged(node(A.first).box, node(A.second).box);
  A.height = 1 + std::max(node(A.first).height, node(A.second).height);
  X.box = merged(node(X.first).box, node(X.second).box);
  X.height = 1 + std::max(node(X.first).height, node(X.second).height);
  return x;
}

void ColliderBvh::build(std::span<const std::uint32_t> items, std::span<const Aabb> boxes,
                        std::span<Leaf> leaves) {
  assert(items.size() == boxes.size() && items.size() == leaves.size());
  clear();
  if (items.empty()) return;
  itemCount_ = items.size();
  std::vector<BuildItem> work(items.size());
  for (std::size_t i = 0; i < items.size(); ++i)
    work[i] = {items[i], static_cast<std::uint32_t>(i), boxes[i], splitKey(boxes[i])};
  nodes_.reserve(2 * items.size());
  root_ = buildRange(work, 0, leaves);
}

std::int32_t ColliderBvh::buildRange(std::span<BuildItem> items, int depth,
                                     std::span<Leaf> leaves) {
  const std::int32_t index = allocateNode();
  if (items.size() == 1) {
    Node& n = node(index);
    n.box = items[0].box;
    n.first = static_cast<std::int32_t>(items[0].item);
    n.second = -1;
    leaves[items[0].slot] = index;
    return index;
  }
  Aabb centres;
  for (const BuildItem& it : items) centres.expand(it.key);
  const Vec3 extent = centres.max - centres.min;

  // Binned SAH: on each axis, kBins bins over the centres; the plane between bins that
  // minimizes area(left) * count(left) + area(right) * count(right). Ties keep the first.
  std::size_t mid = 0;
  if (depth < kSahDepth && items.size() > kMedianRange) {
    double bestCost = std::numeric_limits<double>::infinity();
    int bestAxis = -1, bestPlane = 0;
    // The three axes' bins in one pass over the items.
    struct Bin {
      Aabb box;
      std::size_t count = 0;
    } binsOf[3][kBins];
    float scales[3];
    for (int axis = 0; axis < 3; ++axis)
      scales[axis] = extent[axis] > 0.0f ? static_cast<float>(kBins) / extent[axis] : 0.0f;
    for (const BuildItem& it : items) {
      for (int axis = 0; axis < 3; ++axis) {
        if (scales[axis] == 0.0f) continue;
        Bin& bin = binsOf[axis][binOf(it.key, centres, axis, scales[axis])];
        bin.box.expand(it.box);
        ++bin.count;
      }
    }
    for (int axis = 0; axis < 3; ++axis) {
      if (scales[axis] == 0.0f) continue;
      const Bin* bins = binsOf[axis];
      // An empty bin leaves the running box as it was: its area is not computed again.
      double rightArea[kBins];
      std::size_t rightCount[kBins];
      Aabb acc;
      std::size_t count = 0;
      double accArea = 0.0;
      for (int b = kBins - 1; b >= 1; --b) {
        if (bins[b].count > 0) {
          acc.expand(bins[b].box);
          count += bins[b].count;
          accArea = area(acc);
        }
        rightArea[b] = accArea;
        rightCount[b] = count;
      }
      acc = Aabb{};
      count = 0;
      accArea = 0.0;
      for (int plane = 1; plane < kBins; ++plane) {
        if (bins[plane - 1].count > 0) {
          acc.expand(bins[plane - 1].box);
          count += bins[plane - 1].count;
          accArea = area(acc);
        }
        if (count == 0 || rightCount[plane] == 0) continue;
        const double cost = accArea * double(count) + rightArea[plane] * double(rightCount[plane]);
        if (cost < bestCost) {
          bestCost = cost;
          bestAxis = axis;
          bestPlane = plane;
        }
      }
    }
    if (bestAxis >= 0) {
      const auto leftEnd = std::partition(items.begin(), items.end(), [&](const BuildItem& it) {
        return binOf(it.key, centres, bestAxis, scales[bestAxis]) < bestPlane;
      });
      mid = static_cast<std::size_t>(leftEnd - items.begin());
    }
  }
  if (mid == 0 || mid == items.size()) {
    // Median on the longest axis of the centres, ties by item: a pure function of the input.
    const int axis =
        extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    mid = items.size() / 2;
    std::nth_element(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(mid), items.end(),
                     [&](const BuildItem& a, const BuildItem& b) {
                       return a.key[axis] < b.key[axis] ||
                              (a.key[axis] == b.key[axis] && a.item < b.item);
                     });
  }
  const std::int32_t left = buildRange(items.first(mid), depth + 1, leaves);
  const std::int32_t right = buildRange(items.subspan(mid), depth + 1, leaves);
  Node& n = node(index);
  n.first = left;
  n.second = right;
  n.box = merged(node(left).box, node(right).box);
  n.height = 1 + std::max(node(left).height, node(right).height);
  node(left).parent = index;
  node(right).parent = index;
  return index;
}

void ColliderBvh::refit(std::span<const Aabb> boxesByItem) {
  if (root_ >= 0) refitNode(root_, boxesByItem);
}

void ColliderBvh::refitNode(std::int32_t i, std::span<const Aabb> boxes) {
  Node& n = node(i);
  if (n.leaf()) {
    n.box = boxes[static_cast<std::size_t>(n.first)];
    return;
  }
  refitNode(n.first, boxes);
  refitNode(n.second, boxes);
  node(i).box = merged(node(n.first).box, node(n.second).box);
}

void ColliderBvh::setLeafBox(Leaf leaf, const Aabb& box) {
  node(leaf).box = box;
  for (std::int32_t i = node(leaf).parent; i >= 0; i = node(i).parent)
    node(i).box = merged(node(node(i).first).box, node(node(i).second).box);
}

bool ColliderBvh::valid() const {
  if (root_ < 0) return itemCount_ == 0;
  if (node(root_).parent != -1) return false;
  std::size_t leaves = 0;
  std::vector<std::int32_t> stack{root_};
  while (!stack.empty()) {
    const std::int32_t i = stack.back();
    stack.pop_back();
    const Node& n = node(i);
    if (n.leaf()) {
      if (n.height != 0) return false;
      ++leaves;
      continue;
    }
    const Node& a = node(n.first);
    const Node& b = node(n.second);
    if (a.parent != i || b.parent != i) return false;
    if (n.height != 1 + std::max(a.height, b.height)) return false;
    const Aabb box = merged(a.box, b.box);
    if (box.min != n.box.min || box.max != n.box.max) return false;
    stack.push_back(n.first);
    stack.push_back(n.second);
  }
  return leaves == itemCount_;
}

}  // namespace floptle::physics
