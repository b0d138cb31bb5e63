// SoftBody::build: the particle cage (lattice points inside the shape, 5 tetrahedra per full
// lattice cube, their edges) and the mass spread over the particles.
#include <algorithm>
#include <cmath>

#include "floptle/gravity/mass.h"
#include "floptle/matter/soft_body.h"

namespace floptle::matter {
namespace {

/// The inside lattice of spacing h centred in `bounds`: counts per axis and the first point.
struct Lattice {
  int n[3] = {0, 0, 0};
  Vec3 origin{0.0f};
  float h = 0.0f;
  std::vector<std::int32_t> index;  ///< particle of each lattice point, -1 outside
  std::size_t inside = 0;
};

Lattice sampleLattice(const std::function<float(Vec3)>& field, Aabb bounds, float h) {
  Lattice l;
  l.h = h;
  const Vec3 extent = bounds.max - bounds.min;
  for (int a = 0; a < 3; ++a) {
    l.n[a] = std::max(1, int(std::floor(extent[a] / h)));
    l.origin[a] = bounds.center()[a] - 0.5f * float(l.n[a] - 1) * h;
  }
  l.index.assign(std::size_t(l.n[0]) * std::size_t(l.n[1]) * std::size_t(l.n[2]), -1);
  std::size_t at = 0;
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i, ++at) {
        const Vec3 p = l.origin + Vec3(float(i), float(j), float(k)) * h;
        if (field(p) < 0.0f) l.index[at] = std::int32_t(l.inside++);
      }
  return l;
}

float signedVolume(Vec3 a, Vec3 b, Vec3 c, Vec3 d) {
  return glm::dot(glm::cross(b - a, c - a), d - a) / 6.0f;
}

// Corners of a lattice cube by bits (x, y, z) = (1, 2, 4). Even cubes use the central
// tetrahedron of the even corners, odd cubes the mirror, so shared faces split alike.
constexpr std::uint8_t kEvenTets[5][4] = {
    {0, 3, 5, 6}, {1, 0, 3, 5}, {2, 0, 6, 3}, {4, 0, 5, 6}, {7, 3, 6, 5}};
constexpr std::uint8_t kOddTets[5][4] = {
    {1, 2, 4, 7}, {0, 1, 4, 2}, {3, 1, 2, 7}, {5, 1, 7, 4}, {6, 2, 4, 7}};

/// The order of `count` constraints (each touching the particles `vertices(i)` gives) that
/// solves them colour by colour: greedy colouring in index order (a colour no constraint on
/// the same particle has yet; at most 64 colours, the rest share the last), then stable by
/// colour. Within a colour no two constraints share a particle, so the Gauss-Seidel sweep has
/// no write-then-read chain between neighbours and the CPU overlaps them. Deterministic.
template <class Vertices>
std::vector<std::uint32_t> colouredOrder(std::size_t count, std::size_t particles,
                                         const Vertices& vertices) {
  std::vector<std::uint64_t> used(particles, 0);
  std::vector<std::uint8_t> colour(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t taken = 0;
    for (std::uint32_t p : vertices(i)) taken |= used[p];
    int c = 0;
    while (c < 63 && (taken >> c & 1u)) ++c;
    colour[i] = std::uint8_t(c);
    for (std::uint32_t p : vertices(i)) used[p] |= std::uint64_t(1) << c;
  }
  std::vector<std::uint32_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = std::uint32_t(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return colour[a] < colour[b]; });
  return order;
}

}  // namespace

