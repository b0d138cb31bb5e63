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

/// The iterative / many-branch primitives, kept out of line so the interpreter loop stays
/// small (few saved registers) for the cheap closed forms it inlines.
[[gnu::noinline]] float primitiveSlow(Op op, const float* D, float x, float y, float z) {
  switch (op) {
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
    default: return primitiveSlow(op, D, x, y, z);
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
    case Op::Subtract: a = std::max(a, -b); break;
    case Op::SmoothUnion:
      if constexpr (kMaterial) ma = b < a ? mb : ma;
      a = sdf::smin(a, b, D[0]);
      break;
    case Op::SmoothIntersection:
      if constexpr (kMaterial) ma = b > a ? mb : ma;
      a = sdf::smax(a, b, D[0]);
      break;
    case Op::SmoothSubtract: a = sdf::smax(a, -b, D[0]); break;
    default: break;
  }
}

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
      case Op::PopTransform: v[vi] *= D[13]; break;
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
      default:
        combine<kMaterial>(in.op, D, v[vi], m[vi], v[vi + 1], m[vi + 1]);
        break;
    }
  }
  if constexpr (kMaterial) *outM = m[0];
  const float d = v[0];
  return std::isnan(d) ? 1e30f : d;  // unreachable for finite input; never hand out NaN
}

}  // namespace

struct EvalState {
  float px[kMaxStack], py[kMaxStack], pz[kMaxStack], v[kMaxStack];
};

namespace {

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
    combine<false>(static_cast<Op>(C - 1), Dall + in.combineData, s.v[in.valueIndex - 1], unused, d, 0);
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

/// A group of same-kind children of one run: a plain loop, the distance inlined.
template <Op P, int X>
void groupPrimitive(const FastInstr* m, int count, const float* Dall, float x, float y, float z, float* out) {
  for (int j = 0; j < count; ++j) out[j] = distPrimitive<P, X>(m[j], Dall, x, y, z);
}

void groupSlow(const FastInstr* m, int count, const float* Dall, float x, float y, float z, float* out) {
  for (int j = 0; j < count; ++j) {
    const FastInstr& in = m[j];
    float lx = x, ly = y, lz = z;
    const float* T = Dall + in.xformData;
    toLocal(T, in.xform, lx, ly, lz);
    float d = primitiveSlow(in.op, Dall + in.data, lx, ly, lz);
    if (in.xform == 2) d *= T[13];
    out[j] = d;
  }
}

/// A run of `advance` primitives reading one point and blended into one value with op C (the
/// children of one union). kFirstStores: the first member starts the value (else the run
/// continues a value an earlier run stored). All child distances are measured first, group by
/// group (independent work the CPU overlaps), then folded in order in a register, so the
/// result is the same as combining child by child.
// GCC cannot see that the groups write d[0..n) before the fold reads it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <Op C, bool kFirstStores>
void stepRun(const FastInstr& in, const float* Dall, EvalState& s) {
  const float x = s.px[in.pointIndex], y = s.py[in.pointIndex], z = s.pz[in.pointIndex];
  float d[kMaxRun + 4];  // + 4: a 4-lane group kernel may write up to 3 lanes past its group
  const FastInstr* m = &in;
  const int n = in.advance;
  for (int j = 0; j < n; j += m[j].groupCount) m[j].group(m + j, m[j].groupCount, Dall, x, y, z, d + j);
  MaterialIndex unused = 0;
  const int vi = kFirstStores ? in.valueIndex : in.valueIndex - 1;
  float acc = kFirstStores ? d[0] : s.v[vi];
  for (int j = kFirstStores ? 1 : 0; j < n; ++j) combine<false>(C, Dall + m[j].combineData, acc, unused, d[j], 0);
  s.v[vi] = acc;
}
#pragma GCC diagnostic pop

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
    case Op::PopTransform: s.v[vi] *= D[13]; break;
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
    case Op::Union: return &stepPrimitive<P, X, int(Op::Union) + 1>;
    case Op::Intersection: return &stepPrimitive<P, X, int(Op::Intersection) + 1>;
    case Op::Subtract: return &stepPrimitive<P, X, int(Op::Subtract) + 1>;
    case Op::SmoothUnion: return &stepPrimitive<P, X, int(Op::SmoothUnion) + 1>;
    case Op::SmoothIntersection: return &stepPrimitive<P, X, int(Op::SmoothIntersection) + 1>;
    default: return &stepPrimitive<P, X, int(Op::SmoothSubtract) + 1>;
  }
}

template <Op P>
StepFn stepFor(const FastInstr& in) {
  return in.xform == 0 ? stepFor<P, 0>(in) : in.xform == 1 ? stepFor<P, 1>(in) : stepFor<P, 2>(in);
}

template <Op P>
GroupFn groupFor(const FastInstr& in) {
  return in.xform == 0 ? &groupPrimitive<P, 0> : in.xform == 1 ? &groupPrimitive<P, 1> : &groupPrimitive<P, 2>;
}

