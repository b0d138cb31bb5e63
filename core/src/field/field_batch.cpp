// The batch evaluator: each instruction sweeps a block of up to kBlock points held as
// structure-of-arrays, so dispatch is paid once per block and the inner loops are plain
// arithmetic the compiler can vectorize.
// Let GCC vectorize the fixed-length block loops at -O2 (its default "very cheap" model
// refuses loops that need an alias check).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include <cmath>

#include "displace_math.h"
#include "program_impl.h"
#include "sdf_math.h"

namespace floptle::field {

float evalTwistLipschitz(float rate, float rho);

namespace {

struct Block {
  float x[kMaxStack][kBlock];
  float y[kMaxStack][kBlock];
  float z[kMaxStack][kBlock];
  float v[kMaxStack][kBlock];
};

template <class F>
inline void lanes(int n, F&& f) {
  for (int i = 0; i < n; ++i) f(i);
}

/// In-place square root of a whole block. std::sqrt keeps an errno path that stops GCC from
/// vectorizing, so on SSE2 this uses sqrtps, which is IEEE correctly rounded like the scalar
/// sqrtss: the batch stays bit-identical to the per-point path.
inline void sqrtBlock(float* v) {
#if defined(__SSE2__)
  for (int i = 0; i < kBlock; i += 4) _mm_storeu_ps(v + i, _mm_sqrt_ps(_mm_loadu_ps(v + i)));
#else
  for (int i = 0; i < kBlock; ++i) v[i] = std::sqrt(v[i]);
#endif
}

}  // namespace

void evalBlock(const FieldProgram::Impl& impl, const float* Dall, const float* xs, const float* ys,
               const float* zs, int n, float* out) {
  Block b;  // uninitialized on purpose: only the levels the program uses are written
  // Pad to the full block so fixed-length loops vectorize without a remainder.
  for (int i = 0; i < kBlock; ++i) {
    const bool live = i < n;
    b.x[0][i] = live ? xs[i] : 0.0f;
    b.y[0][i] = live ? ys[i] : 0.0f;
    b.z[0][i] = live ? zs[i] : 0.0f;
  }
  constexpr int N = kBlock;
  for (const Instr& in : impl.code) {
    const float* D = Dall + in.data;
    const int vi = in.valueIndex, pi = in.pointIndex;
    float* __restrict v = b.v[vi];
    const float* __restrict x = b.x[pi];
    const float* __restrict y = b.y[pi];
    const float* __restrict z = b.z[pi];
    switch (in.op) {
      case Op::Sphere: {
        const float r = D[0];
        alignas(16) float len[kBlock];
        lanes(N, [&](int i) { len[i] = x[i] * x[i] + y[i] * y[i] + z[i] * z[i]; });
        sqrtBlock(len);
        lanes(N, [&](int i) { v[i] = len[i] - r; });
        break;
      }
      case Op::Box:
      case Op::RoundBox: {
        // sdf::box split around the square root: |max(q, 0)| + min(max(q), 0).
        const float bx = D[0], by = D[1], bz = D[2], r = in.op == Op::RoundBox ? D[3] : 0.0f;
        alignas(16) float out2[kBlock], inner[kBlock];
#if defined(__SSE2__)
        // Explicit SSE: GCC will not if-convert the scalar max/min chain at -O2. maxps/minps
        // equal std::max/min here (no NaN, and |x| - b is never -0), so results are identical.
        const __m128 vb[3] = {_mm_set1_ps(bx), _mm_set1_ps(by), _mm_set1_ps(bz)};
        const __m128 absMask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)),
                     zero = _mm_setzero_ps();
        for (int i = 0; i < N; i += 4) {
          const __m128 qx = _mm_sub_ps(_mm_and_ps(_mm_loadu_ps(x + i), absMask), vb[0]);
          const __m128 qy = _mm_sub_ps(_mm_and_ps(_mm_loadu_ps(y + i), absMask), vb[1]);
          const __m128 qz = _mm_sub_ps(_mm_and_ps(_mm_loadu_ps(z + i), absMask), vb[2]);
          const __m128 ox = _mm_max_ps(qx, zero), oy = _mm_max_ps(qy, zero),
                       oz = _mm_max_ps(qz, zero);
          _mm_store_ps(out2 + i, _mm_add_ps(_mm_add_ps(_mm_mul_ps(ox, ox), _mm_mul_ps(oy, oy)),
                                            _mm_mul_ps(oz, oz)));
          _mm_store_ps(inner + i, _mm_min_ps(_mm_max_ps(qx, _mm_max_ps(qy, qz)), zero));
        }
#else
        for (int i = 0; i < N; ++i) {
          const float qx = std::abs(x[i]) - bx, qy = std::abs(y[i]) - by, qz = std::abs(z[i]) - bz;
          const float ox = std::max(qx, 0.0f), oy = std::max(qy, 0.0f), oz = std::max(qz, 0.0f);
          out2[i] = ox * ox + oy * oy + oz * oz;
          inner[i] = std::min(std::max(qx, std::max(qy, qz)), 0.0f);
        }
#endif
        sqrtBlock(out2);
        if (in.op == Op::RoundBox) {
          lanes(N, [&](int i) { v[i] = (out2[i] + inner[i]) - r; });
        } else {
          lanes(N, [&](int i) { v[i] = out2[i] + inner[i]; });
        }
        break;
      }
      case Op::Capsule:
        lanes(N, [&](int i) {
          v[i] = sdf::capsule(x[i], y[i], z[i], D[0], D[1], D[2], D[3], D[4], D[5], D[6], D[7]);
        });
        break;
      case Op::Cylinder:
        lanes(N, [&](int i) { v[i] = sdf::cylinder(x[i], y[i], z[i], D[0], D[1]); });
        break;
      case Op::Torus:
        lanes(N, [&](int i) { v[i] = sdf::torus(x[i], y[i], z[i], D[0], D[1]); });
        break;
      case Op::Plane: {
        const float nx = D[0], ny = D[1], nz = D[2], o = D[3];
        lanes(N, [&](int i) { v[i] = x[i] * nx + y[i] * ny + z[i] * nz - o; });
        break;
      }
      case Op::Wedge:
        lanes(n, [&](int i) { v[i] = sdf::wedge(x[i], y[i], z[i], D[0], D[1], D[2]); });
        break;
      case Op::Stairs:
        lanes(n, [&](int i) { v[i] = sdf::stairs(x[i], y[i], z[i], D[0], D[1], D[2], D[3]); });
        break;
      case Op::Mandelbulb: {
        const int it = static_cast<int>(D[1]);
#if defined(__SSE2__)
        if (sdf::mandelbulbIntegerPower(D[0])) {
          // Four points per call (lanes past n are padding: computed, never read).
          const int power = static_cast<int>(D[0]);
          for (int i = 0; i < n; i += 4) {
            const simd4::F4 d = sdf::mandelbulbLanesAnyPower(
                simd4::F4{_mm_loadu_ps(x + i)}, simd4::F4{_mm_loadu_ps(y + i)},
                simd4::F4{_mm_loadu_ps(z + i)}, power, it, D[2]);
            _mm_storeu_ps(v + i, d.v);
          }
          break;
        }
        lanes(n, [&](int i) { v[i] = sdf::mandelbulbTrig(x[i], y[i], z[i], D[0], it, D[2]); });
#else
        lanes(n, [&](int i) { v[i] = sdf::mandelbulb(x[i], y[i], z[i], D[0], it, D[2]); });
#endif
        break;
      }
      case Op::Menger: {
        const int it = static_cast<int>(D[0]);
        const float h = D[1];
        if (h <= 0.0f) {
          lanes(n, [&](int i) { v[i] = sdf::len3(x[i], y[i], z[i]); });
        } else {
          const float inv = 1.0f / h;
          lanes(n, [&](int i) { v[i] = h * sdf::menger(x[i] * inv, y[i] * inv, z[i] * inv, it); });
        }
        break;
      }
      case Op::Mandelbox: {
        const int it = static_cast<int>(D[1]);
        lanes(n, [&](int i) { v[i] = sdf::mandelbox(x[i], y[i], z[i], D[0], it, D[2], D[3]); });
        break;
      }
      case Op::PushTransform: {
        const float* __restrict x0 = b.x[pi - 1];
        const float* __restrict y0 = b.y[pi - 1];
        const float* __restrict z0 = b.z[pi - 1];
        float* __restrict x1 = b.x[pi];
        float* __restrict y1 = b.y[pi];
        float* __restrict z1 = b.z[pi];
        const float m0 = D[0], m1 = D[1], m2 = D[2], m3 = D[3], m4 = D[4], m5 = D[5], m6 = D[6],
                    m7 = D[7], m8 = D[8];
        const float tx = D[9], ty = D[10], tz = D[11];
        lanes(N, [&](int i) {
          const float a = x0[i] - tx, c = y0[i] - ty, e = z0[i] - tz;
          x1[i] = m0 * a + m1 * c + m2 * e;
          y1[i] = m3 * a + m4 * c + m5 * e;
          z1[i] = m6 * a + m7 * c + m8 * e;
        });
        break;
      }
      case Op::PopTransform: {
        const float s = D[13];
        lanes(N, [&](int i) { v[i] *= s; });
        break;
      }
      case Op::PushRepeat: {
        const float* src[3] = {b.x[pi - 1], b.y[pi - 1], b.z[pi - 1]};
        float* dst[3] = {b.x[pi], b.y[pi], b.z[pi]};
        for (int a = 0; a < 3; ++a) {
          const float period = D[a];
          const float* __restrict s = src[a];
          float* __restrict d = dst[a];
          if (period > 0.0f) {
            lanes(N, [&](int i) { d[i] = s[i] - period * std::floor(s[i] / period + 0.5f); });
          } else {
            lanes(N, [&](int i) { d[i] = s[i]; });
          }
        }
        break;
      }
      case Op::PopRepeat:
        break;
      case Op::PushTwist: {
        const float rate = D[0];
        lanes(n, [&](int i) {
          const float a = -rate * b.y[pi - 1][i], c = std::cos(a), s = std::sin(a);
          b.x[pi][i] = c * b.x[pi - 1][i] - s * b.z[pi - 1][i];
          b.y[pi][i] = b.y[pi - 1][i];
          b.z[pi][i] = s * b.x[pi - 1][i] + c * b.z[pi - 1][i];
        });
        break;
      }
      case Op::PopTwist: {
        const float rate = D[0];
        lanes(n, [&](int i) {
          const float rho = sdf::len2(b.x[pi - 1][i], b.z[pi - 1][i]);
          v[i] /= evalTwistLipschitz(rate, rho + std::abs(v[i]));
        });
        break;
      }
      case Op::PushDisplace:
        lanes(N, [&](int i) {
          b.x[pi][i] = b.x[pi - 1][i], b.y[pi][i] = b.y[pi - 1][i], b.z[pi][i] = b.z[pi - 1][i];
        });
        break;
      case Op::DisplaceSine:
        lanes(n, [&](int i) {
          displace::addSine(D, b.x[pi - 1][i], b.y[pi - 1][i], b.z[pi - 1][i], b.x[pi][i],
                            b.y[pi][i], b.z[pi][i]);
        });
        break;
      case Op::DisplaceNoise:
        lanes(n, [&](int i) {
          displace::addNoise(D, b.x[pi - 1][i], b.y[pi - 1][i], b.z[pi - 1][i], b.x[pi][i],
                             b.y[pi][i], b.z[pi][i]);
        });
        break;
      case Op::PopDisplace: {
        const float s = D[0];
        lanes(N, [&](int i) { v[i] *= s; });
        break;
      }
      case Op::Union: {
        const float* __restrict w = b.v[vi + 1];
        lanes(N, [&](int i) { v[i] = std::min(v[i], w[i]); });
        break;
      }
      case Op::Intersection: {
        const float* __restrict w = b.v[vi + 1];
        lanes(N, [&](int i) { v[i] = std::max(v[i], w[i]); });
        break;
      }
      case Op::Subtract: {
        const float* __restrict w = b.v[vi + 1];
        lanes(N, [&](int i) { v[i] = std::max(v[i], -w[i]); });
        break;
      }
      case Op::SmoothUnion:
      case Op::SmoothIntersection:
      case Op::SmoothSubtract: {
        const float* __restrict w = b.v[vi + 1];
        const float k = D[0];
        const float sgnA = in.op == Op::SmoothUnion ? 1.0f : -1.0f;
        const float sgnB = in.op == Op::SmoothIntersection ? -1.0f : 1.0f;
        if (k <= 0.0f) {
          lanes(N, [&](int i) { v[i] = sgnA * std::min(sgnA * v[i], sgnB * w[i]); });
        } else {
          // smin(a, b) = min(a, b) - h^2 k / 4 with h = max(k - |a - b|, 0) / k; smax(a, b) =
          // -smin(-a, -b); subtraction is smax(a, -b) = -smin(-a, b).
          lanes(N, [&](int i) {
            const float a = sgnA * v[i], c = sgnB * w[i];
            const float h = std::max(k - std::abs(a - c), 0.0f) / k;
            v[i] = sgnA * (std::min(a, c) - h * h * k * 0.25f);
          });
        }
        break;
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    const float d = b.v[0][i];
    out[i] = std::isnan(d) ? 1e30f : d;
  }
}

}  // namespace floptle::field