Expected<SoftBody> SoftBody::build(const SoftBodyDesc& desc,
                                   const std::function<float(Vec3)>& field, Aabb bounds,
                                   const std::string& pointer) {
  const Vec3 extent = bounds.max - bounds.min;
  const float boxVolume = extent.x * extent.y * extent.z;
  if (bounds.empty() || !std::isfinite(boxVolume) || boxVolume <= 0.0f)
    return Error{pointer, "a soft body needs a bounded shape"};
  const float n = float(desc.knobs.particles);
  // First guess from the bounding box, then one correction by the inside fraction.
  float h = std::cbrt(boxVolume / n);
  Lattice l = sampleLattice(field, bounds, h);
  if (l.inside > 0) {
    h *= std::cbrt(float(l.inside) / n);
    l = sampleLattice(field, bounds, h);
  }
  if (l.inside < 4) return Error{pointer, "the shape holds too few particles for a soft body"};

  SoftBody b;
  b.desc_ = desc;
  b.h_ = h;
  b.radius_ = 0.5f * h;
  b.restVolume_ = float(l.inside) * h * h * h;
  b.mass_ = gravity::massOf(desc.density, b.restVolume_);
  if (!(b.mass_ > 0.0f)) return Error{pointer, "a soft body needs a positive mass"};
  b.invMass_ = float(l.inside) / b.mass_;

  b.rest_.reserve(l.inside);
  for (int k = 0; k < l.n[2]; ++k)
    for (int j = 0; j < l.n[1]; ++j)
      for (int i = 0; i < l.n[0]; ++i)
        if (l.index[(std::size_t(k) * l.n[1] + j) * l.n[0] + i] >= 0)
          b.rest_.push_back(l.origin + Vec3(float(i), float(j), float(k)) * h);

  std::vector<std::uint64_t> edges;
  auto at = [&](int i, int j, int k) {
    return l.index[(std::size_t(k) * l.n[1] + std::size_t(j)) * l.n[0] + std::size_t(i)];
  };
  for (int k = 0; k + 1 < l.n[2]; ++k)
    for (int j = 0; j + 1 < l.n[1]; ++j)
      for (int i = 0; i + 1 < l.n[0]; ++i) {
        std::int32_t c[8];
        bool full = true;
        for (int corner = 0; corner < 8 && full; ++corner) {
          c[corner] = at(i + (corner & 1), j + ((corner >> 1) & 1), k + ((corner >> 2) & 1));
          full = c[corner] >= 0;
        }
        if (!full) continue;
        const auto& split = ((i + j + k) & 1) == 0 ? kEvenTets : kOddTets;
        for (const auto& t : split) {
          std::array<std::uint32_t, 4> tet{std::uint32_t(c[t[0]]), std::uint32_t(c[t[1]]),
                                           std::uint32_t(c[t[2]]), std::uint32_t(c[t[3]])};
          float v =
              signedVolume(b.rest_[tet[0]], b.rest_[tet[1]], b.rest_[tet[2]], b.rest_[tet[3]]);
          if (v < 0.0f) std::swap(tet[2], tet[3]), v = -v;
          b.tets_.push_back(tet);
          b.tetRest_.push_back(v);
          b.tetCube_.push_back({std::uint32_t(c[0]), std::uint32_t(c[1]), std::uint32_t(c[2]),
                                std::uint32_t(c[3]), std::uint32_t(c[4]), std::uint32_t(c[5]),
                                std::uint32_t(c[6]), std::uint32_t(c[7])});
          b.tetRestVolume_ += v;
          for (int e0 = 0; e0 < 4; ++e0)
            for (int e1 = e0 + 1; e1 < 4; ++e1) {
              const std::uint64_t lo = std::min(tet[e0], tet[e1]), hi = std::max(tet[e0], tet[e1]);
              edges.push_back(lo << 32 | hi);
            }
        }
      }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  {
    const auto edgeOrder = colouredOrder(edges.size(), b.rest_.size(), [&](std::size_t i) {
      return std::array<std::uint32_t, 2>{std::uint32_t(edges[i] >> 32),
                                          std::uint32_t(edges[i] & 0xffffffffu)};
    });
    std::vector<std::uint64_t> ordered;
    for (std::uint32_t i : edgeOrder) ordered.push_back(edges[i]);
    edges = std::move(ordered);
    const auto tetOrder =
        colouredOrder(b.tets_.size(), b.rest_.size(), [&](std::size_t i) { return b.tets_[i]; });
    std::vector<std::array<std::uint32_t, 4>> tets;
    std::vector<std::array<std::uint32_t, 8>> cubes;
    std::vector<float> rest;
    for (std::uint32_t i : tetOrder)
      tets.push_back(b.tets_[i]), rest.push_back(b.tetRest_[i]), cubes.push_back(b.tetCube_[i]);
    b.tets_ = std::move(tets);
    b.tetRest_ = std::move(rest);
    b.tetCube_ = std::move(cubes);
  }
  for (std::uint64_t e : edges) {
    const auto a = std::uint32_t(e >> 32), c = std::uint32_t(e & 0xffffffffu);
    b.edgeA_.push_back(a);
    b.edgeB_.push_back(c);
    b.edgeRest_.push_back(glm::length(b.rest_[c] - b.rest_[a]));
  }

  {
    // Each tetrahedron's edges by index (a snapped edge takes its tetrahedra with it).
    std::vector<std::pair<std::uint64_t, std::uint32_t>> byKey;
    for (std::size_t e = 0; e < edges.size(); ++e) byKey.emplace_back(edges[e], std::uint32_t(e));
    std::sort(byKey.begin(), byKey.end());
    for (const auto& tet : b.tets_) {
      std::array<std::uint32_t, 6> ids{};
      int k = 0;
      for (int e0 = 0; e0 < 4; ++e0)
        for (int e1 = e0 + 1; e1 < 4; ++e1) {
          const std::uint64_t lo = std::min(tet[e0], tet[e1]), hi = std::max(tet[e0], tet[e1]);
          const auto it = std::lower_bound(byKey.begin(), byKey.end(),
                                           std::make_pair(lo << 32 | hi, std::uint32_t(0)));
          ids[k++] = it->second;
        }
      b.tetEdges_.push_back(ids);
    }
  }
  if (!(desc.bulkModulus > 0.0f) || !std::isfinite(desc.bulkModulus))
    return Error{pointer, "a soft body's material needs a positive bulk_modulus"};
  b.state_.edgeRest = b.edgeRest_;
  b.state_.tetRest = b.tetRest_;
  b.state_.tetYield.assign(b.tets_.size(), desc.yieldStrength);
  b.state_.particleScale.assign(b.rest_.size(), 1.0f);
  if (desc.visco) {
    b.state_.edgeBroken.assign(b.edgeRest_.size(), 0);
    b.state_.tetBroken.assign(b.tets_.size(), 0);
  }
  b.state_.position = b.rest_;
  b.state_.velocity.assign(b.rest_.size(), desc.velocity);
  const Vec3 c0 = b.centroid();
  for (Vec3 p : b.rest_) b.restLocal_.push_back(p - c0);
  b.previous_ = b.rest_;
  b.prepareSolver();
  return b;
}

}  // namespace floptle::matter
