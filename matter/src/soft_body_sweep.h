#pragma once
// The kernels of SoftBody's distance and volume sweeps (soft_body_solve.cpp states the scheme),
// kLanes = 8 constraints of one batch side by side. Every lane computes exactly the scalar
// update's operations in the scalar order (IEEE add, multiply, divide and square root, no FMA:
// the build has -ffp-contract=off), so any lane width gives the same bits.
//
// Three builds include this file: soft_body_solve.cpp for the x86-64 baseline (SSE2: a lane
// vector is two 4-wide halves; elsewhere plain arrays), soft_body_solve_avx2.cpp, compiled with
// -mavx2 (one 8-wide vector), and soft_body_solve_avx512.cpp, the same 8-wide code compiled for
// AVX-512F/VL (GCC's target pragma; FLOPTLE_SWEEP_AVX512VL), whose 32 vector registers hold
// what AVX2's 16 spill; kernels() picks the best the CPU runs. The lane types and kernels below
// have internal linkage so that the builds never mix; only the argument structs and each
// build's Kernels are shared. Nothing here calls an inline function of another header (glm,
// the standard library): a copy of one compiled for AVX2 or AVX-512 could be the one the
// linker keeps for the whole program.
//
// The compaction's virials ride in the working copy's fourth slot (SoftBody::Packed::virial):
// a particle's is gathered and scattered with its position, so a measuring sweep adds its share
// in the lanes it writes, in sweep order, as a separate array's particle-by-particle sums would.
// On the other substeps every slot holds 0 (SoftBody::predict writes it so), and the sweeps
// write 0 without reading it (four fewer live vectors in the volume sweep); shape matching's
// pull writes the slot back as it found it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "floptle/matter/soft_body.h"

#if defined(__AVX2__) || defined(FLOPTLE_SWEEP_AVX512VL)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace floptle::matter::sweep {

constexpr int kLanes = SoftBody::kLanes;
static_assert(kLanes == 8, "the lane types below are 8 wide");

/// The batches name a particle by its byte offset in the working copy, so that a gather adds
/// it to the base as it is (an index would need a multiply by 16 first). Internal linkage, as
/// the kernels below.
static constexpr std::uint32_t offsetOf(std::size_t particle) {
  return std::uint32_t(particle * sizeof(SoftBody::Packed));
}

/// One distance sweep: XPBD's dlambda = -C / (2 w + alpha~) for each edge (lambda starts at
/// 0), batches in reverse order when `backward`.
struct Distances {
  SoftBody::Packed* x = nullptr;
  const std::uint32_t* first = nullptr;  ///< batch b's first constraint (lane l: first + l)
  /// Batch b's particles (offsetOf) at [2 b kLanes] (a's, then b's).
  const std::uint32_t* ends = nullptr;
  const std::uint8_t* mask = nullptr;  ///< batch b's real lanes (the first ones)
  std::size_t batches = 0;
  bool backward = false;
  const float* rest = nullptr;           ///< each edge's rest length (m)
  const std::uint8_t* broken = nullptr;  ///< 1 for a snapped edge; null: none snap
  float weight = 0.0f;                   ///< w, each particle's inverse mass (1/kg)
  float denominator = 0.0f;              ///< 2 w + alpha~ (1/kg)
  bool axial = false;                    ///< there is a load axis (gravity)
  float axis[3] = {0.0f, 0.0f, 0.0f};    ///< the load axis g^
};

/// One volume sweep on C' = 6 (V - V0): dlambda = -C' / (w sum |grad C'|^2 + alpha~).
struct Volumes {
  SoftBody::Packed* x = nullptr;
  const std::uint32_t* first = nullptr;  ///< batch b's first constraint (lane l: first + l)
  /// Batch b's corner k of lane l (offsetOf) at [(4 b + k) kLanes + l].
  const std::uint32_t* ends = nullptr;
  const std::uint8_t* mask = nullptr;
  std::size_t batches = 0;
  const float* rest = nullptr;           ///< each tetrahedron's rest volume V0 (m^3)
  const std::uint8_t* broken = nullptr;  ///< 1 for a broken tetrahedron; null: none break
  float weight = 0.0f;                   ///< w (1/kg)
  float knob = 0.0f;                     ///< the knob's alpha~ for C'
  float bulk = 0.0f;                     ///< the material's alpha~ for C' per V0
};

