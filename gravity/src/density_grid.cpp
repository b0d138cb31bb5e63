// DensityGrid: rho from shapes' occupancy, the isolated solve, g at the nodes, and the
// multipole expansion beyond the grid.
#include "floptle/gravity/density_grid.h"

#include <algorithm>
#include <cmath>

namespace floptle::gravity {

Expected<DensityGrid> DensityGrid::create(const Aabb& bounds, float cell, float G,
                                          const std::string& where) {
  if (!(cell > 0.0f) || !std::isfinite(cell)) return Error{where + "/cell", "must be positive (m)"};
  if (bounds.empty() || !isFinite(bounds.min) || !isFinite(bounds.max))
    return Error{where + "/bounds", "must be a finite box with min below max (m)"};
  const Vec3 extent = bounds.max - bounds.min;
  glm::ivec3 n;
  double count = 1.0;
  for (int a = 0; a < 3; ++a) {
    const double cells = std::ceil(double(extent[a]) / double(cell) - 1e-4);
    if (cells + 1.0 > double(kMaxNodes)) {
      count = double(kMaxNodes) + 1.0;
      break;
    }
    n[a] = std::max(2, int(cells) + 1);
    count *= double(n[a]);
  }
  if (count > double(kMaxNodes))
    return Error{where + "/cell",
                 "gives more than 128^3 grid nodes over the bounds: use a larger cell or "
                 "smaller bounds"};
  return DensityGrid(bounds.min, cell, n, G);
}

DensityGrid::DensityGrid(Vec3 origin, float h, glm::ivec3 n, float G)
    : origin_(origin),
      h_(h),
      invH_(1.0f / h),
      n_(n),
      G_(G),
      upper_(Vec3(n - 1)),
      rho_(std::size_t(n.x) * std::size_t(n.y) * std::size_t(n.z), 0.0f),
      phi_(rho_.size(), 0.0f),
      g_(rho_.size(), Vec3(0.0f)),
      solver_(n, h, G) {}

void DensityGrid::clear() {
  std::fill(rho_.begin(), rho_.end(), 0.0f);
}

void DensityGrid::addMatter(const Aabb& box, float density,
                            const std::function<float(Vec3)>& distance) {
  if (!(density > 0.0f) || box.empty()) return;
  // Nodes whose cell the shape may reach: its box grown by a cell, clipped to the grid.
  const Vec3 lo = glm::floor((box.min - origin_) * invH_) - 1.0f;
  const Vec3 hi = glm::ceil((box.max - origin_) * invH_) + 1.0f;
  glm::ivec3 a, b;
  for (int c = 0; c < 3; ++c) {
    a[c] = int(std::clamp(std::isfinite(lo[c]) ? lo[c] : -1e9f, 0.0f, upper_[c]));
    b[c] = int(std::clamp(std::isfinite(hi[c]) ? hi[c] : 1e9f, 0.0f, upper_[c]));
  }
  for (int k = a.z; k <= b.z; ++k)
    for (int j = a.y; j <= b.y; ++j)
      for (int i = a.x; i <= b.x; ++i) {
        const Vec3 p = origin_ + h_ * Vec3(float(i), float(j), float(k));
        const float f = distance(p);
        float occupancy = f < 0.0f ? 1.0f : 0.0f;
        if (std::abs(f) < h_) {
          // Near the surface: the ramp over kSub^3 sub-cells, each a ramp a kSub-th as wide.
          float sum = 0.0f;
          const float step = h_ / float(kSub), invStep = float(kSub) * invH_;
          const Vec3 first = p + Vec3(0.5f * step - 0.5f * h_);
          for (int c = 0; c < kSub; ++c)
            for (int b = 0; b < kSub; ++b)
              for (int a = 0; a < kSub; ++a)
                sum += std::clamp(
                    0.5f - distance(first + step * Vec3(float(a), float(b), float(c))) * invStep,
                    0.0f, 1.0f);
          occupancy = sum / float(kSub * kSub * kSub);
        }
        float& r = rho_[index(i, j, k)];
        r = std::max(r, density * occupancy);
      }
}

void DensityGrid::solve() {
  solver_.solve(rho_, phi_);
  // g = -grad Phi: central differences inside, one-sided at the faces.
  const int strides[3] = {1, n_.x, n_.x * n_.y};
  for (int k = 0; k < n_.z; ++k)
    for (int j = 0; j < n_.y; ++j)
      for (int i = 0; i < n_.x; ++i) {
        const int at[3] = {i, j, k};
        const std::size_t c = index(i, j, k);
        Vec3 g;
        for (int d = 0; d < 3; ++d) {
          const int n = (&n_.x)[d];
          const std::size_t s = std::size_t(strides[d]);
          if (at[d] == 0)
            g[d] = (3.0f * phi_[c] - 4.0f * phi_[c + s] + phi_[c + 2 * s]) * (0.5f * invH_);
          else if (at[d] == n - 1)
            g[d] = -(3.0f * phi_[c] - 4.0f * phi_[c - s] + phi_[c - 2 * s]) * (0.5f * invH_);
          else
            g[d] = -(phi_[c + s] - phi_[c - s]) * (0.5f * invH_);
        }
        g_[c] = g;
      }
  // Mass moments, summed in double in node order.
  const double cellVolume = double(h_) * double(h_) * double(h_);
  double m = 0.0;
  glm::dvec3 first(0.0);
  for (int k = 0; k < n_.z; ++k)
    for (int j = 0; j < n_.y; ++j)
      for (int i = 0; i < n_.x; ++i) {
        const double mi = double(rho_[index(i, j, k)]) * cellVolume;
        m += mi;
        first += mi * glm::dvec3(origin_ + h_ * Vec3(float(i), float(j), float(k)));
      }
  mass_ = float(m);
  com_ = m > 0.0 ? Vec3(first / m) : bounds().center();
  glm::dmat3 q(0.0);
  for (int k = 0; k < n_.z; ++k)
    for (int j = 0; j < n_.y; ++j)
      for (int i = 0; i < n_.x; ++i) {
        const double mi = double(rho_[index(i, j, k)]) * cellVolume;
        if (mi == 0.0) continue;
        const glm::dvec3 x =
            glm::dvec3(origin_ + h_ * Vec3(float(i), float(j), float(k))) - glm::dvec3(com_);
        const double r2 = glm::dot(x, x);
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) q[a][b] += mi * (3.0 * x[a] * x[b] - (a == b ? r2 : 0.0));
      }
  quadrupole_ = glm::mat3(q);
}

