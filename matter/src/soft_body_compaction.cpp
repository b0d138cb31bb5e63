// Compaction of a soft body (seed 001 section 5; the scheme in soft_body.h): the particles'
// compressive stresses from the solver's measured virials, and the plastic rest-volume shrink
// of the tetrahedra whose pressure passes their yield.
#include <algorithm>
#include <cmath>
#include <limits>

#include "floptle/matter/soft_body.h"

namespace floptle::matter {

float SoftBody::compactedScale() const {
  return state_.restRatio == 1.0f ? 1.0f : std::cbrt(state_.restRatio);
}

float SoftBody::tetPressure(std::size_t t) const {
  const std::vector<float>& s = state_.particleStress;
  if (s.empty()) return 0.0f;
  float sum = 0.0f;
  for (std::uint32_t i : tetCube_[t]) sum += s[i];
  return 0.125f * sum;
}

void SoftBody::finishStress(float h, int measured) {
  const std::size_t n = state_.position.size();
  if (virial_.size() != n) return;  // no measuring substep ran
  // s_i = virial_i / (dt_sub^2 V_i), V_i = volume now / particles.
  const float cell = volumeOf(sumTetVolumes(packed_)) / float(n);
  const float scale = cell > 0.0f ? 1.0f / (h * h * cell * float(measured)) : 0.0f;
  state_.particleStress.resize(n);
  for (std::size_t i = 0; i < n; ++i) state_.particleStress[i] = virial_[i] * scale;
}

void SoftBody::compact() {
  if (state_.particleStress.empty()) return;
  // A tetrahedron's pressure is a mean of particle stresses, so it never passes the largest
  // of them (by more than the float sum's rounding, far below the margin of 1e-4): below the
  // least yield pressure nothing compacts, without the pass over the tetrahedra.
  float most = -std::numeric_limits<float>::infinity();
  for (float s : state_.particleStress) most = std::max(most, s);
  float least = std::numeric_limits<float>::infinity();
  for (float y : state_.tetYield) least = std::min(least, y);
  if (most + std::fabs(most) * 1e-4f < least) return;
  const float k = desc_.bulkModulus;
  bool changed = false;
  for (std::size_t t = 0; t < tets_.size(); ++t) {
    if (desc_.visco && state_.tetBroken[t]) continue;
    const float p = tetPressure(t);
    float& yield = state_.tetYield[t];
    if (!(p > yield)) continue;  // elastic
    // V0 <- V0 (1 - (P - P_y) / K), at most halving in one step; consolidated to P.
    state_.tetRest[t] *= std::max(0.5f, 1.0f - (p - yield) / k);
    yield = p;
    changed = true;
    ++counters_.tetsCompacted;
  }
  if (!changed) return;
  // The compacted rest shape: s_i = cbrt(mean over its tetrahedra of V0 / V0_initial).
  const std::size_t n = state_.position.size();
  std::vector<float> ratio(n, 0.0f);
  std::vector<std::uint16_t> count(n, 0);
  float sum = 0.0f;
  for (std::size_t t = 0; t < tets_.size(); ++t) {
    sum += state_.tetRest[t];
    const float r = state_.tetRest[t] / tetRest_[t];
    for (std::uint32_t i : tets_[t]) ratio[i] += r, ++count[i];
  }
  state_.restRatio = tetRestVolume_ > 0.0f ? sum / tetRestVolume_ : 1.0f;
  std::vector<float> before = state_.particleScale;
  for (std::size_t i = 0; i < n; ++i)
    if (count[i] > 0) state_.particleScale[i] = std::cbrt(ratio[i] / float(count[i]));
  for (std::size_t e = 0; e < edgeA_.size(); ++e) {
    const std::uint32_t a = edgeA_[e], b = edgeB_[e];
    const float now = state_.particleScale[a] + state_.particleScale[b];
    const float was = before[a] + before[b];
    if (now != was) state_.edgeRest[e] *= now / was;
  }
}

}  // namespace floptle::matter
