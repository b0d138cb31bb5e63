// SoftBody's constraint sweeps (the distance and volume updates of soft_body.h), kLanes
// constraints at a time.
//
// Layout: the constraints stay in their solve order (colour by colour, soft_body_build.cpp),
// cut into batches of at most kLanes consecutive ones that share no particle (a batch ends
// early where the next constraint touches one of its particles, at colour boundaries). The
// lanes of a batch are independent, so solving them side by side gives the bits of the
// one-at-a-time Gauss-Seidel sweep in the same order: every lane computes exactly the scalar
// update's operations in the scalar order (soft_body_sweep.h), and the batches run in sweep
// order (backwards on backward substeps). Positions are read from the packed copy (x, y, z, 0
// per particle, 16-byte aligned) that solveSubstep keeps; padding lanes name the zero slot past
// the last particle and are masked off (never written).
#include <cmath>
#include <vector>

#include "soft_body_particles.h"
#include "soft_body_sweep.h"

namespace floptle::matter {
namespace {

constexpr int kLanes = SoftBody::kLanes;

/// Mueller et al. 2016, "A Robust Method to Extract the Rotational Part of Deformations":
/// the rotation R maximizing tr(R^T A), iterated from the warm start q.
Quat extractRotation(const Mat3& a, Quat q, int iterations) {
  for (int it = 0; it < iterations; ++it) {
    const Mat3 r = glm::mat3_cast(q);
    const Vec3 num = glm::cross(r[0], a[0]) + glm::cross(r[1], a[1]) + glm::cross(r[2], a[2]);
    const float den =
        std::fabs(glm::dot(r[0], a[0]) + glm::dot(r[1], a[1]) + glm::dot(r[2], a[2])) + 1e-9f;
    const Vec3 omega = num / den;
    const float w = glm::length(omega);
    if (w < 1e-9f) break;
    q = glm::normalize(glm::angleAxis(w, omega / w) * q);
  }
  return q;
}

/// Cuts `count` constraints of `arity` particles each (vertex(c, k): constraint c's k-th)
/// into batches of consecutive ones sharing no particle (see the top of this file): `first`
/// each batch's first constraint (lane l holds first + l), `ends` kLanes x arity particles
/// per batch as sweep::offsetOf gives them, corner k of lane l at [k kLanes + l] (padding: the
/// zero slot's), `mask` the real lanes' bits (the first ones).
template <int kArity, class Vertex>
void makeBatches(std::size_t count, std::size_t particles, const Vertex& vertex,
                 std::vector<std::uint32_t>& first, std::vector<std::uint32_t>& ends,
                 std::vector<std::uint8_t>& mask) {
  first.clear(), ends.clear(), mask.clear();
  const std::uint32_t zeroSlot = sweep::offsetOf(particles);
  std::vector<std::uint32_t> taken(particles, ~0u);  // the batch that holds each particle
  std::size_t c = 0;
  while (c < count) {
    const auto batch = std::uint32_t(mask.size());
    std::uint32_t members[kLanes];
    int used = 0;
    for (; used < kLanes && c < count; ++used, ++c) {
      bool free = true;
      for (int k = 0; k < kArity; ++k) free = free && taken[vertex(c, k)] != batch;
      if (!free) break;
      for (int k = 0; k < kArity; ++k) taken[vertex(c, k)] = batch;
      members[used] = std::uint32_t(c);
    }
    const std::size_t base = ends.size();
    ends.resize(base + std::size_t(kLanes) * kArity, zeroSlot);
    first.push_back(members[0]);
    for (int l = 0; l < used; ++l) {
      for (int k = 0; k < kArity; ++k)
        ends[base + std::size_t(k) * kLanes + std::size_t(l)] =
            sweep::offsetOf(vertex(members[l], k));
    }
    mask.push_back(std::uint8_t((1u << used) - 1u));
  }
}

}  // namespace

void SoftBody::prepareSolver() {
  const std::size_t n = rest_.size();
  makeBatches<2>(
      edgeA_.size(), n, [&](std::size_t e, int k) { return k == 0 ? edgeA_[e] : edgeB_[e]; },
      edgeFirst_, edgeEnds_, edgeMask_);
  makeBatches<4>(
      tets_.size(), n, [&](std::size_t t, int k) { return tets_[t][std::size_t(k)]; }, tetFirst_,
      tetEnds_, tetMask_);
  groupParticles();
  packed_.assign(n + 1, Packed{});
  restPacked_.assign(n + 1, Packed{});
  for (std::size_t i = 0; i < restLocal_.size() && i < n; ++i)
    restPacked_[i] = {restLocal_[i].x, restLocal_[i].y, restLocal_[i].z, 0.0f};
}

void SoftBody::packPositions() {
  particles::pack(state_.position.size(), state_.position.data(),
                  measuring_ ? virial_.data() : nullptr, packed_.data());
}

void SoftBody::unpackPositions() {
  particles::unpack(state_.position.size(), packed_.data(), state_.position.data(),
                    measuring_ ? virial_.data() : nullptr);
}

template <bool kMeasure>
void SoftBody::solveDistances() {
  const float s = desc_.knobs.stiffness;
  // alpha~ = alpha / dt_sub^2 = (1/s - 1) w; lambda starts at 0 each substep (one sweep), so
  // xpbd.h's dlambda = (-C - alpha~ 0) / (w_a + w_b + alpha~) = -C / (2 w + alpha~).
  const float alphaTilde = (1.0f / s - 1.0f) * invMass_;
  sweep::Distances args;
  args.x = packed_.data();
  args.first = edgeFirst_.data();
  args.ends = edgeEnds_.data();
  args.mask = edgeMask_.data();
  args.batches = edgeMask_.size();
  // Alternate sweep directions (symmetric Gauss-Seidel over substeps): one fixed order
  // biases the corrections and spins a body up.
  args.backward = backward_;
  args.rest = state_.edgeRest.data();  // compacted, and plastic for visco
  args.broken = desc_.visco ? state_.edgeBroken.data() : nullptr;
  args.weight = invMass_;
  args.denominator = invMass_ + invMass_ + alphaTilde;
  args.axial = loadAxis_ != Vec3(0.0f);
  args.axis[0] = loadAxis_.x, args.axis[1] = loadAxis_.y, args.axis[2] = loadAxis_.z;
  sweep::kernels().distances(args, kMeasure);
}

template <bool kMeasure>
void SoftBody::solveVolumes(float h) {
  const float v = desc_.knobs.volumePreserve;
  if (v <= 0.0f) return;
  // Solved on 6V (C' = 6 (V - V0), gradients 6 grad V: no divisions by 6); the same update
  // when alpha~' = 36 alpha~. The knob's alpha~ = (1/v - 1) w h^4 in series with the
  // material's alpha_K / dt_sub^2 = V0 / (K dt_sub^2) (soft_body.h).
  const float h2 = h_ * h_;
  sweep::Volumes args;
  args.x = packed_.data();
  args.first = tetFirst_.data();
  args.ends = tetEnds_.data();
  args.mask = tetMask_.data();
  args.batches = tetMask_.size();
  args.rest = state_.tetRest.data();
  args.broken = desc_.visco ? state_.tetBroken.data() : nullptr;
  args.weight = invMass_;
  args.knob = 36.0f * (1.0f / v - 1.0f) * invMass_ * h2 * h2;
  args.bulk = 36.0f / (desc_.bulkModulus * h * h);  // x V0
  sweep::kernels().volumes(args, kMeasure);
}

template void SoftBody::solveDistances<false>();
template void SoftBody::solveDistances<true>();
template void SoftBody::solveVolumes<false>(float);
template void SoftBody::solveVolumes<true>(float);

void SoftBody::shapeMatch(float beta) {
  if (beta <= 0.0f) return;
  const std::size_t n = state_.position.size();
  // The centroid as centroid() sums it (in double).
  const Vec3 c(particles::sum(n, packed_.data()) / double(n));
  // A = sum (x_i - c) q_i^T; column j = sum (x_i - c) q_i[j]
  const Mat3 a = particles::covariance(n, packed_.data(), restPacked_.data(), c);
  state_.rotation = extractRotation(a, state_.rotation, 8);
  // The goal is the rest shape compacted uniformly by the body's scale.
  const Mat3 r = glm::mat3_cast(state_.rotation) * compactedScale();
  sweep::ShapePull args;
  args.x = packed_.data();
  args.q = restPacked_.data();
  args.count = n;
  args.centre[0] = c.x, args.centre[1] = c.y, args.centre[2] = c.z;
  for (int col = 0; col < 3; ++col)
    for (int row = 0; row < 3; ++row) args.r[3 * col + row] = r[col][row];
  args.beta = beta;
  sweep::kernels().pull(args);
}

const sweep::Kernels& sweep::baselineKernels() {
  static const Kernels kernels{"baseline build", distancesKernel, volumesKernel, pullShape,
                               sumVolumes};
  return kernels;
}

const sweep::Kernels& sweep::kernels() {
  static const Kernels& best = []() -> const Kernels& {
    if (const Kernels* k = avx512Kernels()) return *k;
    if (const Kernels* k = avx2Kernels()) return *k;
    return baselineKernels();
  }();
  return best;
}

}  // namespace floptle::matter