/// The tetrahedra's signed volumes summed in constraint order, each dot(cross(x1 - x0,
/// x2 - x0), x3 - x0) / 6 as glm computes it (SoftBody::tetVolume), over the volume sweep's
/// batches.
struct VolumeSum {
  const SoftBody::Packed* x = nullptr;
  const std::uint32_t* ends = nullptr;  ///< as Volumes::ends
  const std::uint8_t* mask = nullptr;
  std::size_t batches = 0;
};

/// Shape matching's pull x_i += beta ((c - x_i) + R q_i) of every particle (soft_body.h).
struct ShapePull {
  SoftBody::Packed* x = nullptr;        ///< count particles and the zero slot
  const SoftBody::Packed* q = nullptr;  ///< rest positions about the rest centroid, zero slot
  std::size_t count = 0;
  float centre[3] = {0.0f, 0.0f, 0.0f};  ///< c (m)
  float r[9] = {};    ///< R (x the compaction scale), column-major: [3 col + row]
  float beta = 0.0f;  ///< the share closed this substep (-)
};

/// One build's kernels. `measure`: add the compaction's shares to the particles' virials
/// (soft_body.h).
struct Kernels {
  const char* name;
  void (*distances)(const Distances& s, bool measure);
  void (*volumes)(const Volumes& s, bool measure);
  void (*pull)(const ShapePull& s);
  float (*volumeSum)(const VolumeSum& s);
};
/// The baseline build's (soft_body_solve.cpp); always there.
const Kernels& baselineKernels();
/// The AVX2 build's, or null where this program or CPU has none (soft_body_solve_avx2.cpp).
const Kernels* avx2Kernels();
/// The AVX-512F/VL build's, or null likewise (soft_body_solve_avx512.cpp).
const Kernels* avx512Kernels();
/// The fastest of them this CPU runs (chosen once).
const Kernels& kernels();

namespace {  // internal linkage: see the top of the file

// The gathers and scatters inline into the sweeps' loops (GCC otherwise keeps the larger
// scatter out of line, a call per corner).
#if defined(__GNUC__)
#define FLOPTLE_SWEEP_INLINE inline __attribute__((always_inline))
#else
#define FLOPTLE_SWEEP_INLINE inline
#endif

/// The particle at byte offset `offset` of x (see offsetOf).
FLOPTLE_SWEEP_INLINE float* slot(SoftBody::Packed* x, std::uint32_t offset) {
  return &reinterpret_cast<SoftBody::Packed*>(reinterpret_cast<char*>(x) + offset)->x;
}
FLOPTLE_SWEEP_INLINE const float* slot(const SoftBody::Packed* x, std::uint32_t offset) {
  return &reinterpret_cast<const SoftBody::Packed*>(reinterpret_cast<const char*>(x) + offset)->x;
}

#if defined(__AVX2__) || defined(FLOPTLE_SWEEP_AVX512VL)
/// Eight floats, one per lane.
struct F {
  __m256 v;
};
inline F operator+(F a, F b) {
  return {_mm256_add_ps(a.v, b.v)};
}
inline F operator-(F a, F b) {
  return {_mm256_sub_ps(a.v, b.v)};
}
inline F operator*(F a, F b) {
  return {_mm256_mul_ps(a.v, b.v)};
}
inline F operator/(F a, F b) {
  return {_mm256_div_ps(a.v, b.v)};
}
inline F operator-(F a) {
  return {_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))};
}
inline F splat(float s) {
  return {_mm256_set1_ps(s)};
}
inline F sqrtF(F a) {
  return {_mm256_sqrt_ps(a.v)};
}
/// Lane bits (bit l for lane l) where !(a < b).
inline unsigned notLess(F a, F b) {
  return unsigned(_mm256_movemask_ps(_mm256_cmp_ps(a.v, b.v, _CMP_NLT_UQ)));
}
inline F gatherScalar(const float* base, const std::uint32_t* at) {
  return {_mm256_setr_ps(base[at[0]], base[at[1]], base[at[2]], base[at[3]], base[at[4]],
                         base[at[5]], base[at[6]], base[at[7]])};
}
inline void lanesOf(F a, float* out) {
  _mm256_storeu_ps(out, a.v);
}
inline F loadF(const float* at) {
  return {_mm256_loadu_ps(at)};
}

