// Contacts and bonds between soft bodies (steps 2b, 2c and 3 of soft_body_stage.h).
#include <algorithm>
#include <cmath>

#include "floptle/matter/bond.h"
#include "floptle/matter/soft_body_stage.h"
#include "floptle/matter/xpbd.h"

namespace floptle::matter {
namespace {

/// The particles of a body in a uniform grid of cell `cell` (m): (cell key, particle) sorted,
/// so a lookup is a binary search and the order is deterministic.
struct ParticleGrid {
  float cell = 1.0f;
  std::vector<std::pair<std::uint64_t, std::uint32_t>>& entries;  ///< the caller's scratch

  static std::uint64_t key(int x, int y, int z) {
    const auto u = [](int v) { return std::uint64_t(std::uint32_t(v + (1 << 20))) & 0x1fffffu; };
    return u(x) << 42 | u(y) << 21 | u(z);
  }
  glm::ivec3 cellOf(Vec3 p) const { return glm::ivec3(glm::floor(p / cell)); }

  ParticleGrid(const std::vector<Vec3>& x, float c,
               std::vector<std::pair<std::uint64_t, std::uint32_t>>& scratch)
      : cell(c), entries(scratch) {
    entries.clear();
    entries.reserve(x.size());
    for (std::uint32_t i = 0; i < x.size(); ++i) {
      const glm::ivec3 k = cellOf(x[i]);
      entries.emplace_back(key(k.x, k.y, k.z), i);
    }
    std::sort(entries.begin(), entries.end());
  }

  /// Calls f(particle) for every particle in the 27 cells around p, in a fixed order.
  template <class F>
  void near(Vec3 p, const F& f) const {
    const glm::ivec3 c = cellOf(p);
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const std::uint64_t k = key(c.x + dx, c.y + dy, c.z + dz);
          auto it = std::lower_bound(entries.begin(), entries.end(), std::make_pair(k, 0u));
          for (; it != entries.end() && it->first == k; ++it) f(it->second);
        }
  }
};

bool overlap(const Aabb& a, const Aabb& b, float margin) {
  return a.min.x <= b.max.x + margin && b.min.x <= a.max.x + margin &&
         a.min.y <= b.max.y + margin && b.min.y <= a.max.y + margin &&
         a.min.z <= b.max.z + margin && b.min.z <= a.max.z + margin;
}

/// The band within which body `b` bonds (0 when it is not sticky).
float stickyBand(const SoftBody& b) {
  return b.desc().visco && b.desc().viscoKnobs.stickiness > 0.0f ? b.desc().viscoKnobs.contactBand
                                                                 : 0.0f;
}

}  // namespace

void SoftBodyStage::collideBodies(int& bondsLeft) {
  for (std::uint32_t i = 0; i < bodies_.size(); ++i)
    for (std::uint32_t j = i + 1; j < bodies_.size(); ++j) collidePair(i, j, bondsLeft);
}

