// The per-point evaluator: one pass over the instruction list with the values and points at
// their compile-time stack positions (fixed arrays on the caller's stack).
#include <cmath>

#include "displace_math.h"
#include "eval_ops.h"

namespace floptle::field {
namespace {

using namespace ops;

template <bool kMaterial>
inline float run(const FieldProgram::Impl& impl, const float* Dall, Vec3 p, MaterialIndex* outM) {
  float px[kMaxStack], py[kMaxStack], pz[kMaxStack], v[kMaxStack];
  MaterialIndex m[kMaxStack];
  px[0] = p.x, py[0] = p.y, pz[0] = p.z;
  v[0] = 1e30f;  // an empty (default-constructed) program is far from everything
  m[0] = 0;
  for (const FastInstr& in : impl.fast) {
    const int vi = in.valueIndex, pi = in.pointIndex;
    if (isPrimitive(in.op)) {
      float x = px[pi], y = py[pi], z = pz[pi];
      const float* T = Dall + in.xformData;
      toLocal(T, in.xform, x, y, z);
      float d = primitive(in.op, Dall + in.data, x, y, z);
      if (in.xform == 2) d *= T[13];
      if (in.hasCombine) {
        combine<kMaterial>(in.combine, Dall + in.combineData, v[vi - 1], m[vi - 1], d, in.material);
      } else {
        v[vi] = d;
        if constexpr (kMaterial) m[vi] = in.material;
      }
      continue;
    }
    const float* D = Dall + in.data;
    switch (in.op) {
      case Op::PushTransform: {
        const float x = px[pi - 1] - D[9], y = py[pi - 1] - D[10], z = pz[pi - 1] - D[11];
        px[pi] = D[0] * x + D[1] * y + D[2] * z;
        py[pi] = D[3] * x + D[4] * y + D[5] * z;
        pz[pi] = D[6] * x + D[7] * y + D[8] * z;
        break;
      }
      case Op::PopTransform:
        v[vi] *= D[13];
        break;
      case Op::PushRepeat:
        px[pi] = repeatAxis(px[pi - 1], D[0]);
        py[pi] = repeatAxis(py[pi - 1], D[1]);
        pz[pi] = repeatAxis(pz[pi - 1], D[2]);
        break;
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
      case Op::PushDisplace:
        px[pi] = px[pi - 1], py[pi] = py[pi - 1], pz[pi] = pz[pi - 1];
        break;
      case Op::DisplaceSine:
        displace::addSine(D, px[pi - 1], py[pi - 1], pz[pi - 1], px[pi], py[pi], pz[pi]);
        break;
      case Op::DisplaceNoise:
        displace::addNoise(D, px[pi - 1], py[pi - 1], pz[pi - 1], px[pi], py[pi], pz[pi]);
        break;
      case Op::PopDisplace:
        v[vi] *= D[0];
        break;
      default:
        combine<kMaterial>(in.op, D, v[vi], m[vi], v[vi + 1], m[vi + 1]);
        break;
    }
  }
  if constexpr (kMaterial) *outM = m[0];
  const float d = v[0];
  return std::isnan(d) ? 1e30f : d;  // unreachable for finite input; never hand out NaN
}

/// Any fused primitive decoded at run time (the expensive ones: wedge, stairs, fractals).
void stepSlowPrimitive(const FastInstr& in, const float* Dall, EvalState& s);

/// A fused primitive with its transform kind X and combine op C (0 = none, else Op + 1)
/// fixed at compile time: no decoding branches left at run time.
template <Op P, int X, int C>
void stepPrimitive(const FastInstr& in, const float* Dall, EvalState& s) {
  float x = s.px[in.pointIndex], y = s.py[in.pointIndex], z = s.pz[in.pointIndex];
  const float* T = Dall + in.xformData;
  toLocal(T, X, x, y, z);
  float d = primitive(P, Dall + in.data, x, y, z);
  if constexpr (X == 2) d *= T[13];
  if constexpr (C == 0) {
    s.v[in.valueIndex] = d;
  } else {
    MaterialIndex unused = 0;
    combine<false>(static_cast<Op>(C - 1), Dall + in.combineData, s.v[in.valueIndex - 1], unused, d,
                   0);
  }
}

/// Everything else (points pushed / popped, binary ops not fused).
void stepGeneral(const FastInstr& in, const float* Dall, EvalState& s) {
  const float* D = Dall + in.data;
  const int vi = in.valueIndex, pi = in.pointIndex;
  switch (in.op) {
    case Op::PushTransform: {
      const float x = s.px[pi - 1] - D[9], y = s.py[pi - 1] - D[10], z = s.pz[pi - 1] - D[11];
      s.px[pi] = D[0] * x + D[1] * y + D[2] * z;
      s.py[pi] = D[3] * x + D[4] * y + D[5] * z;
      s.pz[pi] = D[6] * x + D[7] * y + D[8] * z;
      break;
    }
    case Op::PopTransform:
      s.v[vi] *= D[13];
      break;
    case Op::PushRepeat:
      s.px[pi] = repeatAxis(s.px[pi - 1], D[0]);
      s.py[pi] = repeatAxis(s.py[pi - 1], D[1]);
      s.pz[pi] = repeatAxis(s.pz[pi - 1], D[2]);
      break;
    case Op::PushTwist: {
      const float a = -D[0] * s.py[pi - 1], c = std::cos(a), sn = std::sin(a);
      s.px[pi] = c * s.px[pi - 1] - sn * s.pz[pi - 1];
      s.py[pi] = s.py[pi - 1];
      s.pz[pi] = sn * s.px[pi - 1] + c * s.pz[pi - 1];
      break;
    }
    case Op::PopTwist: {
      const float rho = sdf::len2(s.px[pi - 1], s.pz[pi - 1]);
      s.v[vi] /= twistLipschitz(D[0], rho + std::abs(s.v[vi]));
      break;
    }
    case Op::PushDisplace:
      s.px[pi] = s.px[pi - 1], s.py[pi] = s.py[pi - 1], s.pz[pi] = s.pz[pi - 1];
      break;
    case Op::DisplaceSine:
      displace::addSine(D, s.px[pi - 1], s.py[pi - 1], s.pz[pi - 1], s.px[pi], s.py[pi], s.pz[pi]);
      break;
    case Op::DisplaceNoise:
      displace::addNoise(D, s.px[pi - 1], s.py[pi - 1], s.pz[pi - 1], s.px[pi], s.py[pi], s.pz[pi]);
      break;
    case Op::PopDisplace:
      s.v[vi] *= D[0];
      break;
    default: {
      MaterialIndex a = 0;
      combine<false>(in.op, D, s.v[vi], a, s.v[vi + 1], 0);
      break;
    }
  }
}

template <Op P, int X>
StepFn stepFor(const FastInstr& in) {
  if (!in.hasCombine) return &stepPrimitive<P, X, 0>;
  switch (in.combine) {
    case Op::Union:
      return &stepPrimitive<P, X, int(Op::Union) + 1>;
    case Op::Intersection:
      return &stepPrimitive<P, X, int(Op::Intersection) + 1>;
    case Op::Subtract:
      return &stepPrimitive<P, X, int(Op::Subtract) + 1>;
    case Op::SmoothUnion:
      return &stepPrimitive<P, X, int(Op::SmoothUnion) + 1>;
    case Op::SmoothIntersection:
      return &stepPrimitive<P, X, int(Op::SmoothIntersection) + 1>;
    default:
      return &stepPrimitive<P, X, int(Op::SmoothSubtract) + 1>;
  }
}

template <Op P>
StepFn stepFor(const FastInstr& in) {
  return in.xform == 0 ? stepFor<P, 0>(in) : in.xform == 1 ? stepFor<P, 1>(in) : stepFor<P, 2>(in);
}

StepFn chooseStep(const FastInstr& in) {
  switch (in.op) {
    case Op::Sphere:
      return stepFor<Op::Sphere>(in);
    case Op::Box:
      return stepFor<Op::Box>(in);
    case Op::RoundBox:
      return stepFor<Op::RoundBox>(in);
    case Op::Capsule:
      return stepFor<Op::Capsule>(in);
    case Op::Cylinder:
      return stepFor<Op::Cylinder>(in);
    case Op::Torus:
      return stepFor<Op::Torus>(in);
    case Op::Plane:
      return stepFor<Op::Plane>(in);
    default:
      // Wedge, stairs and the fractals cost far more than a dispatch: one generic step.
      return isPrimitive(in.op) ? &stepSlowPrimitive : &stepGeneral;
  }
}

void stepSlowPrimitive(const FastInstr& in, const float* Dall, EvalState& s) {
  float x = s.px[in.pointIndex], y = s.py[in.pointIndex], z = s.pz[in.pointIndex];
  const float* T = Dall + in.xformData;
  toLocal(T, in.xform, x, y, z);
  float d = primitiveSlow(in.op, Dall + in.data, x, y, z);
  if (in.xform == 2) d *= T[13];
  MaterialIndex unused = 0;
  if (in.hasCombine)
    combine<false>(in.combine, Dall + in.combineData, s.v[in.valueIndex - 1], unused, d, 0);
  else
    s.v[in.valueIndex] = d;
}

/// Distance only: one indirect call per instruction into its specialized step.
inline float runSteps(const FieldProgram::Impl& impl, const float* D, Vec3 p) {
  EvalState s;
  s.px[0] = p.x, s.py[0] = p.y, s.pz[0] = p.z;
  s.v[0] = 1e30f;  // an empty (default-constructed) program is far from everything
  const FastInstr* in = impl.fast.data();
  const FastInstr* end = in + impl.fast.size();
  while (in < end) {
    in->step(*in, D, s);
    in += in->advance;
  }
  const float d = s.v[0];
  return std::isnan(d) ? 1e30f : d;
}

}  // namespace

void assignSteps(FieldProgram::Impl& impl) {
  for (FastInstr& in : impl.fast) {
    in.step = chooseStep(in);
    in.group = nullptr;
    in.groupCount = 0;
    in.advance = 1;
  }
  assignRuns(impl);
}

float evalDistance(const FieldProgram::Impl& impl, const float* D, Vec3 p) {
  return runSteps(impl, D, p);
}

FieldSample evalSample(const FieldProgram::Impl& impl, const float* D, Vec3 p) {
  FieldSample s;
  s.distance = run<true>(impl, D, p, &s.material);
  return s;
}

float evalTwistLipschitz(float rate, float rho) {
  return twistLipschitz(rate, rho);
}

namespace {

/// Static lone primitive P under transform kind X: no loop, no decoding.
template <Op P, int X>
float staticSingle(const FieldProgram::Impl& impl, Vec3 p) {
  const float d = distPrimitive<P, X>(impl.fast[0], impl.derived.data(), p.x, p.y, p.z);
  return std::isnan(d) ? 1e30f : d;
}

template <Op P>
StaticDistanceFn singleFor(int xform) {
  return xform == 0 ? &staticSingle<P, 0> : xform == 1 ? &staticSingle<P, 1> : &staticSingle<P, 2>;
}

/// Static lone Mandelbulb under transform kind X (a fractal scene): the estimate called
/// directly, without the step loop and the slow-primitive dispatch (the same operations as
/// stepSlowPrimitive, so the same bits).
template <int X>
float staticMandelbulb(const FieldProgram::Impl& impl, Vec3 p) {
  const FastInstr& in = impl.fast[0];
  const float* Dall = impl.derived.data();
  const float* T = Dall + in.xformData;
  const float* D = Dall + in.data;
  float x = p.x, y = p.y, z = p.z;
  toLocal(T, X, x, y, z);
  float d = sdf::mandelbulb(x, y, z, D[0], static_cast<int>(D[1]), D[2]);
  if constexpr (X == 2) d *= T[13];
  return std::isnan(d) ? 1e30f : d;
}

float staticSteps(const FieldProgram::Impl& impl, Vec3 p) {
  return runSteps(impl, impl.derived.data(), p);
}

}  // namespace

StaticDistanceFn chooseStaticDistance(const FieldProgram::Impl& impl) {
  if (impl.isAnimated()) return nullptr;
  if (impl.single) {
    const FastInstr& in = impl.fast[0];
    switch (in.op) {
      case Op::Sphere:
        return singleFor<Op::Sphere>(in.xform);
      case Op::Box:
        return singleFor<Op::Box>(in.xform);
      case Op::RoundBox:
        return singleFor<Op::RoundBox>(in.xform);
      case Op::Capsule:
        return singleFor<Op::Capsule>(in.xform);
      case Op::Cylinder:
        return singleFor<Op::Cylinder>(in.xform);
      case Op::Torus:
        return singleFor<Op::Torus>(in.xform);
      case Op::Plane:
        return singleFor<Op::Plane>(in.xform);
      case Op::Mandelbulb:
        return in.xform == 0   ? &staticMandelbulb<0>
               : in.xform == 1 ? &staticMandelbulb<1>
                               : &staticMandelbulb<2>;
      default:
        break;
    }
  }
  return &staticSteps;
}

// Animated graphs: derive the constants at t, then run the steps.
float FieldProgram::distanceAt(Vec3 p, double t) const {
  const Impl& impl = *impl_;
  if (!impl.isAnimated()) return runSteps(impl, impl.derived.data(), p);
  return withDerived(impl, t, [&](const float* D) { return runSteps(impl, D, p); });
}

FieldSample FieldProgram::sample(Vec3 p, double t) const {
  return withDerived(*impl_, t, [&](const float* D) { return evalSample(*impl_, D, p); });
}

}  // namespace floptle::field
