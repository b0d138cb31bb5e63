#pragma once
// The passes over a soft body's particle arrays that every substep makes (soft_body.h states the
// scheme): the predict, the velocities from the positions and their damping, the working copy's
// pack and unpack, and shape matching's sums. Each gives the bits of its plain particle-by-
// particle glm loop (the same operations per component in the same order, sums particle by
// particle). On x86-64 they take four particles at a time in SSE2 (the 12 floats of four Vec3
// are three 4-float registers; per-component patterns of a vector repeat every 3 floats);
// elsewhere they are that plain loop.
#include <cstddef>

#include "floptle/core/math.h"
#include "floptle/matter/soft_body.h"

namespace floptle::matter::particles {

using Packed = SoftBody::Packed;

/// v_i += pull; previous_i = x_i; predicted_i = x_i + v_i h; packed_i = (predicted_i, virial_i)
/// (virial_i = 0 when `virial` is null). pull = g h (m/s), h = dt_sub (s).
void predict(std::size_t n, const Vec3* x, Vec3* v, Vec3* previous, Vec3* predicted, Packed* packed,
             const float* virial, Vec3 pull, float h);

/// v_i += (x_i - predicted_i) inv (inv = 1 / dt_sub, 1/s); returns the sum of the new v_i
/// (float, added particle by particle from 0).
Vec3 correctVelocities(std::size_t n, const Vec3* x, const Vec3* predicted, Vec3* v, float inv);

/// v_i = mean + (v_i - mean) keep.
void damp(std::size_t n, Vec3* v, Vec3 mean, float keep);

/// x_i = packed_i's position; virial_i = its virial where `virial` is not null.
void unpack(std::size_t n, const Packed* packed, Vec3* x, float* virial);

/// packed_i = (x_i, virial_i), virial_i = 0 when `virial` is null.
void pack(std::size_t n, const Vec3* x, const float* virial, Packed* packed);

/// The sum of the positions in double, added particle by particle from 0 (as
/// SoftBody::centroid sums).
glm::dvec3 sum(std::size_t n, const Packed* x);

/// A = sum_i (x_i - c) q_i^T, column j = sum_i (x_i - c) q_i[j] (float, particle by particle
/// from 0).
Mat3 covariance(std::size_t n, const Packed* x, const Packed* q, Vec3 c);

}  // namespace floptle::matter::particles
