// Same-kind children of one union, four at a time: the per-point interpreter measures a
// group of spheres or boxes (each under its own transform) with one SSE lane per child.
//
// packGroups lays each such group's constants out as structure-of-arrays at the end of the
// derived constants (copied there after every derive, so animated parameters follow), and
// the kernels below run, lane by lane, exactly the operations of toLocal + sdf::sphere /
// sdf::box in the same order (sqrtps is correctly rounded like sqrtss; maxps equals std::max
// here, as no |x| - b is -0 or NaN; no contraction): the result is bit for bit the one the
// scalar and the batch paths give.
#include <algorithm>

#include "program_impl.h"
#include "sdf_math.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace floptle::field {
namespace {

/// Lanes per SoA chunk.
constexpr int kLanes = 4;

/// Number of primitive constants a kernel reads (sphere 1, box 3, round box 4).
constexpr int primFields(Op p) {
  return p == Op::Sphere ? 1 : p == Op::Box ? 3 : 4;
}
/// Number of transform constants (translation 3; full: translation 3, matrix 9, scale 1).
constexpr int xformFields(int x) {
  return x == 0 ? 0 : x == 1 ? 3 : 13;
}

#if defined(__SSE2__)
inline __m128 absPs(__m128 v) {
  return _mm_and_ps(v, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)));
}
/// sdf::positivePart / negativePart per lane: (v +- |v|) * 0.5.
inline __m128 positivePs(__m128 v) {
  return _mm_mul_ps(_mm_add_ps(v, absPs(v)), _mm_set1_ps(0.5f));
}
inline __m128 negativePs(__m128 v) {
  return _mm_mul_ps(_mm_sub_ps(v, absPs(v)), _mm_set1_ps(0.5f));
}
/// sdf::len3 per lane: sqrt((x*x + y*y) + z*z).
inline __m128 len3Ps(__m128 x, __m128 y, __m128 z) {
  return _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)));
}

/// Chunk layout (floats, each field kLanes wide): [translation x, y, z][matrix rows 0..8]
/// [scale][primitive constants].
template <Op P, int X>
void groupSimd(const FastInstr* first, int count, const float* Dall, float x, float y, float z,
               float* out) {
  constexpr int K = xformFields(X) + primFields(P);
  const float* B = Dall + first->packData;
  for (int j = 0; j < count; j += kLanes, B += K * kLanes) {
    auto field = [&](int i) { return _mm_loadu_ps(B + i * kLanes); };
    __m128 lx = _mm_set1_ps(x), ly = _mm_set1_ps(y), lz = _mm_set1_ps(z);
    if constexpr (X >= 1) {
      lx = _mm_sub_ps(lx, field(0)), ly = _mm_sub_ps(ly, field(1)), lz = _mm_sub_ps(lz, field(2));
    }
    if constexpr (X == 2) {
      const __m128 a = lx, c = ly, e = lz;
      lx = _mm_add_ps(_mm_add_ps(_mm_mul_ps(field(3), a), _mm_mul_ps(field(4), c)),
                      _mm_mul_ps(field(5), e));
      ly = _mm_add_ps(_mm_add_ps(_mm_mul_ps(field(6), a), _mm_mul_ps(field(7), c)),
                      _mm_mul_ps(field(8), e));
      lz = _mm_add_ps(_mm_add_ps(_mm_mul_ps(field(9), a), _mm_mul_ps(field(10), c)),
                      _mm_mul_ps(field(11), e));
    }
    constexpr int p = xformFields(X);
    __m128 d;
    if constexpr (P == Op::Sphere) {
      d = _mm_sub_ps(len3Ps(lx, ly, lz), field(p));
    } else {
      const __m128 qx = _mm_sub_ps(absPs(lx), field(p)), qy = _mm_sub_ps(absPs(ly), field(p + 1)),
                   qz = _mm_sub_ps(absPs(lz), field(p + 2));
      const __m128 outside = len3Ps(positivePs(qx), positivePs(qy), positivePs(qz));
      d = _mm_add_ps(outside, negativePs(_mm_max_ps(qx, _mm_max_ps(qy, qz))));
      if constexpr (P == Op::RoundBox) d = _mm_sub_ps(d, field(p + 3));
    }
    if constexpr (X == 2) d = _mm_mul_ps(d, field(12));
    _mm_storeu_ps(out + j, d);
  }
}

template <Op P>
GroupFn simdFor(int xform) {
  return xform == 0 ? &groupSimd<P, 0> : xform == 1 ? &groupSimd<P, 1> : &groupSimd<P, 2>;
}
#endif

bool packable(Op op) {
  return op == Op::Sphere || op == Op::Box || op == Op::RoundBox;
}

/// Offsets, inside a member's transform block, of the chunk fields in chunk order.
std::vector<int> xformOffsets(int xform) {
  if (xform == 0) return {};
  if (xform == 1) return {9, 10, 11};
  return {9, 10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 13};
}

}  // namespace

void packGroups(FieldProgram::Impl& impl) {
#if defined(__SSE2__)
  auto& f = impl.fast;
  for (std::size_t g = 0; g < f.size(); ++g) {
    FastInstr& head = f[g];
    if (head.group == nullptr || head.groupCount < 2 || !packable(head.op)) continue;
    const std::vector<int> xo = xformOffsets(head.xform);
    const int pf = head.op == Op::Sphere ? 1 : head.op == Op::Box ? 3 : 4;
    const int K = static_cast<int>(xo.size()) + pf;
    const int count = head.groupCount;
    const int chunks = (count + kLanes - 1) / kLanes;
    const int base = static_cast<int>(impl.derived.size());
    impl.derived.resize(impl.derived.size() + static_cast<std::size_t>(chunks * K * kLanes));
    for (int j = 0; j < chunks * kLanes; ++j) {
      const FastInstr& m =
          f[g + static_cast<std::size_t>(std::min(j, count - 1))];  // tail lanes repeat the last
      const int chunk = j / kLanes, lane = j % kLanes;
      for (int i = 0; i < K; ++i) {
        const int src = i < static_cast<int>(xo.size())
                            ? m.xformData + xo[static_cast<std::size_t>(i)]
                            : m.data + (i - static_cast<int>(xo.size()));
        const int dst = base + (chunk * K + i) * kLanes + lane;
        impl.derived[static_cast<std::size_t>(dst)] = impl.derived[static_cast<std::size_t>(src)];
        impl.packCopies.push_back({src, dst});
      }
    }
    head.packData = base;
    switch (head.op) {
      case Op::Sphere:
        head.group = simdFor<Op::Sphere>(head.xform);
        break;
      case Op::Box:
        head.group = simdFor<Op::Box>(head.xform);
        break;
      default:
        head.group = simdFor<Op::RoundBox>(head.xform);
        break;
    }
  }
#else
  (void)impl;
#endif
}

}  // namespace floptle::field
