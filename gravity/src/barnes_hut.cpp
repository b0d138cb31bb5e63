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

/// One cell's expansion at each of `lanes` targets, added to g (SIMD lanes: no sum reordered).
void BarnesHutTree::farLanes(const Cell& c, float G, int lanes, const float* __restrict tx,
                             const float* __restrict ty, const float* __restrict tz,
                             float* __restrict gx, float* __restrict gy, float* __restrict gz) {
  const float m = c.mass, cx = c.com.x, cy = c.com.y, cz = c.com.z;
  const float q0 = c.q[0], q1 = c.q[1], q2 = c.q[2], q3 = c.q[3], q4 = c.q[4], q5 = c.q[5];
  for (int t = 0; t < lanes; ++t) {
    const float x = tx[t] - cx, y = ty[t] - cy, z = tz[t] - cz;
    const float inv2 = 1.0f / (x * x + y * y + z * z);
    const float inv1 = std::sqrt(inv2);
    const float inv3 = inv1 * inv2, inv5 = inv3 * inv2;
    const float qx = q0 * x + q3 * y + q4 * z, qy = q3 * x + q1 * y + q5 * z,
                qz = q4 * x + q5 * y + q2 * z;
    const float radial = m * inv3 + 2.5f * (x * qx + y * qy + z * qz) * inv5 * inv2;
    gx[t] += G * (qx * inv5 - radial * x);
    gy[t] += G * (qy * inv5 - radial * y);
    gz[t] += G * (qz * inv5 - radial * z);
  }
}

/// One mass (Gm: G x its mass) at s pulling each of `lanes` targets, added to g. A target on
/// the mass (r = 0, no softening) gets exactly nothing: its offset is zero.
void BarnesHutTree::nearLanes(Vec3 s, float Gm, float eps2, int lanes, const float* __restrict tx,
                              const float* __restrict ty, const float* __restrict tz,
                              float* __restrict gx, float* __restrict gy, float* __restrict gz) {
  for (int t = 0; t < lanes; ++t) {
    const float x = tx[t] - s.x, y = ty[t] - s.y, z = tz[t] - s.z;
    const float r2 = x * x + y * y + z * z + eps2;
    const float safe = r2 > 0.0f ? r2 : 1.0f;
    const float k = Gm / (safe * std::sqrt(safe));
    gx[t] -= k * x;
    gy[t] -= k * y;
    gz[t] -= k * z;
  }
}

Vec3 BarnesHutTree::expansion(const Cell& c, Vec3 p, float G) {
  const Vec3 x = p - c.com;
  const float inv2 = 1.0f / glm::dot(x, x);
  const float inv1 = std::sqrt(inv2);
  const float inv3 = inv1 * inv2, inv5 = inv3 * inv2;
  const Vec3 qx(c.q[0] * x.x + c.q[3] * x.y + c.q[4] * x.z,
                c.q[3] * x.x + c.q[1] * x.y + c.q[5] * x.z,
                c.q[4] * x.x + c.q[5] * x.y + c.q[2] * x.z);
  const float xqx = glm::dot(x, qx);
  return G * (qx * inv5 - (c.mass * inv3 + 2.5f * xqx * inv5 * inv2) * x);
}

void BarnesHutTree::build(std::span<const Vec3> positions, std::span<const float> masses) {
  cells_.clear();
  position_.clear();
  mass_.clear();
  order_.clear();
  input_.clear();
  Aabb box;
  for (std::size_t i = 0; i < positions.size() && i < masses.size(); ++i)
    if (masses[i] > 0.0f && isFinite(positions[i])) {
      order_.push_back(std::uint32_t(position_.size()));
      input_.push_back(std::uint32_t(i));
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
  std::vector<std::uint32_t> in(order_.size());
  for (std::size_t i = 0; i < order_.size(); ++i) {
    p[i] = position_[order_[i]];
    m[i] = mass_[order_[i]];
    in[i] = input_[order_[i]];
  }
  input_ = std::move(in);
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
  const glm::dvec3 com = first / m;
  double q[6] = {};
  for (std::uint32_t i = begin; i < end; ++i) {
    const std::uint32_t b = order_[i];
    const glm::dvec3 y = glm::dvec3(position_[b]) - com;
    const double mb = double(mass_[b]), y2 = glm::dot(y, y);
    q[0] += mb * (3.0 * y.x * y.x - y2);
    q[1] += mb * (3.0 * y.y * y.y - y2);
    q[2] += mb * (3.0 * y.z * y.z - y2);
    q[3] += mb * 3.0 * y.x * y.y;
    q[4] += mb * 3.0 * y.x * y.z;
    q[5] += mb * 3.0 * y.y * y.z;
  }
  {
    Cell& c = cells_[self];
    c.lo = centre - Vec3(half);
    c.side = 2.0f * half;
    c.mass = float(m);
    c.com = Vec3(com);
    for (int k = 0; k < 6; ++k) c.q[k] = float(q[k]);
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
    const Vec3 c =
        centre + h * Vec3((o & 1) ? 1.0f : -1.0f, (o & 2) ? 1.0f : -1.0f, (o & 4) ? 1.0f : -1.0f);
    buildCell(child++, c, h, begin + start[o], begin + start[o + 1], depth + 1);
  }
}

Vec3 BarnesHutTree::accel(Vec3 p, float G, float theta, float softening) const {
  if (cells_.empty()) return Vec3(0.0f);
  const float eps2 = softening * softening;
  const float invTheta2 = 1.0f / (theta * theta);
  Vec3 g(0.0f);
  std::uint32_t stack[8 * kMaxDepth + 8];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Cell& c = cells_[stack[--top]];
    const Vec3 x = p - c.com;
    const float r2 = glm::dot(x, x);
    const Vec3 u = p - c.lo;
    const bool inside = (u.x >= 0.0f) & (u.y >= 0.0f) & (u.z >= 0.0f) & (u.x <= c.side) &
                        (u.y <= c.side) & (u.z <= c.side);
    if (!inside && r2 > c.side * c.side * invTheta2) {
      g += expansion(c, p, G);
    } else if (c.childCount == 0) {
      for (std::uint32_t i = c.begin; i < c.end; ++i) g += pull(p, position_[i], mass_[i], G, eps2);
    } else {
      // Pushed last to first, so children are visited in octant order.
      for (std::uint32_t k = c.childCount; k-- > 0;) stack[top++] = c.firstChild + k;
    }
  }
  return g;
}

