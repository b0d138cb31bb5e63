// The per-substep particle passes (soft_body_particles.h): the plain loops, and on x86-64 their
// SSE2 form, four particles a block. A block's three registers hold
//   a = (x0 y0 z0 x1), b = (y1 z1 x2 y2), c = (z2 x3 y3 z3),
// so a vector u enters component-wise arithmetic as the three patterns (ux uy uz ux),
// (uy uz ux uy), (uz ux uy uz); the particles left over after the last whole block take the
// plain loop.
#include "soft_body_particles.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace floptle::matter::particles {
namespace {

#if defined(__SSE2__)
/// The three registers of four consecutive Vec3 (12 floats, any alignment).
struct Block {
  __m128 a, b, c;
};
inline Block load(const Vec3* p) {
  const float* f = &p->x;
  return {_mm_loadu_ps(f), _mm_loadu_ps(f + 4), _mm_loadu_ps(f + 8)};
}
inline void store(Vec3* p, const Block& v) {
  float* f = &p->x;
  _mm_storeu_ps(f, v.a), _mm_storeu_ps(f + 4, v.b), _mm_storeu_ps(f + 8, v.c);
}
/// u's three patterns.
inline Block pattern(Vec3 u) {
  return {_mm_setr_ps(u.x, u.y, u.z, u.x), _mm_setr_ps(u.y, u.z, u.x, u.y),
          _mm_setr_ps(u.z, u.x, u.y, u.z)};
}
inline Block operator+(const Block& p, const Block& q) {
  return {_mm_add_ps(p.a, q.a), _mm_add_ps(p.b, q.b), _mm_add_ps(p.c, q.c)};
}
inline Block operator-(const Block& p, const Block& q) {
  return {_mm_sub_ps(p.a, q.a), _mm_sub_ps(p.b, q.b), _mm_sub_ps(p.c, q.c)};
}
inline Block operator*(const Block& p, __m128 s) {
  return {_mm_mul_ps(p.a, s), _mm_mul_ps(p.b, s), _mm_mul_ps(p.c, s)};
}

/// r with its fourth float replaced by lane k of w.
template <int k>
inline __m128 withFourth(__m128 r, __m128 w) {
  const __m128 zw = _mm_shuffle_ps(r, w, _MM_SHUFFLE(k, k, 2, 2));  // (z z wk wk)
  return _mm_shuffle_ps(r, zw, _MM_SHUFFLE(2, 0, 1, 0));
}
/// The block's four particles, one per register (x y z, the fourth float undefined).
struct Four {
  __m128 p[4];
};
inline Four split(const Block& v) {
  const __m128 t1 = _mm_shuffle_ps(v.a, v.b, _MM_SHUFFLE(0, 0, 3, 3));  // (x1 x1 y1 y1)
  return {{v.a, _mm_shuffle_ps(t1, v.b, _MM_SHUFFLE(1, 1, 2, 0)),
           _mm_shuffle_ps(v.b, v.c, _MM_SHUFFLE(0, 0, 3, 2)),
           _mm_shuffle_ps(v.c, v.c, _MM_SHUFFLE(3, 3, 2, 1))}};
}
/// The inverse of split.
inline Block join(const Four& f) {
  const __m128 t0 = _mm_shuffle_ps(f.p[0], f.p[1], _MM_SHUFFLE(0, 0, 2, 2));  // (z0 z0 x1 x1)
  const __m128 t2 = _mm_shuffle_ps(f.p[2], f.p[3], _MM_SHUFFLE(0, 0, 2, 2));  // (z2 z2 x3 x3)
  return {_mm_shuffle_ps(f.p[0], t0, _MM_SHUFFLE(2, 0, 1, 0)),
          _mm_shuffle_ps(f.p[1], f.p[2], _MM_SHUFFLE(1, 0, 2, 1)),
          _mm_shuffle_ps(t2, f.p[3], _MM_SHUFFLE(2, 1, 2, 0))};
}
/// Stores the block's particles with the virials w (one per lane) as four Packed.
inline void storePacked(Packed* out, const Block& v, __m128 w) {
  const Four f = split(v);
  _mm_store_ps(&out[0].x, withFourth<0>(f.p[0], w));
  _mm_store_ps(&out[1].x, withFourth<1>(f.p[1], w));
  _mm_store_ps(&out[2].x, withFourth<2>(f.p[2], w));
  _mm_store_ps(&out[3].x, withFourth<3>(f.p[3], w));
}
inline Vec3 first3(__m128 r) {
  float f[4];
  _mm_storeu_ps(f, r);
  return {f[0], f[1], f[2]};
}
constexpr std::size_t kBlock = 4;
#else
constexpr std::size_t kBlock = 0;  // no blocks: the plain loops do everything
#endif

/// Whole blocks cover [0, blocks(n)).
constexpr std::size_t blocks(std::size_t n) {
  return kBlock == 0 ? 0 : n - n % kBlock;
}

}  // namespace

void predict(std::size_t n, const Vec3* x, Vec3* v, Vec3* previous, Vec3* predicted, Packed* packed,
             const float* virial, Vec3 pull, float h) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const Block g = pattern(pull);
  const __m128 hh = _mm_set1_ps(h);
  for (; i < blocks(n); i += kBlock) {
    const Block xi = load(x + i);
    const Block vi = load(v + i) + g;
    store(v + i, vi);
    store(previous + i, xi);
    const Block p = xi + vi * hh;
    store(predicted + i, p);
    storePacked(packed + i, p, virial ? _mm_loadu_ps(virial + i) : _mm_setzero_ps());
  }
