// The Visco tier's bonds (soft_body.h): adhesion anchors, bond.h's elastoplastic rule, cuts,
// connected components and the split of a body into its components.
#include <algorithm>
#include <numeric>

#include "floptle/matter/bond.h"
#include "floptle/matter/soft_body.h"
#include "floptle/matter/xpbd.h"

namespace floptle::matter {
namespace {

/// Union-find root with path halving.
std::uint32_t root(std::vector<std::uint32_t>& parent, std::uint32_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

void SoftBody::solveAnchors() {
  const float s = desc_.viscoKnobs.stickiness;
  if (state_.anchorParticle.empty() || !(s > 0.0f)) return;
  // The edge mapping: alpha~ = (1/s - 1) w, the anchor an immovable end (w = 0).
  const float alphaTilde = (1.0f / s - 1.0f) * invMass_;
  for (std::size_t a = 0; a < state_.anchorParticle.size(); ++a) {
    Vec3 anchor = state_.anchorPoint[a];
    float lambda = 0.0f;
    solveDistance(state_.position[state_.anchorParticle[a]], anchor, invMass_, 0.0f,
                  state_.anchorRest[a], alphaTilde, lambda);
  }
}

void SoftBody::applyBondRules() {
  if (!desc_.visco) return;
  const float yield = desc_.viscoKnobs.yieldStrain, brk = desc_.viscoKnobs.breakStrain;
  const std::vector<Vec3>& x = state_.position;
  bool snapped = false;
  for (std::size_t e = 0; e < edgeA_.size(); ++e) {
    if (state_.edgeBroken[e]) continue;
    const float length = glm::length(x[edgeB_[e]] - x[edgeA_[e]]);
    switch (updateBond(length, state_.edgeRest[e], edgeRest_[e], yield, brk)) {
      case BondChange::Broken:
        state_.edgeBroken[e] = 1;
        snapped = true;
        ++counters_.bondsBroken;
        break;
      case BondChange::Yielded:
        ++counters_.bondsYielded;
        break;
      case BondChange::Elastic:
        break;
    }
  }
  // Adhesion bonds: the same rule; a snapped one is removed (order kept: deterministic).
  std::size_t kept = 0;
  for (std::size_t a = 0; a < state_.anchorParticle.size(); ++a) {
    const float length = glm::length(x[state_.anchorParticle[a]] - state_.anchorPoint[a]);
    if (updateBond(length, state_.anchorRest[a], state_.anchorFormed[a], yield, brk) ==
        BondChange::Broken) {
      ++counters_.bondsBroken;
      continue;
    }
    state_.anchorParticle[kept] = state_.anchorParticle[a];
    state_.anchorPoint[kept] = state_.anchorPoint[a];
    state_.anchorRest[kept] = state_.anchorRest[a];
    state_.anchorFormed[kept] = state_.anchorFormed[a];
    ++kept;
  }
  state_.anchorParticle.resize(kept);
  state_.anchorPoint.resize(kept);
  state_.anchorRest.resize(kept);
  state_.anchorFormed.resize(kept);
  if (!snapped) return;
  for (std::size_t t = 0; t < tets_.size(); ++t)
    for (std::uint32_t e : tetEdges_[t])
      if (state_.edgeBroken[e]) state_.tetBroken[t] = 1;
}

void SoftBody::severBondsCrossing(Vec3 point, Vec3 normal) {
  if (!desc_.visco) return;
  const std::vector<Vec3>& x = state_.position;
  for (std::size_t e = 0; e < edgeA_.size(); ++e) {
    const float a = glm::dot(x[edgeA_[e]] - point, normal);
    const float b = glm::dot(x[edgeB_[e]] - point, normal);
    if ((a < 0.0f && b > 0.0f) || (a > 0.0f && b < 0.0f)) state_.edgeBroken[e] = 1;
  }
  for (std::size_t t = 0; t < tets_.size(); ++t)
    for (std::uint32_t e : tetEdges_[t])
      if (state_.edgeBroken[e]) state_.tetBroken[t] = 1;
}

std::size_t SoftBody::bondCount() const {
  if (!desc_.visco) return 0;
  const auto alive = std::count(state_.edgeBroken.begin(), state_.edgeBroken.end(), 0);
  return std::size_t(alive) + state_.anchorParticle.size();
}

std::vector<std::uint32_t> SoftBody::components() const {
  const std::size_t n = state_.position.size();
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  for (std::size_t e = 0; e < edgeA_.size(); ++e) {
    if (desc_.visco && state_.edgeBroken[e]) continue;
    const std::uint32_t a = root(parent, edgeA_[e]), b = root(parent, edgeB_[e]);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  // Numbered by first particle: a root is always its component's smallest index.
  std::vector<std::uint32_t> label(n, ~0u), out(n);
  std::uint32_t next = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t r = root(parent, i);
    if (label[r] == ~0u) label[r] = next++;
    out[i] = label[r];
  }
  return out;
}

std::size_t SoftBody::componentCount() const {
  const std::vector<std::uint32_t> c = components();
  return c.empty() ? 0 : std::size_t(*std::max_element(c.begin(), c.end())) + 1;
}

std::vector<SoftBody> SoftBody::split() const {
  const std::vector<std::uint32_t> of = components();
  const std::size_t count =
      of.empty() ? 0 : std::size_t(*std::max_element(of.begin(), of.end())) + 1;
  if (count <= 1) return {*this};
  std::vector<SoftBody> pieces(count);
  std::vector<std::uint32_t> local(of.size());
  for (std::size_t k = 0; k < count; ++k) {
    SoftBody& b = pieces[k];
    b.desc_ = desc_;
    b.desc_.piece = int(k) + 1;
    b.h_ = h_, b.radius_ = radius_, b.invMass_ = invMass_;
    b.state_.rotation = state_.rotation;
  }
  for (std::uint32_t i = 0; i < of.size(); ++i) {
    SoftBody& b = pieces[of[i]];
    local[i] = std::uint32_t(b.rest_.size());
    b.rest_.push_back(rest_[i]);
    b.state_.position.push_back(state_.position[i]);
    b.state_.velocity.push_back(state_.velocity[i]);
    b.state_.particleScale.push_back(state_.particleScale[i]);
    if (!state_.particleStress.empty()) b.state_.particleStress.push_back(state_.particleStress[i]);
  }
  for (std::size_t e = 0; e < edgeA_.size(); ++e) {
    if (state_.edgeBroken[e]) continue;  // a split body has snapped edges: it is visco
    SoftBody& b = pieces[of[edgeA_[e]]];
    b.edgeA_.push_back(local[edgeA_[e]]);
    b.edgeB_.push_back(local[edgeB_[e]]);
    b.edgeRest_.push_back(edgeRest_[e]);
    b.state_.edgeRest.push_back(state_.edgeRest[e]);
    b.state_.edgeBroken.push_back(0);
  }
  for (std::size_t t = 0; t < tets_.size(); ++t) {
    if (state_.tetBroken[t]) continue;  // whole tetrahedra only: all 6 edges hold
    const std::uint32_t piece = of[tets_[t][0]];
    SoftBody& b = pieces[piece];
    b.tets_.push_back(
        {local[tets_[t][0]], local[tets_[t][1]], local[tets_[t][2]], local[tets_[t][3]]});
    std::array<std::uint32_t, 8> cube{};  // corners left in another piece: its first corner
    for (int c = 0; c < 8; ++c)
      cube[c] = of[tetCube_[t][c]] == piece ? local[tetCube_[t][c]] : local[tets_[t][0]];
    b.tetCube_.push_back(cube);
    b.tetRest_.push_back(tetRest_[t]);
    b.tetRestVolume_ += tetRest_[t];
    b.state_.tetBroken.push_back(0);
    b.state_.tetRest.push_back(state_.tetRest[t]);
    b.state_.tetYield.push_back(state_.tetYield[t]);
  }
  for (std::size_t a = 0; a < state_.anchorParticle.size(); ++a) {
    SoftBody& b = pieces[of[state_.anchorParticle[a]]];
    b.state_.anchorParticle.push_back(local[state_.anchorParticle[a]]);
    b.state_.anchorPoint.push_back(state_.anchorPoint[a]);
    b.state_.anchorRest.push_back(state_.anchorRest[a]);
    b.state_.anchorFormed.push_back(state_.anchorFormed[a]);
  }
  for (SoftBody& b : pieces) {
    // The piece's edges of each tetrahedron, by lookup in its own edge list.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> byKey;
    for (std::uint32_t e = 0; e < b.edgeA_.size(); ++e) {
      const std::uint64_t lo = std::min(b.edgeA_[e], b.edgeB_[e]),
                          hi = std::max(b.edgeA_[e], b.edgeB_[e]);
      byKey.emplace_back(lo << 32 | hi, e);
    }
    std::sort(byKey.begin(), byKey.end());
    for (const auto& tet : b.tets_) {
      std::array<std::uint32_t, 6> ids{};
      int k = 0;
      for (int e0 = 0; e0 < 4; ++e0)
        for (int e1 = e0 + 1; e1 < 4; ++e1) {
          const std::uint64_t lo = std::min(tet[e0], tet[e1]), hi = std::max(tet[e0], tet[e1]);
          ids[k++] = std::lower_bound(byKey.begin(), byKey.end(),
                                      std::make_pair(lo << 32 | hi, std::uint32_t(0)))
                         ->second;
        }
      b.tetEdges_.push_back(ids);
    }
    float compacted = 0.0f;
    for (float v : b.state_.tetRest) compacted += v;
    b.state_.restRatio = b.tetRestVolume_ > 0.0f ? compacted / b.tetRestVolume_ : 1.0f;
    const float n = float(b.rest_.size());
    b.mass_ = n / invMass_;
    b.restVolume_ = restVolume_ * (n / float(rest_.size()));
    glm::dvec3 sum(0.0);
    for (Vec3 p : b.rest_) sum += glm::dvec3(p);
    const Vec3 c0(sum / double(b.rest_.size()));
    for (Vec3 p : b.rest_) b.restLocal_.push_back(p - c0);
    b.previous_ = b.state_.position;
    b.predicted_ = b.state_.position;
    b.prepareSolver();
  }
  return pieces;
}

}  // namespace floptle::matter