void SoftBodyStage::collidePair(std::uint32_t i, std::uint32_t j, int& bondsLeft) {
  SoftBody& a = bodies_[i];
  SoftBody& b = bodies_[j];
  const bool openA = open_[i] != 0, openB = open_[j] != 0;
  if (!openA && !openB) return;  // neither moves in this substep: no new overlap to resolve
  const bool movesA = openA || active_[i], movesB = openB || active_[j];
  const float band = std::max(stickyBand(a), stickyBand(b));
  const float reach = a.radius() + b.radius();
  if (!overlap(a.bounds(), b.bounds(), band)) return;
  const bool sticky = band > 0.0f;
  const float mu = 0.5f * (a.desc().friction + b.desc().friction);
  // A body that does not step (asleep, deferred) is immovable (w = 0).
  const float wa = movesA ? a.inverseParticleMass() : 0.0f;
  const float wb = movesB ? b.inverseParticleMass() : 0.0f;
  const ParticleGrid grid(b.state().position, reach + band, gridEntries_);
  const Aabb boxB = b.bounds();
  std::vector<std::uint8_t>& bonded = bonded_;
  if (sticky) {
    bonded.assign(a.particleCount(), 0);
    for (const BodyBond& bond : bonds_)
      if (bond.bodyA == i && bond.bodyB == j) bonded[bond.particleA] = 1;
  }
  const std::vector<Vec3>& xa = a.state().position;
  const std::vector<Vec3>& xb = b.state().position;
  for (std::uint32_t p = 0; p < xa.size(); ++p) {
    if (!overlap(Aabb{xa[p], xa[p]}, boxB, a.radius() + band)) continue;
    float nearest = reach + band;
    std::uint32_t nearestQ = ~0u;
    grid.near(xa[p], [&](std::uint32_t q) {
      const Vec3 d = xa[p] - xb[q];
      const float len = glm::length(d);
      if (len < nearest) nearest = len, nearestQ = q;
      const float depth = reach - len;
      if (depth <= 0.0f || len < 1e-9f) return;
      ++counters_.bodyContacts;
      if (a.state().asleep && depth > SoftBody::kWakeDistance) a.wake(), ++counters_.bodiesWoken;
      if (b.state().asleep && depth > SoftBody::kWakeDistance) b.wake(), ++counters_.bodiesWoken;
      if (wa + wb <= 0.0f) return;
      const Vec3 n = d / len;
      const float shareA = wa / (wa + wb), shareB = wb / (wa + wb);
      // Coulomb friction: the pair's relative tangential motion in this substep (a closed
      // body did not move) loses up to mu depth.
      const Vec3 movedA = openA ? xa[p] - a.substepStart()[p] : Vec3(0.0f);
      const Vec3 movedB = openB ? xb[q] - b.substepStart()[q] : Vec3(0.0f);
      const Vec3 rel = movedA - movedB;
      const Vec3 tangential = rel - glm::dot(rel, n) * n;
      const float slide = glm::length(tangential);
      const float limit = mu * depth;
      const Vec3 cut = slide <= limit ? tangential
                       : slide > 0.0f ? tangential * (limit / slide)
                                      : Vec3(0.0f);
      move(a, openA, movesA, p, n * (depth * shareA) - cut * shareA);
      move(b, openB, movesB, q, -n * (depth * shareB) + cut * shareB);
    });
    if (!sticky || nearestQ == ~0u || bonded[p] || bondsLeft <= 0 || !(nearest > 1e-6f)) continue;
    bonds_.push_back({i, p, j, nearestQ, nearest, nearest});
    bonded[p] = 1;
    --bondsLeft;
    ++counters_.bodyBondsCreated;
  }
}

void SoftBodyStage::move(SoftBody& body, bool open, bool moves, std::uint32_t particle, Vec3 dx) {
  if (open)
    body.push(particle, dx);
  else if (moves)
    body.shove(particle, dx);
}

const SoftBody& SoftBodyStage::stickySide(const BodyBond& bond) const {
  const SoftBody& a = bodies_[bond.bodyA];
  const SoftBody& b = bodies_[bond.bodyB];
  // The larger stickiness (a only when b is not stickier).
  return stickyBand(b) > 0.0f && (!(stickyBand(a) > 0.0f) ||
                                  b.desc().viscoKnobs.stickiness > a.desc().viscoKnobs.stickiness)
             ? b
             : a;
}

void SoftBodyStage::solveBodyBonds() {
  for (const BodyBond& bond : bonds_) {
    SoftBody& a = bodies_[bond.bodyA];
    SoftBody& b = bodies_[bond.bodyB];
    const bool openA = open_[bond.bodyA] != 0, openB = open_[bond.bodyB] != 0;
    if (!openA && !openB) continue;
    const bool movesA = openA || active_[bond.bodyA], movesB = openB || active_[bond.bodyB];
    const SoftBody& sticky = stickySide(bond);
    const float wa = movesA ? a.inverseParticleMass() : 0.0f;
    const float wb = movesB ? b.inverseParticleMass() : 0.0f;
    // alpha / dt_sub^2 with alpha = (1/s - 1) dt_sub^2 w: lambda starts at 0 each substep.
    const float alphaTilde =
        (1.0f / sticky.desc().viscoKnobs.stickiness - 1.0f) * sticky.inverseParticleMass();
    Vec3 pa = a.state().position[bond.particleA];
    Vec3 pb = b.state().position[bond.particleB];
    const Vec3 a0 = pa, b0 = pb;
    float lambda = 0.0f;
    solveDistance(pa, pb, wa, wb, bond.rest, alphaTilde, lambda);
    move(a, openA, movesA, bond.particleA, pa - a0);
    move(b, openB, movesB, bond.particleB, pb - b0);
  }
}

void SoftBodyStage::ruleBodyBonds() {
  std::size_t kept = 0;
  for (std::size_t k = 0; k < bonds_.size(); ++k) {
    BodyBond bond = bonds_[k];
    const ViscoKnobs& knobs = stickySide(bond).desc().viscoKnobs;
    const float length = glm::length(bodies_[bond.bodyA].state().position[bond.particleA] -
                                     bodies_[bond.bodyB].state().position[bond.particleB]);
    if (updateBond(length, bond.rest, bond.formed, knobs.yieldStrain, knobs.breakStrain) ==
        BondChange::Broken) {
      ++counters_.bodyBondsBroken;
      continue;
    }
    bonds_[kept++] = bond;
  }
  bonds_.resize(kept);
}

}  // namespace floptle::matter
