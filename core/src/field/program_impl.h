#pragma once
// FieldProgram's private representation, shared by the evaluators, the bounds, the normal
// and the GLSL emitter.
//
// The graph is flattened into instructions in evaluation order. Every value and every point
// has a fixed stack position decided at compile time (valueIndex / pointIndex), so the
// evaluators index small fixed arrays on the caller's stack instead of pushing and popping,
// and the GLSL emitter names one variable per position.
//   primitive      v[vi] = f(pts[pi]),  material m[vi] = instruction material
//   PushTransform  pts[pi] = inverse transform of pts[pi-1]   (PopTransform: v[vi] *= scale)
//   PushRepeat     pts[pi] = pts[pi-1] folded into one cell
//   PushTwist      pts[pi] = pts[pi-1] rotated about Y by -rate*y (PopTwist: v[vi] /= Lipschitz)
//   PushDisplace   pts[pi] = pts[pi-1], then one term per displacement node of the chain:
//   DisplaceSine   pts[pi] += A sin(k . pts[pi-1] + w t + phase)
//   DisplaceNoise  pts[pi] += a (N0, N1, N2)(f pts[pi-1] - (0, f s t, 0))   (displace_math.h)
//                  (PopDisplace: v[vi] /= 1 + the terms' Jacobian bounds, a Lipschitz bound)
//   binary CSG     v[vi] = op(v[vi], v[vi+1])
// Parameters live in slots (FieldProgram::parameterValues); `derive` turns an instruction's
// slots into ready-to-use constants (normalized quaternion as a matrix, 1/scale, ...), once at
// compile time for a static graph and once per call for an animated one.
//
// Derived constants of the displacement instructions (D = derived + data):
//   PushDisplace / PopDisplace (one shared offset): D[0] = 1 / (1 + sum of the chain's term
//                  bounds), filled by finishDisplacements after the terms are derived
//   DisplaceSine   D[0..2] = amplitude A (m), D[3..5] = wave k (rad/m),
//                  D[6] = speed * float(t) + phase (rad, float arithmetic as GLSL does it),
//                  D[7] = |A| |k|, the norm bound of the term's Jacobian (-)
//   DisplaceNoise  D[0] = amplitude a (m), D[1] = frequency f (1/m),
//                  D[2] = f * speed * float(t) (-), D[3] = seed (a whole number),
//                  D[4] = kNoiseLipschitz a f, the norm bound of the term's Jacobian (-)
// A term with a moving speed makes the program time-dependent (Impl::timeDependent), so its
// constants are re-derived at every t like an animated parameter's.
#include <cstdint>
#include <vector>

#include "floptle/core/field/field_program.h"

namespace floptle::field {

enum class Op : std::uint8_t {
  Sphere,
  Box,
  RoundBox,
  Capsule,
  Cylinder,
  Torus,
  Plane,
  Wedge,
  Stairs,
  Mandelbulb,
  Menger,
  Mandelbox,
  PushTransform,
  PopTransform,
  PushRepeat,
  PopRepeat,
  PushTwist,
  PopTwist,
  PushDisplace,
  DisplaceSine,
  DisplaceNoise,
  PopDisplace,
  Union,
  Intersection,
  Subtract,
  SmoothUnion,
  SmoothIntersection,
  SmoothSubtract,
};

inline bool isPrimitive(Op op) {
  return op <= Op::Mandelbox;
}

struct Instr {
  Op op;
  MaterialIndex material = 0;
  /// First parameter slot of the node (-1 for parameterless ops).
  std::int32_t slot = -1;
  /// Offset of the derived constants.
  std::int32_t data = 0;
  std::int32_t valueIndex = 0;
  std::int32_t pointIndex = 0;
};

/// The per-point interpreter's instruction: a primitive fused with the transform around it
/// (PushTransform, primitive, PopTransform) and with the binary CSG op that consumes it, so a
/// typical "transformed shape blended into the scene" costs one dispatch instead of four.
/// Non-fusable instructions are carried over unchanged (xform = 0, no combine).
struct FastInstr;
struct EvalState;
/// Specialized per-point step of one FastInstr (distance only; see field_eval.cpp).
using StepFn = void (*)(const FastInstr& in, const float* D, EvalState& s);
/// Distances of `count` consecutive fused primitives of one kind (same op and transform kind)
/// at the point they read, written to out[0..count): one indirect call per group, not per child.
using GroupFn = void (*)(const FastInstr* first, int count, const float* D, float x, float y,
                         float z, float* out);

struct FastInstr {
  StepFn step = nullptr;
  /// Set on the first member of each same-kind group inside a run (see assignRuns).
  GroupFn group = nullptr;
  /// Members of the group this instruction starts (0 when it does not start one).
  std::int32_t groupCount = 0;
  /// Offset (in the derived constants) of the group's structure-of-arrays copy of its
  /// members' constants, for the 4-lane group kernels (see packGroups).
  std::int32_t packData = 0;
  /// Instructions this step consumes: > 1 for a run of primitives blended into one value
  /// (the children of one union), which is folded in a register.
  std::int32_t advance = 1;
  Op op;
  /// 0: no transform; 1: translation only (static identity rotation, scale 1); 2: full.
  std::uint8_t xform = 0;
  bool hasCombine = false;
  /// Binary op applied as v[valueIndex - 1] = combine(v[valueIndex - 1], d).
  Op combine = Op::Union;
  MaterialIndex material = 0;
  std::int32_t data = 0, xformData = 0, combineData = 0;
  std::int32_t valueIndex = 0;
  /// Point read by a primitive (before its own transform); else as in Instr.
  std::int32_t pointIndex = 0;
};

/// Deepest value / point stack a graph may need (compile refuses deeper graphs).
inline constexpr int kMaxStack = 48;

/// The per-point interpreter's points and values at their stack positions.
struct EvalState {
  float px[kMaxStack], py[kMaxStack], pz[kMaxStack], v[kMaxStack];
};
/// Longest run of blended children one step folds (longer unions continue in further runs).
inline constexpr int kMaxRun = 32;
/// Block width of the batch evaluator (points per instruction sweep).
inline constexpr int kBlock = 64;

struct FieldProgram::Impl {
  FieldNode root;
  std::vector<Instr> code;
  /// `code` with fusions for the per-point interpreter (same results bit for bit).
  std::vector<FastInstr> fast;
  /// `fast` is one primitive (with its transform): distance() skips the interpreter loop.
  bool single = false;
  /// One driver per parameter slot, in slot order.
  std::vector<AnimatedScalar> params;
  /// Slots whose driver is animated.
  std::vector<std::int32_t> animatedSlots;
  /// Derived constants at any t when !animated (else at t = 0, rebuilt per call).
  std::vector<float> derived;
  /// derived[to] = derived[from] after every derive: the packed group copies (packGroups).
  struct PackCopy {
    std::int32_t from, to;
  };
  std::vector<PackCopy> packCopies;
  int valueDepth = 1;
  int pointDepth = 1;
  float epsilon = 1e-3f;
  /// The whole program is transforms around one primitive with an analytic gradient.
  bool analyticNormal = false;

