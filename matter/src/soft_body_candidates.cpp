// The step's world contact candidates (SoftBody::beginStep): the particles that could reach the
// world within the step, the only ones collide() asks each substep.
//
// Particle i is a candidate when world.distance(x_i) < reach_i = 2 r + |v_i| dt + |g| dt^2 +
// band, the most it can close on a surface in the step (with its radius r twice over as margin).
// Asking the world at every particle is most of a step's fixed cost, so the particles are asked
// in blocks first (2 x 2 x 2 lattice neighbours at rest, SoftBody::prepareSolver). The world's
// distance never exceeds the true distance to its surfaces (a distance bound: sphere tracing
// leans on it too) and the true distance changes by no more than the point moves, so when a
// block's centre c is farther than max |x_m - c| + max reach_m from the world, every particle
// of the block is truly farther than its reach from every surface: none can touch one within
// the step, and its particles are not asked. For exact distances these are particles that
// asking one by one leaves out as well (the same candidates). The other blocks' particles are
// asked one by one, and the candidates stay in particle order.
#include <algorithm>
#include <cmath>

#include "floptle/matter/soft_body.h"

namespace floptle::matter {

void SoftBody::groupParticles() {
  // Blocks of the rest lattice: cell = floor((x0 - min) / h + 1/2) / 2 per axis (the rest
  // positions sit on a lattice of spacing h, so the rounding is far from ties).
  const std::size_t n = rest_.size();
  blockFirst_.clear(), blockMembers_.clear();
  if (n == 0) return;
  Vec3 lo = rest_[0];
  for (Vec3 p : rest_) lo = glm::min(lo, p);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;
  keyed.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::uint64_t key = 0;
    for (int a = 0; a < 3; ++a) {
      const auto cell = std::uint64_t(std::floor((rest_[i][a] - lo[a]) / h_ + 0.5f)) / 2u;
      key = key << 21 | (cell & 0x1fffffu);
    }
    keyed.emplace_back(key, i);
  }
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t k = 0; k < keyed.size(); ++k) {
    if (k == 0 || keyed[k].first != keyed[k - 1].first)
      blockFirst_.push_back(std::uint32_t(blockMembers_.size()));
    blockMembers_.push_back(keyed[k].second);
  }
  blockFirst_.push_back(std::uint32_t(blockMembers_.size()));
}

bool SoftBody::mayTouch(const physics::CollisionWorld& world, float fall) const {
  if (world.size() > kBoxTestColliders) return true;
  // A collider's distance is never below the distance to its box (CollisionWorld's bound): a
  // particle within `reach` of a surface is within reach of its box. The largest reach is
  // 2 r + |v|max dt + fall + band; bounds() already holds r.
  float fastest = 0.0f;
  for (Vec3 v : state_.velocity) fastest = std::max(fastest, glm::dot(v, v));
  const float reach = 2.0f * radius_ + std::sqrt(fastest) * stepDt_ + fall +
                      (desc_.visco ? desc_.viscoKnobs.contactBand : 0.0f);
  Aabb box = bounds();
  box.min -= Vec3(reach);
  box.max += Vec3(reach);
  for (physics::ColliderId id : world.ids())
    if (world.collidable(id) && world.colliderAabb(id).overlaps(box)) return true;
  return false;
}

void SoftBody::findCandidates(const physics::CollisionWorld& world, double t, float fall) {
  candidates_.clear();
  if (!mayTouch(world, fall)) return;
  const std::size_t n = state_.position.size();
  const std::vector<Vec3>& x = state_.position;
  const float band = desc_.visco ? desc_.viscoKnobs.contactBand : 0.0f;
  reach_.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    reach_[i] = 2.0f * radius_ + glm::length(state_.velocity[i]) * stepDt_ + fall + band;
  // Blocks far from the world: their particles are not asked (see the top of the file). The
  // margin (a hundredth of the radius) covers the float rounding of the bound.
  unasked_.assign(n, 0);
  const float margin = 0.01f * radius_;
  for (std::size_t b = 0; b + 1 < blockFirst_.size(); ++b) {
    const std::uint32_t* m = blockMembers_.data() + blockFirst_[b];
    const std::size_t count = blockFirst_[b + 1] - blockFirst_[b];
    if (count < 2) continue;  // one particle: its own question
    Vec3 c(0.0f);
    for (std::size_t k = 0; k < count; ++k) c += x[m[k]];
    c /= float(count);
    float spread = 0.0f, reach = 0.0f;
    for (std::size_t k = 0; k < count; ++k) {
      spread = std::max(spread, glm::length(x[m[k]] - c));
      reach = std::max(reach, reach_[m[k]]);
    }
    ++counters_.distanceQueries;
    if (world.distance(c, t) > spread + reach + margin)
      for (std::size_t k = 0; k < count; ++k) unasked_[m[k]] = 1;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    if (unasked_[i]) continue;
    ++counters_.distanceQueries;
    if (world.distance(x[i], t) < reach_[i]) candidates_.push_back(i);
  }
}

}  // namespace floptle::matter
