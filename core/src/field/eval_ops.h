#pragma once
// The per-point evaluator's building blocks, shared by field_eval.cpp (the interpreter) and
// field_eval_runs.cpp (unions folded over same-kind groups): primitive distances, the
// world -> local transform and the binary CSG ops, each the one definition every path uses.
#include <cmath>

#include "program_impl.h"
#include "sdf_math.h"

namespace floptle::field::ops {

/// Lipschitz constant of the twist map at radius rho from the Y axis: its Jacobian is a
/// rotation times a shear of magnitude s = |rate|*rho, whose largest singular value is
/// (s + sqrt(s^2 + 4)) / 2. Dividing by it keeps the twisted distance a lower bound.
inline float twistLipschitz(float rate, float rho) {
  const float s = std::abs(rate) * rho;
  return 0.5f * (s + std::sqrt(s * s + 4.0f));
}

/// The iterative / many-branch primitives, kept out of line so the interpreter loop stays
/// small (few saved registers) for the cheap closed forms it inlines.
[[gnu::noinline]] inline float primitiveSlow(Op op, const float* D, float x, float y, float z) {
  switch (op) {
    case Op::Wedge:
      return sdf::wedge(x, y, z, D[0], D[1], D[2]);
    case Op::Stairs:
      return sdf::stairs(x, y, z, D[0], D[1], D[2], D[3]);
    case Op::Mandelbulb:
      return sdf::mandelbulb(x, y, z, D[0], static_cast<int>(D[1]), D[2]);
    case Op::Menger: {
      const float h = D[1];
      if (h <= 0.0f) return sdf::len3(x, y, z);
      const float inv = 1.0f / h;
      return h * sdf::menger(x * inv, y * inv, z * inv, static_cast<int>(D[0]));
    }
    case Op::Mandelbox:
      return sdf::mandelbox(x, y, z, D[0], static_cast<int>(D[1]), D[2], D[3]);
    default:
      return 0.0f;
  }
}

/// Primitive distance at (x, y, z) with derived constants D.
inline float primitive(Op op, const float* D, float x, float y, float z) {
  switch (op) {
    case Op::Sphere:
      return sdf::sphere(x, y, z, D[0]);
    case Op::Box:
      return sdf::box(x, y, z, D[0], D[1], D[2]);
    case Op::RoundBox:
      return sdf::box(x, y, z, D[0], D[1], D[2]) - D[3];
    case Op::Capsule:
      return sdf::capsule(x, y, z, D[0], D[1], D[2], D[3], D[4], D[5], D[6], D[7]);
    case Op::Cylinder:
      return sdf::cylinder(x, y, z, D[0], D[1]);
    case Op::Torus:
      return sdf::torus(x, y, z, D[0], D[1]);
    case Op::Plane:
      return x * D[0] + y * D[1] + z * D[2] - D[3];
    default:
      return primitiveSlow(op, D, x, y, z);
  }
}

/// World point -> the primitive's local frame. T is the instruction's transform block:
/// T[0..8] the inverse rotation-and-scale rows, T[9..11] the translation. xform: 0 none,
/// 1 translation only, 2 full. (Inlined with a constant xform in the fused steps.)
inline void toLocal(const float* T, int xform, float& x, float& y, float& z) {
  if (xform == 0) return;
  x -= T[9], y -= T[10], z -= T[11];
  if (xform == 2) {
    const float lx = T[0] * x + T[1] * y + T[2] * z;
    const float ly = T[3] * x + T[4] * y + T[5] * z;
    const float lz = T[6] * x + T[7] * y + T[8] * z;
    x = lx, y = ly, z = lz;
  }
}

inline float repeatAxis(float v, float period) {
  return period > 0.0f ? v - period * std::floor(v / period + 0.5f) : v;
}

/// The binary CSG ops on (a, material ma) and (b, mb); unions take the nearer child's
/// material, intersections the farther's, subtractions keep the first's.
template <bool kMaterial>
inline void combine(Op op, const float* D, float& a, MaterialIndex& ma, float b, MaterialIndex mb) {
  switch (op) {
    case Op::Union:
      if constexpr (kMaterial) ma = b < a ? mb : ma;
      a = std::min(a, b);
      break;
    case Op::Intersection:
      if constexpr (kMaterial) ma = b > a ? mb : ma;
      a = std::max(a, b);
      break;
    case Op::Subtract:
      a = std::max(a, -b);
      break;
    case Op::SmoothUnion:
      if constexpr (kMaterial) ma = b < a ? mb : ma;
      a = sdf::smin(a, b, D[0]);
      break;
    case Op::SmoothIntersection:
      if constexpr (kMaterial) ma = b > a ? mb : ma;
      a = sdf::smax(a, b, D[0]);
      break;
    case Op::SmoothSubtract:
      a = sdf::smax(a, -b, D[0]);
      break;
    default:
      break;
  }
}

/// Distance of primitive P under transform kind X (no combine).
template <Op P, int X>
inline float distPrimitive(const FastInstr& in, const float* Dall, float x, float y, float z) {
  const float* T = Dall + in.xformData;
  toLocal(T, X, x, y, z);
  float d = primitive(P, Dall + in.data, x, y, z);
  if constexpr (X == 2) d *= T[13];
  return d;
}

}  // namespace floptle::field::ops