  /// Some displacement term moves with t (its derived constants depend on t).
  bool timeDependent = false;

  bool isAnimated() const { return !animatedSlots.empty() || timeDependent; }
  /// Fills `out` (size = derived.size()) with the derived constants at time t.
  void deriveAt(double t, float* out) const;
};

/// Number of derived floats of an instruction.
int derivedSize(Op op);
/// Computes an instruction's derived constants from parameter values P at time t (s).
void deriveInstr(const Instr& in, const float* P, float* D, double t);
/// Fills each PushDisplace's constant from its chain's terms (after every deriveInstr).
void finishDisplacements(const std::vector<Instr>& code, float* D);

/// Builds impl.fast from impl.code and impl.params.
void buildFastCode(FieldProgram::Impl& impl);
/// Picks each FastInstr's specialized step function.
void assignSteps(FieldProgram::Impl& impl);
/// Turns runs of primitives blended into one value into one fold step over same-kind groups
/// (called by assignSteps; field_eval_runs.cpp).
void assignRuns(FieldProgram::Impl& impl);
/// Gives same-kind groups of spheres / boxes a structure-of-arrays copy of their constants
/// (appended to impl.derived) and the 4-lane kernel that reads it. Once per compile, after
/// assignRuns, with impl.derived holding every instruction's constants.
void packGroups(FieldProgram::Impl& impl);
/// The whole-program evaluator of a static graph (null for an animated one).
using StaticDistanceFn = float (*)(const FieldProgram::Impl&, Vec3);
StaticDistanceFn chooseStaticDistance(const FieldProgram::Impl& impl);

/// Per-point evaluation with the derived constants D.
float evalDistance(const FieldProgram::Impl& impl, const float* D, Vec3 p);
FieldSample evalSample(const FieldProgram::Impl& impl, const float* D, Vec3 p);
/// Batch evaluation of up to kBlock points (SoA) with the derived constants D.
void evalBlock(const FieldProgram::Impl& impl, const float* D, const float* xs, const float* ys,
               const float* zs, int count, float* out);

/// Runs f(D) with the derived constants at t, on the stack when they fit.
template <class F>
auto withDerived(const FieldProgram::Impl& impl, double t, F&& f) {
  if (!impl.isAnimated()) return f(impl.derived.data());
  constexpr std::size_t kLocal = 512;
  if (impl.derived.size() <= kLocal) {
    float local[kLocal];
    impl.deriveAt(t, local);
    return f(static_cast<const float*>(local));
  }
  std::vector<float> heap(impl.derived.size());
  impl.deriveAt(t, heap.data());
  return f(static_cast<const float*>(heap.data()));
}

}  // namespace floptle::field
