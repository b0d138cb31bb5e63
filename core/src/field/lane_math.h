#pragma once
// Four-lane float arithmetic for the fractal distance estimates (SSE2): +,-,*,/, sqrt,
// min/max, masks and select. The per-point evaluator runs a lane kernel with the point in
// every lane, the batch evaluator with four points, so the two agree bit for bit: every lane
// does the same IEEE operations in the same order (sqrtps / divps are correctly rounded like
// their scalar forms; no fused multiply-add: -ffp-contract=off, and none is written here).
#if defined(__SSE2__)
#include <immintrin.h>

namespace floptle::field::simd4 {

struct F4 {
  __m128 v;
};
struct M4 {  // a lane mask: all bits set where true
  __m128 v;
};

inline F4 splat(float a) {
  return {_mm_set1_ps(a)};
}
inline F4 operator+(F4 a, F4 b) {
  return {_mm_add_ps(a.v, b.v)};
}
inline F4 operator-(F4 a, F4 b) {
  return {_mm_sub_ps(a.v, b.v)};
}
inline F4 operator*(F4 a, F4 b) {
  return {_mm_mul_ps(a.v, b.v)};
}
inline F4 operator/(F4 a, F4 b) {
  return {_mm_div_ps(a.v, b.v)};
}
inline F4 operator-(F4 a) {
  return {_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))};
}
inline M4 operator<(F4 a, F4 b) {
  return {_mm_cmplt_ps(a.v, b.v)};
}
inline M4 operator>(F4 a, F4 b) {
  return {_mm_cmpgt_ps(a.v, b.v)};
}
inline M4 operator&(M4 a, M4 b) {
  return {_mm_and_ps(a.v, b.v)};
}
/// a and not b.
inline M4 andNot(M4 a, M4 b) {
  return {_mm_andnot_ps(b.v, a.v)};
}
inline bool any(M4 m) {
  return _mm_movemask_ps(m.v) != 0;
}
/// m ? a : b per lane.
inline F4 select(M4 m, F4 a, F4 b) {
  return {_mm_or_ps(_mm_and_ps(m.v, a.v), _mm_andnot_ps(m.v, b.v))};
}
inline F4 sqrt(F4 a) {
  return {_mm_sqrt_ps(a.v)};
}
inline F4 abs(F4 a) {
  return {_mm_andnot_ps(_mm_set1_ps(-0.0f), a.v)};
}
/// a > b ? a : b and a < b ? a : b (maxps / minps).
inline F4 max(F4 a, F4 b) {
  return {_mm_max_ps(a.v, b.v)};
}
inline F4 min(F4 a, F4 b) {
  return {_mm_min_ps(a.v, b.v)};
}
/// Flips the sign of a where the sign bit of s is set.
inline F4 flipSign(F4 a, F4 s) {
  return {_mm_xor_ps(a.v, _mm_and_ps(s.v, _mm_set1_ps(-0.0f)))};
}
inline float lane0(F4 a) {
  return _mm_cvtss_f32(a.v);
}

}  // namespace floptle::field::simd4
#endif
