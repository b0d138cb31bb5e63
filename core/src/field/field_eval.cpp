// The per-point evaluator: one pass over the instruction list with the values and points at
// their compile-time stack positions (fixed arrays on the caller's stack).
#include <cmath>

#include "program_impl.h"
#include "sdf_math.h"

namespace floptle::field {
namespace {

/// Lipschitz constant of the twist map at radius rho from the Y axis: its Jacobian is a
/// rotation times a shear of magnitude s = |rate|*rho, whose largest singular value is
/// (s + sqrt(s^2 + 4)) / 2. Dividing by it keeps the twisted distance a lower bound.
inline float twistLipschitz(float rate, float rho) {
  const float s = std::abs(rate) * rho;
  return 0.5f * (s + std::sqrt(s * s + 4.0f));
}

/// Primitive distance at (x, y, z) with derived constants D.
inline float primitive(Op op, const float* D, float x, float y, float z) {
  switch (op) {
    case Op::Sphere: return sdf::sphere(x, y, z, D[0]);
    case Op::Box: return sdf::box(x, y, z, D[0], D[1], D[2]);
    case Op::RoundBox: return sdf::box(x, y, z, D[0], D[1], D[2]) - D[3];
    case Op::Capsule: return sdf::capsule(x, y, z, D[0], D[1], D[2], D[3], D[4], D[5], D[6], D[7]);
    case Op::Cylinder: return sdf::cylinder(x, y, z, D[0], D[1]);
    case Op::Torus: return sdf::torus(x, y, z, D[0], D[1]);
    case Op::Plane: return x * D[0] + y * D[1] + z * D[2] - D[3];
    case Op::Wedge: return sdf::wedge(x, y, z, D[0], D[1], D[2]);
    case Op::Stairs: return sdf::stairs(x, y, z, D[0], D[1], D[2], D[3]);
    case Op::Mandelbulb: return sdf::mandelbulb(x, y, z, D[0], static_cast<int>(D[1]), D[2]);
    case Op::Menger: {
      const float h = D[1];
      if (h <= 0.0f) return sdf::len3(x, y, z);
      const float inv = 1.0f / h;
      return h * sdf::menger(x * inv, y * inv, z * inv, static_cast<int>(D[0]));
    }
    case Op::Mandelbox: return sdf::mandelbox(x, y, z, D[0], static_cast<int>(D[1]), D[2], D[3]);
    default: return 0.0f;
  }
}

inline float repeatAxis(float v, float period) {
  return period > 0.0f ? v - period * std::floor(v / period + 0.5f) : v;
}

template <bool kMaterial>
inline void run(const FieldProgram::Impl& impl, const float* Dall, Vec3 p, float& outD, MaterialIndex& outM) {
  float px[kMaxStack], py[kMaxStack], pz[kMaxStack], v[kMaxStack];
  MaterialIndex m[kMaxStack];
  px[0] = p.x, py[0] = p.y, pz[0] = p.z;
  for (const Instr& in : impl.code) {
    const float* D = Dall + in.data;
    const int vi = in.valueIndex, pi = in.pointIndex;
    switch (in.op) {
      case Op::PushTransform: {
        const float x = px[pi - 1] - D[9], y = py[pi - 1] - D[10], z = pz[pi - 1] - D[11];
        px[pi] = D[0] * x + D[1] * y + D[2] * z;
        py[pi] = D[3] * x + D[4] * y + D[5] * z;
        pz[pi] = D[6] * x + D[7] * y + D[8] * z;
        break;
      }
      case Op::PopTransform: v[vi] *= D[13]; break;
      case Op::PushRepeat:
        px[pi] = repeatAxis(px[pi - 1], D[0]);
        py[pi] = repeatAxis(py[pi - 1], D[1]);
        pz[pi] = repeatAxis(pz[pi - 1], D[2]);
        break;
      case Op::PopRepeat: break;
      case Op::PushTwist: {
        const float a = -D[0] * py[pi - 1], c = std::cos(a), s = std::sin(a);
        px[pi] = c * px[pi - 1] - s * pz[pi - 1];
        py[pi] = py[pi - 1];
        pz[pi] = s * px[pi - 1] + c * pz[pi - 1];
        break;
      }
      case Op::PopTwist: {
        const float rho = sdf::len2(px[pi - 1], pz[pi - 1]);
        v[vi] /= twistLipschitz(D[0], rho + std::abs(v[vi]));
        break;
      }
      case Op::Union:
        if constexpr (kMaterial) m[vi] = v[vi + 1] < v[vi] ? m[vi + 1] : m[vi];
        v[vi] = std::min(v[vi], v[vi + 1]);
        break;
      case Op::Intersection:
        if constexpr (kMaterial) m[vi] = v[vi + 1] > v[vi] ? m[vi + 1] : m[vi];
        v[vi] = std::max(v[vi], v[vi + 1]);
        break;
      case Op::Subtract: v[vi] = std::max(v[vi], -v[vi + 1]); break;  // keeps the first's material
      case Op::SmoothUnion:
        if constexpr (kMaterial) m[vi] = v[vi + 1] < v[vi] ? m[vi + 1] : m[vi];
        v[vi] = sdf::smin(v[vi], v[vi + 1], D[0]);
        break;
      case Op::SmoothIntersection:
        if constexpr (kMaterial) m[vi] = v[vi + 1] > v[vi] ? m[vi + 1] : m[vi];
        v[vi] = sdf::smax(v[vi], v[vi + 1], D[0]);
        break;
      case Op::SmoothSubtract: v[vi] = sdf::smax(v[vi], -v[vi + 1], D[0]); break;
      default:
        v[vi] = primitive(in.op, D, px[pi], py[pi], pz[pi]);
        if constexpr (kMaterial) m[vi] = in.material;
        break;
    }
  }
  const float d = v[0];
  outD = std::isnan(d) ? 1e30f : d;  // unreachable for finite input; never hand out NaN
  if constexpr (kMaterial) outM = m[0];
}

}  // namespace

float evalDistance(const FieldProgram::Impl& impl, const float* D, Vec3 p) {
  float d;
  MaterialIndex m;
  run<false>(impl, D, p, d, m);
  return d;
}

FieldSample evalSample(const FieldProgram::Impl& impl, const float* D, Vec3 p) {
  FieldSample s;
  run<true>(impl, D, p, s.distance, s.material);
  return s;
}

float evalPrimitive(Op op, const float* D, float x, float y, float z) { return primitive(op, D, x, y, z); }
float evalTwistLipschitz(float rate, float rho) { return twistLipschitz(rate, rho); }

}  // namespace floptle::field