Vec3 DensityGrid::farField(Vec3 p) const {
  // Phi = -G (M / r + x.Q x / (2 r^5)), x = p - com; g = -grad Phi.
  const Vec3 x = p - com_;
  const float r2 = glm::dot(x, x);
  if (!(r2 > 0.0f)) return Vec3(0.0f);
  const float r = std::sqrt(r2);
  const float inv3 = 1.0f / (r2 * r);
  const float inv5 = inv3 / r2;
  const Vec3 qx = quadrupole_ * x;
  const float xqx = glm::dot(x, qx);
  return G_ * (-mass_ * x * inv3 + qx * inv5 - 2.5f * xqx * x * (inv5 / r2));
}

Vec3 DensityGrid::sample(Vec3 p) const {
  const Vec3 u = (p - origin_) * invH_;
  if (!(u.x >= 0.0f && u.y >= 0.0f && u.z >= 0.0f && u.x <= upper_.x && u.y <= upper_.y &&
        u.z <= upper_.z))
    return farField(p);
  const glm::ivec3 i0 = glm::min(glm::ivec3(u), n_ - 2);
  const Vec3 f = u - Vec3(i0);
  const std::size_t sx = 1, sy = std::size_t(n_.x), sz = std::size_t(n_.x) * std::size_t(n_.y);
  const std::size_t c = index(i0.x, i0.y, i0.z);
  const Vec3* g = g_.data();
  const Vec3 x00 = g[c] + (g[c + sx] - g[c]) * f.x;
  const Vec3 x10 = g[c + sy] + (g[c + sy + sx] - g[c + sy]) * f.x;
  const Vec3 x01 = g[c + sz] + (g[c + sz + sx] - g[c + sz]) * f.x;
  const Vec3 x11 = g[c + sz + sy] + (g[c + sz + sy + sx] - g[c + sz + sy]) * f.x;
  const Vec3 y0 = x00 + (x10 - x00) * f.y;
  const Vec3 y1 = x01 + (x11 - x01) * f.y;
  return y0 + (y1 - y0) * f.z;
}

}  // namespace floptle::gravity