/// x, y, z of eight particles, one per lane.
struct P {
  F x, y, z;
};
FLOPTLE_SWEEP_INLINE __m256 pair(const SoftBody::Packed* p, std::uint32_t lo, std::uint32_t hi) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(slot(p, lo))),
                              _mm_load_ps(slot(p, hi)), 1);
}
/// The positions of particles at[l] and their virials (Packed::virial) in `w`.
FLOPTLE_SWEEP_INLINE P gather(const SoftBody::Packed* p, const std::uint32_t* at, F& w) {
  // Lanes l and l + 4 share a register; the 4 x 4 transposes run in both halves at once.
  const __m256 r0 = pair(p, at[0], at[4]), r1 = pair(p, at[1], at[5]);
  const __m256 r2 = pair(p, at[2], at[6]), r3 = pair(p, at[3], at[7]);
  const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
  const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  w = {_mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2))};
  return {{_mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0))},
          {_mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2))},
          {_mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0))}};
}
/// Writes lane l (position v, virial w) back to particle at[l] where bit l of `bits` is set.
FLOPTLE_SWEEP_INLINE void scatter(SoftBody::Packed* p, const std::uint32_t* at, const P& v, F w,
                                  unsigned bits) {
  const __m256 t0 = _mm256_unpacklo_ps(v.x.v, v.y.v), t1 = _mm256_unpackhi_ps(v.x.v, v.y.v);
  const __m256 t2 = _mm256_unpacklo_ps(v.z.v, w.v), t3 = _mm256_unpackhi_ps(v.z.v, w.v);
  const __m256 r0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 r1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 r2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 r3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  // Lane l in the low half of r(l mod 4) for l < 4, else in its high half. Named registers,
  // not an array: an array would go through the stack on the full batch's path too.
  if (bits == 0xffu) {  // the usual full batch: no branch per lane
    _mm_store_ps(slot(p, at[0]), _mm256_castps256_ps128(r0));
    _mm_store_ps(slot(p, at[1]), _mm256_castps256_ps128(r1));
    _mm_store_ps(slot(p, at[2]), _mm256_castps256_ps128(r2));
    _mm_store_ps(slot(p, at[3]), _mm256_castps256_ps128(r3));
    _mm_store_ps(slot(p, at[4]), _mm256_extractf128_ps(r0, 1));
    _mm_store_ps(slot(p, at[5]), _mm256_extractf128_ps(r1, 1));
    _mm_store_ps(slot(p, at[6]), _mm256_extractf128_ps(r2, 1));
    _mm_store_ps(slot(p, at[7]), _mm256_extractf128_ps(r3, 1));
    return;
  }
  if (bits & 0x01u) _mm_store_ps(slot(p, at[0]), _mm256_castps256_ps128(r0));
  if (bits & 0x02u) _mm_store_ps(slot(p, at[1]), _mm256_castps256_ps128(r1));
  if (bits & 0x04u) _mm_store_ps(slot(p, at[2]), _mm256_castps256_ps128(r2));
  if (bits & 0x08u) _mm_store_ps(slot(p, at[3]), _mm256_castps256_ps128(r3));
  if (bits & 0x10u) _mm_store_ps(slot(p, at[4]), _mm256_extractf128_ps(r0, 1));
  if (bits & 0x20u) _mm_store_ps(slot(p, at[5]), _mm256_extractf128_ps(r1, 1));
  if (bits & 0x40u) _mm_store_ps(slot(p, at[6]), _mm256_extractf128_ps(r2, 1));
  if (bits & 0x80u) _mm_store_ps(slot(p, at[7]), _mm256_extractf128_ps(r3, 1));
}
#elif defined(__SSE2__)
/// Eight floats, one per lane: lanes 0-3 in lo, 4-7 in hi.
struct F {
  __m128 lo, hi;
};
inline F operator+(F a, F b) {
  return {_mm_add_ps(a.lo, b.lo), _mm_add_ps(a.hi, b.hi)};
}
inline F operator-(F a, F b) {
  return {_mm_sub_ps(a.lo, b.lo), _mm_sub_ps(a.hi, b.hi)};
}
inline F operator*(F a, F b) {
  return {_mm_mul_ps(a.lo, b.lo), _mm_mul_ps(a.hi, b.hi)};
}
inline F operator/(F a, F b) {
  return {_mm_div_ps(a.lo, b.lo), _mm_div_ps(a.hi, b.hi)};
}
inline F operator-(F a) {
  const __m128 sign = _mm_set1_ps(-0.0f);
  return {_mm_xor_ps(a.lo, sign), _mm_xor_ps(a.hi, sign)};
}
inline F splat(float s) {
  return {_mm_set1_ps(s), _mm_set1_ps(s)};
}
inline F sqrtF(F a) {
  return {_mm_sqrt_ps(a.lo), _mm_sqrt_ps(a.hi)};
}
inline unsigned notLess(F a, F b) {
  return unsigned(_mm_movemask_ps(_mm_cmpnlt_ps(a.lo, b.lo))) |
         unsigned(_mm_movemask_ps(_mm_cmpnlt_ps(a.hi, b.hi))) << 4;
}
inline F gatherScalar(const float* base, const std::uint32_t* at) {
  return {_mm_setr_ps(base[at[0]], base[at[1]], base[at[2]], base[at[3]]),
          _mm_setr_ps(base[at[4]], base[at[5]], base[at[6]], base[at[7]])};
}
inline void lanesOf(F a, float* out) {
  _mm_storeu_ps(out, a.lo), _mm_storeu_ps(out + 4, a.hi);
}
inline F loadF(const float* at) {
  return {_mm_loadu_ps(at), _mm_loadu_ps(at + 4)};
}