void BarnesHutTree::accelAll(float G, float theta, float softening, std::span<Vec3> out) const {
  std::fill(out.begin(), out.end(), Vec3(0.0f));
  if (cells_.empty()) return;
  const float eps2 = softening * softening;
  const float invTheta2 = 1.0f / (theta * theta);
  std::vector<std::uint32_t> groups, near;
  std::vector<const Cell*> far;
  // The groups: the highest cells of at most kGroupSize masses, in tree order.
  std::vector<std::uint32_t> stack = {0};
  while (!stack.empty()) {
    const std::uint32_t i = stack.back();
    stack.pop_back();
    const Cell& c = cells_[i];
    if (c.end - c.begin <= std::uint32_t(kGroupSize) || c.childCount == 0) {
      groups.push_back(i);
      continue;
    }
    for (std::uint32_t k = c.childCount; k-- > 0;) stack.push_back(c.firstChild + k);
  }
  for (std::uint32_t gi : groups) {
    const Cell& group = cells_[gi];
    Aabb box;
    for (std::uint32_t i = group.begin; i < group.end; ++i) box.expand(position_[i]);
    far.clear();
    near.clear();
    stack.assign(1, 0);
    while (!stack.empty()) {
      const Cell& c = cells_[stack.back()];
      stack.pop_back();
      const Vec3 gap = glm::max(glm::max(box.min - c.com, c.com - box.max), Vec3(0.0f));
      const Vec3 lo = c.lo, hi = c.lo + Vec3(c.side);
      const bool overlaps = box.min.x <= hi.x && box.max.x >= lo.x && box.min.y <= hi.y &&
                            box.max.y >= lo.y && box.min.z <= hi.z && box.max.z >= lo.z;
      if (!overlaps && glm::dot(gap, gap) > c.side * c.side * invTheta2) {
        far.push_back(&c);
      } else if (c.childCount == 0) {
        for (std::uint32_t i = c.begin; i < c.end; ++i) near.push_back(i);
      } else {
        for (std::uint32_t k = c.childCount; k-- > 0;) stack.push_back(c.firstChild + k);
      }
    }
    // Each source against every target of the group: the loop over targets is the inner one,
    // one accumulator per target, so it runs as SIMD lanes without reordering any sum.
    // Lanes past the group's masses repeat its first; their sums are never read.
    const int count = int(group.end - group.begin);
    const int lanes = (count + 3) & ~3;
    alignas(32) float tx[kGroupSize], ty[kGroupSize], tz[kGroupSize];
    alignas(32) float gx[kGroupSize] = {}, gy[kGroupSize] = {}, gz[kGroupSize] = {};
    for (int t = 0; t < lanes; ++t) {
      const Vec3 p = position_[group.begin + std::uint32_t(t < count ? t : 0)];
      tx[t] = p.x;
      ty[t] = p.y;
      tz[t] = p.z;
    }
    for (const Cell* c : far) farLanes(*c, G, lanes, tx, ty, tz, gx, gy, gz);
    for (std::uint32_t i : near)
      nearLanes(position_[i], G * mass_[i], eps2, lanes, tx, ty, tz, gx, gy, gz);
    for (int t = 0; t < count; ++t)
      out[input_[group.begin + std::uint32_t(t)]] = Vec3(gx[t], gy[t], gz[t]);
  }
}

void BarnesHutTree::directSumAll(std::span<const Vec3> positions, std::span<const float> masses,
                                 float G, float softening, std::span<Vec3> out) {
  const float eps2 = softening * softening;
  const std::size_t n = std::min(positions.size(), masses.size());
  for (std::size_t begin = 0; begin < n; begin += std::size_t(kGroupSize)) {
    const int count = int(std::min(n - begin, std::size_t(kGroupSize)));
    const int lanes = (count + 3) & ~3;
    alignas(32) float tx[kGroupSize], ty[kGroupSize], tz[kGroupSize];
    alignas(32) float gx[kGroupSize] = {}, gy[kGroupSize] = {}, gz[kGroupSize] = {};
    for (int t = 0; t < lanes; ++t) {
      const Vec3 p = positions[begin + std::size_t(t < count ? t : 0)];
      tx[t] = p.x;
      ty[t] = p.y;
      tz[t] = p.z;
    }
    for (std::size_t i = 0; i < n; ++i)
      if (masses[i] > 0.0f)
        nearLanes(positions[i], G * masses[i], eps2, lanes, tx, ty, tz, gx, gy, gz);
    for (int t = 0; t < count; ++t) out[begin + std::size_t(t)] = Vec3(gx[t], gy[t], gz[t]);
  }
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