GroupFn chooseGroup(const FastInstr& in) {
  switch (in.op) {
    case Op::Sphere: return groupFor<Op::Sphere>(in);
    case Op::Box: return groupFor<Op::Box>(in);
    case Op::RoundBox: return groupFor<Op::RoundBox>(in);
    case Op::Capsule: return groupFor<Op::Capsule>(in);
    case Op::Cylinder: return groupFor<Op::Cylinder>(in);
    case Op::Torus: return groupFor<Op::Torus>(in);
    case Op::Plane: return groupFor<Op::Plane>(in);
    default: return &groupSlow;
  }
}

template <Op C>
StepFn runStepOf(bool firstStores) {
  return firstStores ? &stepRun<C, true> : &stepRun<C, false>;
}

StepFn runStep(Op c, bool firstStores) {
  switch (c) {
    case Op::Union: return runStepOf<Op::Union>(firstStores);
    case Op::Intersection: return runStepOf<Op::Intersection>(firstStores);
    case Op::Subtract: return runStepOf<Op::Subtract>(firstStores);
    case Op::SmoothUnion: return runStepOf<Op::SmoothUnion>(firstStores);
    case Op::SmoothIntersection: return runStepOf<Op::SmoothIntersection>(firstStores);
    default: return runStepOf<Op::SmoothSubtract>(firstStores);
  }
}

StepFn chooseStep(const FastInstr& in) {
  switch (in.op) {
    case Op::Sphere: return stepFor<Op::Sphere>(in);
    case Op::Box: return stepFor<Op::Box>(in);
    case Op::RoundBox: return stepFor<Op::RoundBox>(in);
    case Op::Capsule: return stepFor<Op::Capsule>(in);
    case Op::Cylinder: return stepFor<Op::Cylinder>(in);
    case Op::Torus: return stepFor<Op::Torus>(in);
    case Op::Plane: return stepFor<Op::Plane>(in);
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
  if (in.hasCombine) combine<false>(in.combine, Dall + in.combineData, s.v[in.valueIndex - 1], unused, d, 0);
  else s.v[in.valueIndex] = d;
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
  auto& f = impl.fast;
  for (FastInstr& in : f) {
    in.step = chooseStep(in);
    in.group = nullptr;
    in.groupCount = 0;
    in.advance = 1;
  }
  // Runs: primitives reading one point and blending into one value with one op C: a first
  // one storing v[vi] (or already blending with C into v[vi - 1]) and the ones after it
  // blending with C into v[vi]. At most kMaxRun members; a longer union continues in the
  // next run, which blends into the value the previous one stored.
  auto isPrim = [&](std::size_t k) { return isPrimitive(f[k].op); };
  for (std::size_t i = 0; i < f.size();) {
    if (!isPrim(i)) {
      ++i;
      continue;
    }
    const bool firstStores = !f[i].hasCombine;
    const int vi = firstStores ? f[i].valueIndex + 1 : f[i].valueIndex;  // where members blend from
    Op c = Op::Union;
    std::size_t j = i;
    if (!firstStores) c = f[i].combine;
    else if (i + 1 < f.size() && isPrim(i + 1) && f[i + 1].hasCombine) c = f[i + 1].combine;
    else {
      ++i;
      continue;
    }
    if (firstStores) ++j;
    while (j < f.size() && j - i < static_cast<std::size_t>(kMaxRun) && isPrim(j) && f[j].hasCombine &&
           f[j].combine == c && f[j].valueIndex == vi && f[j].pointIndex == f[i].pointIndex)
      ++j;
    if (j - i < 2) {
      i = std::max(j, i + 1);
      continue;
    }
    f[i].advance = static_cast<std::int32_t>(j - i);
    f[i].step = runStep(c, firstStores);
    // Same-kind groups inside the run.
    for (std::size_t g = i; g < j;) {
      std::size_t e = g + 1;
      while (e < j && f[e].op == f[g].op && f[e].xform == f[g].xform) ++e;
      f[g].group = chooseGroup(f[g]);
      f[g].groupCount = static_cast<std::int32_t>(e - g);
      g = e;
    }
    i = j;
  }
}

float evalDistance(const FieldProgram::Impl& impl, const float* D, Vec3 p) { return runSteps(impl, D, p); }

FieldSample evalSample(const FieldProgram::Impl& impl, const float* D, Vec3 p) {
  FieldSample s;
  s.distance = run<true>(impl, D, p, &s.material);
  return s;
}

float evalTwistLipschitz(float rate, float rho) { return twistLipschitz(rate, rho); }

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

float staticSteps(const FieldProgram::Impl& impl, Vec3 p) { return runSteps(impl, impl.derived.data(), p); }

}  // namespace

StaticDistanceFn chooseStaticDistance(const FieldProgram::Impl& impl) {
  if (impl.isAnimated()) return nullptr;
  if (impl.single) {
    const FastInstr& in = impl.fast[0];
    switch (in.op) {
      case Op::Sphere: return singleFor<Op::Sphere>(in.xform);
      case Op::Box: return singleFor<Op::Box>(in.xform);
      case Op::RoundBox: return singleFor<Op::RoundBox>(in.xform);
      case Op::Capsule: return singleFor<Op::Capsule>(in.xform);
      case Op::Cylinder: return singleFor<Op::Cylinder>(in.xform);
      case Op::Torus: return singleFor<Op::Torus>(in.xform);
      case Op::Plane: return singleFor<Op::Plane>(in.xform);
      default: break;
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