struct P {
  F x, y, z;
};
FLOPTLE_SWEEP_INLINE P gather(const SoftBody::Packed* p, const std::uint32_t* at, F& w) {
  __m128 a0 = _mm_load_ps(slot(p, at[0])), a1 = _mm_load_ps(slot(p, at[1]));
  __m128 a2 = _mm_load_ps(slot(p, at[2])), a3 = _mm_load_ps(slot(p, at[3]));
  __m128 b0 = _mm_load_ps(slot(p, at[4])), b1 = _mm_load_ps(slot(p, at[5]));
  __m128 b2 = _mm_load_ps(slot(p, at[6])), b3 = _mm_load_ps(slot(p, at[7]));
  _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
  _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
  w = {a3, b3};
  return {{a0, b0}, {a1, b1}, {a2, b2}};
}
FLOPTLE_SWEEP_INLINE void scatter(SoftBody::Packed* p, const std::uint32_t* at, const P& v, F w,
                                  unsigned bits) {
  __m128 a0 = v.x.lo, a1 = v.y.lo, a2 = v.z.lo, a3 = w.lo;
  __m128 b0 = v.x.hi, b1 = v.y.hi, b2 = v.z.hi, b3 = w.hi;
  _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
  _MM_TRANSPOSE4_PS(b0, b1, b2, b3);
  if (bits == 0xffu) {  // the usual full batch: no branch per lane
    _mm_store_ps(slot(p, at[0]), a0), _mm_store_ps(slot(p, at[1]), a1);
    _mm_store_ps(slot(p, at[2]), a2), _mm_store_ps(slot(p, at[3]), a3);
    _mm_store_ps(slot(p, at[4]), b0), _mm_store_ps(slot(p, at[5]), b1);
    _mm_store_ps(slot(p, at[6]), b2), _mm_store_ps(slot(p, at[7]), b3);
    return;
  }
  if (bits & 0x01u) _mm_store_ps(slot(p, at[0]), a0);
  if (bits & 0x02u) _mm_store_ps(slot(p, at[1]), a1);
  if (bits & 0x04u) _mm_store_ps(slot(p, at[2]), a2);
  if (bits & 0x08u) _mm_store_ps(slot(p, at[3]), a3);
  if (bits & 0x10u) _mm_store_ps(slot(p, at[4]), b0);
  if (bits & 0x20u) _mm_store_ps(slot(p, at[5]), b1);
  if (bits & 0x40u) _mm_store_ps(slot(p, at[6]), b2);
  if (bits & 0x80u) _mm_store_ps(slot(p, at[7]), b3);
}
#else
// Portable lanes: the same operations one lane after the other.
struct F {
  float v[kLanes];
};
template <class Op>
inline F each(F a, F b, Op op) {
  F r;
  for (int l = 0; l < kLanes; ++l) r.v[l] = op(a.v[l], b.v[l]);
  return r;
}
inline F operator+(F a, F b) {
  return each(a, b, [](float x, float y) { return x + y; });
}
inline F operator-(F a, F b) {
  return each(a, b, [](float x, float y) { return x - y; });
}
inline F operator*(F a, F b) {
  return each(a, b, [](float x, float y) { return x * y; });
}
inline F operator/(F a, F b) {
  return each(a, b, [](float x, float y) { return x / y; });
}
inline F operator-(F a) {
  return each(a, a, [](float x, float) { return -x; });
}
inline F splat(float s) {
  F r;
  for (float& v : r.v) v = s;
  return r;
}
inline F sqrtF(F a) {
  return each(a, a, [](float x, float) { return std::sqrt(x); });
}
inline unsigned notLess(F a, F b) {
  unsigned bits = 0;
  for (int l = 0; l < kLanes; ++l) bits |= unsigned(!(a.v[l] < b.v[l])) << l;
  return bits;
}
inline F gatherScalar(const float* base, const std::uint32_t* at) {
  F r;
  for (int l = 0; l < kLanes; ++l) r.v[l] = base[at[l]];
  return r;
}
inline void lanesOf(F a, float* out) {
  std::memcpy(out, a.v, sizeof a.v);
}
inline F loadF(const float* at) {
  F r;
  std::memcpy(r.v, at, sizeof r.v);
  return r;
}
struct P {
  F x, y, z;
};
FLOPTLE_SWEEP_INLINE P gather(const SoftBody::Packed* p, const std::uint32_t* at, F& w) {
  P r;
  for (int l = 0; l < kLanes; ++l) {
    const float* q = slot(p, at[l]);
    r.x.v[l] = q[0], r.y.v[l] = q[1], r.z.v[l] = q[2], w.v[l] = q[3];
  }
  return r;
}
FLOPTLE_SWEEP_INLINE void scatter(SoftBody::Packed* p, const std::uint32_t* at, const P& v, F w,
                                  unsigned bits) {
  for (int l = 0; l < kLanes; ++l)
    if (bits >> l & 1u) {
      float* q = slot(p, at[l]);
      q[0] = v.x.v[l], q[1] = v.y.v[l], q[2] = v.z.v[l], q[3] = w.v[l];
    }
}
#endif

