#pragma once
// GLSL emission of a compiled field graph: a function
//   vec2 map(vec3 p, float t)   // x = signed distance (m), y = material index
// whose parameters are read through a macro FP(i) (slot i of FieldProgram::parameterValues),
// so changing a value only updates uniforms; a structural change re-emits and recompiles.
// The host shader defines FP, e.g. `#define FP(i) u_params[i]` or a vec4-packed UBO.
#include <string>

#include "floptle/core/field/field_program.h"

namespace floptle::field {

struct GlslOptions {
  /// Name of the emitted function.
  std::string functionName = "map";
  /// Prepend glslHelpers() (off when the host shader already has them).
  bool withHelpers = true;
  /// Emit the estimates a raymarch steps by (fp_mandelbulb_march: the Mandelbulb's estimate
  /// without the physics field's safety factor, bounded by its escape radius) instead of the
  /// physics field's values.
  bool marchEstimates = false;
};

/// The GLSL helpers (fp_box, fp_smin, fp_mandelbulb, ...) every map function and the
/// viewport's interpreter call; guarded, so including them twice is harmless.
const char* glslHelpers();

/// GLSL source (no #version line) defining the map function and its helpers.
std::string emitGlsl(const FieldProgram& program, const GlslOptions& options = {});

/// Structural fingerprint: equal for two programs whose GLSL is the same text (so the
/// viewport recompiles only when this changes).
std::uint64_t structureHash(const FieldProgram& program);

}  // namespace floptle::field
