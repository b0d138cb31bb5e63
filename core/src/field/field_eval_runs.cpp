// Unions folded over same-kind groups: a run of primitives reading one point and blended
// into one value (the children of one union) is one step; its children are measured group by
// group (one call per group of the same primitive and transform kind, 4-lane kernels for
// spheres and boxes: field_group_simd.cpp), then folded in order.
#include <algorithm>

#include "eval_ops.h"

namespace floptle::field {
namespace {

using namespace ops;

/// A group of same-kind children of one run: a plain loop, the distance inlined.
template <Op P, int X>
void groupPrimitive(const FastInstr* m, int count, const float* Dall, float x, float y, float z,
                    float* out) {
  for (int j = 0; j < count; ++j) out[j] = distPrimitive<P, X>(m[j], Dall, x, y, z);
}

void groupSlow(const FastInstr* m, int count, const float* Dall, float x, float y, float z,
               float* out) {
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
  for (int j = 0; j < n; j += m[j].groupCount)
    m[j].group(m + j, m[j].groupCount, Dall, x, y, z, d + j);
  MaterialIndex unused = 0;
  const int vi = kFirstStores ? in.valueIndex : in.valueIndex - 1;
  float acc = kFirstStores ? d[0] : s.v[vi];
  for (int j = kFirstStores ? 1 : 0; j < n; ++j)
    combine<false>(C, Dall + m[j].combineData, acc, unused, d[j], 0);
  s.v[vi] = acc;
}
#pragma GCC diagnostic pop

template <Op P>
GroupFn groupFor(const FastInstr& in) {
  return in.xform == 0   ? &groupPrimitive<P, 0>
         : in.xform == 1 ? &groupPrimitive<P, 1>
                         : &groupPrimitive<P, 2>;
}

GroupFn chooseGroup(const FastInstr& in) {
  switch (in.op) {
    case Op::Sphere:
      return groupFor<Op::Sphere>(in);
    case Op::Box:
      return groupFor<Op::Box>(in);
    case Op::RoundBox:
      return groupFor<Op::RoundBox>(in);
    case Op::Capsule:
      return groupFor<Op::Capsule>(in);
    case Op::Cylinder:
      return groupFor<Op::Cylinder>(in);
    case Op::Torus:
      return groupFor<Op::Torus>(in);
    case Op::Plane:
      return groupFor<Op::Plane>(in);
    default:
      return &groupSlow;
  }
}

template <Op C>
StepFn runStepOf(bool firstStores) {
  return firstStores ? &stepRun<C, true> : &stepRun<C, false>;
}

StepFn runStep(Op c, bool firstStores) {
  switch (c) {
    case Op::Union:
      return runStepOf<Op::Union>(firstStores);
    case Op::Intersection:
      return runStepOf<Op::Intersection>(firstStores);
    case Op::Subtract:
      return runStepOf<Op::Subtract>(firstStores);
    case Op::SmoothUnion:
      return runStepOf<Op::SmoothUnion>(firstStores);
    case Op::SmoothIntersection:
      return runStepOf<Op::SmoothIntersection>(firstStores);
    default:
      return runStepOf<Op::SmoothSubtract>(firstStores);
  }
}

}  // namespace

void assignRuns(FieldProgram::Impl& impl) {
  auto& f = impl.fast;
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
    if (!firstStores)
      c = f[i].combine;
    else if (i + 1 < f.size() && isPrim(i + 1) && f[i + 1].hasCombine)
      c = f[i + 1].combine;
    else {
      ++i;
      continue;
    }
    if (firstStores) ++j;
    while (j < f.size() && j - i < static_cast<std::size_t>(kMaxRun) && isPrim(j) &&
           f[j].hasCombine && f[j].combine == c && f[j].valueIndex == vi &&
           f[j].pointIndex == f[i].pointIndex)
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

}  // namespace floptle::field