#endif
  for (; i < n; ++i) {
    const Vec3 vi = v[i] + pull;
    const Vec3 xi = x[i];
    v[i] = vi;
    previous[i] = xi;
    const Vec3 p = xi + vi * h;
    predicted[i] = p;
    packed[i] = {p.x, p.y, p.z, virial ? virial[i] : 0.0f};
  }
}

Vec3 correctVelocities(std::size_t n, const Vec3* x, const Vec3* predicted, Vec3* v, float inv) {
  Vec3 sum(0.0f);
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128 s = _mm_set1_ps(inv);
  __m128 acc = _mm_setzero_ps();
  for (; i < blocks(n); i += kBlock) {
    const Block vi = load(v + i) + (load(x + i) - load(predicted + i)) * s;
    store(v + i, vi);
    const Four f = split(vi);
    acc = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_add_ps(acc, f.p[0]), f.p[1]), f.p[2]), f.p[3]);
  }
  sum = first3(acc);
#endif
  for (; i < n; ++i) {
    const Vec3 vi = v[i] + (x[i] - predicted[i]) * inv;
    v[i] = vi;
    sum += vi;
  }
  return sum;
}

void damp(std::size_t n, Vec3* v, Vec3 mean, float keep) {
  std::size_t i = 0;
#if defined(__SSE2__)
  const Block m = pattern(mean);
  const __m128 k = _mm_set1_ps(keep);
  for (; i < blocks(n); i += kBlock) store(v + i, m + (load(v + i) - m) * k);
#endif
  for (; i < n; ++i) v[i] = mean + (v[i] - mean) * keep;
}

void unpack(std::size_t n, const Packed* packed, Vec3* x, float* virial) {
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i < blocks(n); i += kBlock) {
    const Four f{{_mm_load_ps(&packed[i].x), _mm_load_ps(&packed[i + 1].x),
                  _mm_load_ps(&packed[i + 2].x), _mm_load_ps(&packed[i + 3].x)}};
    store(x + i, join(f));
    if (virial) {
      const __m128 lo = _mm_unpackhi_ps(f.p[0], f.p[1]);  // (z0 z1 w0 w1)
      const __m128 hi = _mm_unpackhi_ps(f.p[2], f.p[3]);  // (z2 z3 w2 w3)
      _mm_storeu_ps(virial + i, _mm_movehl_ps(hi, lo));
    }
  }
#endif
  for (; i < n; ++i) {
    x[i] = Vec3(packed[i].x, packed[i].y, packed[i].z);
    if (virial) virial[i] = packed[i].virial;
  }
}

void pack(std::size_t n, const Vec3* x, const float* virial, Packed* packed) {
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i < blocks(n); i += kBlock)
    storePacked(packed + i, load(x + i), virial ? _mm_loadu_ps(virial + i) : _mm_setzero_ps());
#endif
  for (; i < n; ++i) packed[i] = {x[i].x, x[i].y, x[i].z, virial ? virial[i] : 0.0f};
}

glm::dvec3 sum(std::size_t n, const Packed* x) {
#if defined(__SSE2__)
  __m128d xy = _mm_setzero_pd(), zw = _mm_setzero_pd();
  for (std::size_t i = 0; i < n; ++i) {
    const __m128 p = _mm_load_ps(&x[i].x);
    xy = _mm_add_pd(xy, _mm_cvtps_pd(p));
    zw = _mm_add_pd(zw, _mm_cvtps_pd(_mm_movehl_ps(p, p)));
  }
  double f[4];
  _mm_storeu_pd(f, xy), _mm_storeu_pd(f + 2, zw);
  return {f[0], f[1], f[2]};
#else
  glm::dvec3 s(0.0);
  for (std::size_t i = 0; i < n; ++i) s += glm::dvec3(Vec3(x[i].x, x[i].y, x[i].z));
  return s;
#endif
}

Mat3 covariance(std::size_t n, const Packed* x, const Packed* q, Vec3 c) {
#if defined(__SSE2__)
  const __m128 centre = _mm_setr_ps(c.x, c.y, c.z, 0.0f);
  __m128 col[3] = {_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
  for (std::size_t i = 0; i < n; ++i) {
    const __m128 p = _mm_sub_ps(_mm_load_ps(&x[i].x), centre);
    const __m128 qi = _mm_load_ps(&q[i].x);
    col[0] = _mm_add_ps(col[0], _mm_mul_ps(p, _mm_shuffle_ps(qi, qi, _MM_SHUFFLE(0, 0, 0, 0))));
    col[1] = _mm_add_ps(col[1], _mm_mul_ps(p, _mm_shuffle_ps(qi, qi, _MM_SHUFFLE(1, 1, 1, 1))));
    col[2] = _mm_add_ps(col[2], _mm_mul_ps(p, _mm_shuffle_ps(qi, qi, _MM_SHUFFLE(2, 2, 2, 2))));
  }
  Mat3 a(0.0f);
  for (int j = 0; j < 3; ++j) a[j] = first3(col[j]);
  return a;
#else
  Mat3 a(0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 p = Vec3(x[i].x, x[i].y, x[i].z) - c;
    a[0] += p * q[i].x;
    a[1] += p * q[i].y;
    a[2] += p * q[i].z;
  }
  return a;
#endif
}

}  // namespace floptle::matter::particles