/// glm::dot's order: (x x' + y y') + z z'.
inline F dot(const P& a, const P& b) {
  return (a.x * b.x + a.y * b.y) + a.z * b.z;
}
/// glm::cross(a, b)'s operations, component by component.
inline P cross(const P& a, const P& b) {
  return {a.y * b.z - b.y * a.z, a.z * b.x - b.z * a.x, a.x * b.y - b.x * a.y};
}
inline P operator-(const P& a, const P& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline P operator+(const P& a, const P& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
/// a + s b (glm's s * b, then the sum).
inline P addScaled(const P& a, F s, const P& b) {
  return {a.x + s * b.x, a.y + s * b.y, a.z + s * b.z};
}

/// Lane bits of `bits` whose constraint (first + l) is not broken.
inline unsigned holding(const std::uint8_t* broken, unsigned bits) {
  for (int l = 0; l < kLanes; ++l)
    if ((bits >> l & 1u) && broken[l]) bits &= ~(1u << l);
  return bits;
}

/// values[first + l] in each lane: one load for a full batch; padding lanes repeat lane 0.
inline F perConstraint(const float* values, unsigned mask) {
  if (mask == (1u << kLanes) - 1u) return loadF(values);
  std::uint32_t at[kLanes];
  for (int l = 0; l < kLanes; ++l) at[l] = (mask >> l & 1u) ? std::uint32_t(l) : 0u;
  return gatherScalar(values, at);
}

template <bool kMeasure>
void sweepDistances(const Distances& s) {
  const F weight = splat(s.weight), denominator = splat(s.denominator);
  const F one = splat(1.0f), tiny = splat(1e-24f);
  const P axis{splat(s.axis[0]), splat(s.axis[1]), splat(s.axis[2])};
  const F half = splat(0.5f), three = splat(3.0f);
  for (std::size_t k = 0; k < s.batches; ++k) {
    const std::size_t b = s.backward ? s.batches - 1 - k : k;
    const std::uint32_t first = s.first[b];
    const std::uint32_t* ends = s.ends + b * 2 * kLanes;
    unsigned on = s.mask[b];
    if (s.broken) on = holding(s.broken + first, on);
    if (on == 0) continue;
    F wa = splat(0.0f), wc = splat(0.0f);  // the ends' virials (0 unless measuring)
    F unused;
    P a = gather(s.x, ends, kMeasure ? wa : unused);
    P c = gather(s.x, ends + kLanes, kMeasure ? wc : unused);
    const P d = a - c;
    const F len2 = dot(d, d);
    const unsigned moving = on & notLess(len2, tiny);  // coincident points have no direction
    const F root = sqrtF(len2);
    const F invLen = one / root;  // one division for the direction
    const F len = len2 * invLen;
    const F dLambda = -(len - perConstraint(s.rest + first, s.mask[b])) / denominator;
    const F step = weight * dLambda;
    const P n{d.x * invLen, d.y * invLen, d.z * invLen};
    a = addScaled(a, step, n);
    c = {c.x - step * n.x, c.y - step * n.y, c.z - step * n.z};
    if constexpr (kMeasure) {
      // 1/2 |x_a - x_b| dlambda (n . g^)^2 to each end; without gravity (n . n) / 3. Only the
      // moving lanes are written: a lane that does not move (|d|^2 < tiny) has dlambda's share
      // +0, and adding +0 to a virial (a sum from +0, never -0) leaves its bits.
      const F along = s.axial ? dot(d, axis) * dot(d, axis) : root * root / three;
      const F share = half * dLambda * along / root;
      wa = wa + share;
      wc = wc + share;
    }
    scatter(s.x, ends, a, wa, moving);
    scatter(s.x, ends + kLanes, c, wc, moving);
  }
}

template <bool kMeasure>
void sweepVolumes(const Volumes& s) {
  const F knob = splat(s.knob), bulk = splat(s.bulk), weight = splat(s.weight);
  const F six = splat(6.0f), quarter = splat(0.25f), tiny = splat(1e-30f);
  for (std::size_t b = 0; b < s.batches; ++b) {
    const std::uint32_t first = s.first[b];
    const std::uint32_t* at = s.ends + b * 4 * kLanes;
    unsigned on = s.mask[b];
    if (s.broken) on = holding(s.broken + first, on);
    if (on == 0) continue;
    // The corners' virials (0 unless measuring).
    F w0 = splat(0.0f), w1 = splat(0.0f), w2 = splat(0.0f), w3 = splat(0.0f), unused;
    const P x0 = gather(s.x, at, kMeasure ? w0 : unused);
    const P x1 = gather(s.x, at + kLanes, kMeasure ? w1 : unused);
    const P x2 = gather(s.x, at + 2 * kLanes, kMeasure ? w2 : unused);
    const P x3 = gather(s.x, at + 3 * kLanes, kMeasure ? w3 : unused);
    const P e1 = x1 - x0, e2 = x2 - x0, e3 = x3 - x0;
    const P g1 = cross(e2, e3);
    const P g2 = cross(e3, e1);
    const P g3 = cross(e1, e2);
    const P g0{-((g1.x + g2.x) + g3.x), -((g1.y + g2.y) + g3.y), -((g1.z + g2.z) + g3.z)};
    const F sixVolume = dot(g3, e3);
    const F w = weight * (((dot(g0, g0) + dot(g1, g1)) + dot(g2, g2)) + dot(g3, g3));
    const F rest = perConstraint(s.rest + first, s.mask[b]);
    const F alphaTilde = knob + bulk * rest;
    on &= notLess(w + alphaTilde, tiny);
    if (on == 0) continue;
    const F dLambda = -(sixVolume - six * rest) / (w + alphaTilde);
    const F step = weight * dLambda;
    if constexpr (kMeasure) {
      // sum_k (g^ . x_k)(g^ . grad_k C') = 6V for any g^: a quarter to each corner.
      const F share = quarter * sixVolume * dLambda;
      w0 = w0 + share, w1 = w1 + share, w2 = w2 + share, w3 = w3 + share;
    }
    scatter(s.x, at, addScaled(x0, step, g0), w0, on);
    scatter(s.x, at + kLanes, addScaled(x1, step, g1), w1, on);
    scatter(s.x, at + 2 * kLanes, addScaled(x2, step, g2), w2, on);
    scatter(s.x, at + 3 * kLanes, addScaled(x3, step, g3), w3, on);
  }
}

inline float sumVolumes(const VolumeSum& s) {
  const F six = splat(6.0f);
  float sum = 0.0f;
  for (std::size_t b = 0; b < s.batches; ++b) {
    const std::uint32_t* at = s.ends + b * 4 * kLanes;
    F w;  // unused
    const P x0 = gather(s.x, at, w), x1 = gather(s.x, at + kLanes, w);
    const P x2 = gather(s.x, at + 2 * kLanes, w), x3 = gather(s.x, at + 3 * kLanes, w);
    float volume[kLanes];
    lanesOf(dot(cross(x1 - x0, x2 - x0), x3 - x0) / six, volume);
    // The real lanes are the first ones, in constraint order.
    for (unsigned l = 0, bits = s.mask[b]; bits >> l & 1u; ++l) sum += volume[l];
  }
  return sum;
}

/// The sweeps for Kernels (`measure` picks the instantiation).
inline void distancesKernel(const Distances& s, bool measure) {
  if (measure)
    sweepDistances<true>(s);
  else
    sweepDistances<false>(s);
}
inline void volumesKernel(const Volumes& s, bool measure) {
  if (measure)
    sweepVolumes<true>(s);
  else
    sweepVolumes<false>(s);
}

/// pullShape's batch: particles at[l] where bit l of `bits` is set.
FLOPTLE_SWEEP_INLINE void pullBatch(const ShapePull& s, const P& c, const F* m, F beta,
                                    const std::uint32_t* at, unsigned bits) {
  F w, unused;
  const P x = gather(s.x, at, w);
  const P q = gather(s.q, at, unused);
  // glm's mat3 * vec3, row by row: (m[0][j] q.x + m[1][j] q.y) + m[2][j] q.z.
  const P rq{(m[0] * q.x + m[3] * q.y) + m[6] * q.z, (m[1] * q.x + m[4] * q.y) + m[7] * q.z,
             (m[2] * q.x + m[5] * q.y) + m[8] * q.z};
  // (c - x_i) first: close values subtract exactly, so the pull keeps the centroid.
  const P pull = (c - x) + rq;
  scatter(s.x, at, {x.x + beta * pull.x, x.y + beta * pull.y, x.z + beta * pull.z}, w, bits);
}

inline void pullShape(const ShapePull& s) {
  const P c{splat(s.centre[0]), splat(s.centre[1]), splat(s.centre[2])};
  F m[9];
  for (int k = 0; k < 9; ++k) m[k] = splat(s.r[k]);
  const F beta = splat(s.beta);
  std::uint32_t at[kLanes];
  std::size_t i = 0;
  for (; i + kLanes <= s.count; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) at[l] = offsetOf(i + std::size_t(l));
    pullBatch(s, c, m, beta, at, (1u << kLanes) - 1u);
  }
  if (i == s.count) return;
  unsigned bits = 0;  // the tail; padding lanes on the zero slot
  for (int l = 0; l < kLanes; ++l) {
    const bool real = i + std::size_t(l) < s.count;
    at[l] = offsetOf(real ? i + std::size_t(l) : s.count);
    bits |= unsigned(real) << l;
  }
  pullBatch(s, c, m, beta, at, bits);
}

#undef FLOPTLE_SWEEP_INLINE

}  // namespace
}  // namespace floptle::matter::sweep
