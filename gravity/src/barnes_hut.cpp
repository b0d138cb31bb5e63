// BarnesHutTree: the octree build (a stable octant partition, depth-first) and the walk.
#include "floptle/gravity/barnes_hut.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace floptle::gravity {
namespace {

constexpr int kMaxDepth = 24;

Vec3 pull(Vec3 p, Vec3 x, float m, float G, float eps2) {
  const Vec3 d = p - x;
  const float r2 = glm::dot(d, d) + eps2;
  if (!(r2 > 0.0f)) return Vec3(0.0f);
  return (-G * m / (r2 * std::sqrt(r2))) * d;
}

}  // namespace

void BarnesHutTree::build(std::span<const Vec3> positions, std::span<const float> masses) {
  cells_.clear();
  position_.clear();
  mass_.clear();
  order_.clear();
  Aabb box;
  for (std::size_t i = 0; i < positions.size() && i < masses.size(); ++i)
    if (masses[i] > 0.0f && isFinite(positions[i])) {
      order_.push_back(std::uint32_t(position_.size()));
      position_.push_back(positions[i]);
      mass_.push_back(masses[i]);
      box.expand(positions[i]);
    }
  if (order_.empty()) return;
  scratch_.resize(order_.size());
  const Vec3 half = box.halfExtents();
  const float h = std::max({half.x, half.y, half.z, 1e-6f}) * 1.0001f;
  cells_.reserve(2 * order_.size() / std::size_t(kLeafSize) + 8);
  cells_.emplace_back();
  buildCell(0, box.center(), h, 0, std::uint32_t(order_.size()), 0);
  // Lay the masses out in tree order: each leaf's are then [begin, end).
  std::vector<Vec3> p(order_.size());
  std::vector<float> m(order_.size());
  for (std::size_t i = 0; i < order_.size(); ++i) {
    p[i] = position_[order_[i]];
    m[i] = mass_[order_[i]];
  }
  position_ = std::move(p);
  mass_ = std::move(m);
}

void BarnesHutTree::buildCell(std::uint32_t self, Vec3 centre, float half, std::uint32_t begin,
                              std::uint32_t end, int depth) {
  double m = 0.0;
  glm::dvec3 first(0.0);
  for (std::uint32_t i = begin; i < end; ++i) {
    const std::uint32_t b = order_[i];
    m += double(mass_[b]);
    first += double(mass_[b]) * glm::dvec3(position_[b]);
  }
  {
    Cell& c = cells_[self];
    c.centre = centre;
    c.half = half;
    c.mass = float(m);
    c.com = Vec3(first / m);
    c.delta = glm::length(c.com - centre);
    c.begin = begin;
    c.end = end;
  }
  if (end - begin <= std::uint32_t(kLeafSize) || depth >= kMaxDepth) return;
  // Stable partition by octant (bit 0: x above the centre, bit 1: y, bit 2: z).
  auto octant = [&](std::uint32_t b) {
    const Vec3 q = position_[b];
    return std::size_t(int(q.x > centre.x) | (int(q.y > centre.y) << 1) |
                       (int(q.z > centre.z) << 2));
  };
  std::array<std::uint32_t, 9> start{};
  for (std::uint32_t i = begin; i < end; ++i) ++start[octant(order_[i]) + 1];
  for (std::size_t o = 0; o < 8; ++o) start[o + 1] += start[o];
  std::array<std::uint32_t, 8> fill{};
  for (std::size_t o = 0; o < 8; ++o) fill[o] = start[o];
  for (std::uint32_t i = begin; i < end; ++i) {
    const std::uint32_t b = order_[i];
    scratch_[begin + fill[octant(b)]++] = b;
  }
  std::copy(scratch_.begin() + begin, scratch_.begin() + end, order_.begin() + begin);
  // Children: one cell per non-empty octant, contiguous, then each built depth-first.
  std::uint32_t count = 0;
  for (std::size_t o = 0; o < 8; ++o) count += start[o + 1] > start[o] ? 1u : 0u;
  const std::uint32_t firstChild = std::uint32_t(cells_.size());
  cells_[self].firstChild = firstChild;
  cells_[self].childCount = count;
  cells_.resize(cells_.size() + count);
  std::uint32_t child = firstChild;
  const float h = 0.5f * half;
  for (std::size_t o = 0; o < 8; ++o) {
    if (start[o + 1] == start[o]) continue;
    const Vec3 c = centre + h * Vec3((o & 1) ? 1.0f : -1.0f, (o & 2) ? 1.0f : -1.0f,
                                     (o & 4) ? 1.0f : -1.0f);
    buildCell(child++, c, h, begin + start[o], begin + start[o + 1], depth + 1);
  }
}

Vec3 BarnesHutTree::accel(Vec3 p, float G, float theta, float softening) const {
  if (cells_.empty()) return Vec3(0.0f);
  const float eps2 = softening * softening;
  const float invTheta = 1.0f / theta;
  Vec3 g(0.0f);
  std::uint32_t stack[8 * kMaxDepth + 8];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Cell& c = cells_[stack[--top]];
    const Vec3 d = p - c.com;
    const float open = 2.0f * c.half * invTheta + c.delta;
    if (glm::dot(d, d) > open * open) {
      g += pull(p, c.com, c.mass, G, eps2);
    } else if (c.childCount == 0) {
      for (std::uint32_t i = c.begin; i < c.end; ++i) g += pull(p, position_[i], mass_[i], G, eps2);
    } else {
      // Pushed last to first, so children are visited in octant order.
      for (std::uint32_t k = c.childCount; k-- > 0;) stack[top++] = c.firstChild + k;
    }
  }
  return g;
}

Vec3 BarnesHutTree::directSum(Vec3 p, std::span<const Vec3> positions,
                              std::span<const float> masses, float G, float softening) {
  const float eps2 = softening * softening;
  Vec3 g(0.0f);
  for (std::size_t i = 0; i < positions.size() && i < masses.size(); ++i)
    if (masses[i] > 0.0f) g += pull(p, positions[i], masses[i], G, eps2);
  return g;
}

}  // namespace floptle::gravity
