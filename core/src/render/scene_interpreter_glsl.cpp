// The viewport's instruction interpreter in GLSL (scene_interpreter_glsl.h).
#include "scene_interpreter_glsl.h"

namespace floptle::render {

/// The instruction interpreter (scenes with more than kMaxPartStructures structures): parameter
/// indices in the instructions count from the block's start.
const char* sceneInterpreterGlsl() {
  return R"GLSL(
float g_time;
float FP(int i) { return fp_param(i); }
vec3 FP3(int i) { return vec3(FP(i), FP(i + 1), FP(i + 2)); }
float fp_primitive(int op, int s, vec3 p) {
  switch (op) {
    case OP_SPHERE: return length(p) - FP(s);
    case OP_BOX: return fp_box(p, FP3(s));
    case OP_ROUND_BOX: {
      vec3 b = FP3(s);
      float r = clamp(FP(s + 3), 0.0, min(b.x, min(b.y, b.z)));
      return fp_box(p, b - vec3(r)) - r;
    }
    case OP_CAPSULE: return fp_capsule(p, FP3(s), FP3(s + 3), FP(s + 6));
    case OP_CYLINDER: return fp_cylinder(p, FP(s), FP(s + 1));
    case OP_TORUS: return fp_torus(p, FP(s), FP(s + 1));
    case OP_PLANE: {
      vec3 n = FP3(s);
      return dot(p, length(n) > 1e-20 ? normalize(n) : vec3(0.0, 1.0, 0.0)) - FP(s + 3);
    }
    case OP_WEDGE: return fp_extrude(fp_wedge2(p.xy, FP(s), FP(s + 1)), p.z, FP(s + 2));
    case OP_STAIRS:
      return fp_extrude(fp_stairs2(p.xy, max(1.0, floor(FP(s))), FP(s + 1), FP(s + 2)), p.z,
                        FP(s + 3));
    case OP_MANDELBULB:
      return fp_mandelbulb_march(p, FP(s), int(max(1.0, floor(FP(s + 1)))), FP(s + 2));
    case OP_MENGER: {
      float scale = FP(s + 1);
      return scale > 0.0 ? scale * fp_menger(p * (1.0 / scale), int(max(0.0, floor(FP(s)))))
                         : length(p);
    }
    case OP_MANDELBOX: {
      float a = FP(s + 2), b = FP(s + 3);
      return fp_mandelbox(p, FP(s), int(max(1.0, floor(FP(s + 1)))), a * a, b * b);
    }
  }
  return 1e30;
}
// The instruction interpreter: the same statements field::emitGlsl writes, on stacks.
vec2 fp_run(int codeStart, int count, vec3 p) {
  float v[kGpuValueStack];
  float m[kGpuValueStack];
  vec3 q[kGpuPointStack];
  q[0] = p;
  q[1] = p;
  v[0] = 1e30;
  m[0] = 0.0;
  for (int k = 0; k < count; ++k) {
    vec4 ins = SD(codeStart + k);
    int code = int(ins.x), s = int(ins.y), vi = int(ins.z), pi = int(ins.w);
    int op = code & 255;
    if (op <= OP_MANDELBOX) {
      v[vi] = fp_primitive(op, s, q[pi]);
      m[vi] = float(code >> 8);
      continue;
    }
    float w = v[vi + 1];
    switch (op) {
      case OP_PUSH_TRANSFORM:
        q[pi] = fp_rotate_inverse(q[pi - 1] - FP3(s), vec4(FP(s + 3), FP(s + 4), FP(s + 5),
                                  FP(s + 6))) / max(FP(s + 7), 1e-6);
        break;
      case OP_POP_TRANSFORM: v[vi] *= max(FP(s + 7), 1e-6); break;
      case OP_PUSH_REPEAT: {
        vec3 a = q[pi - 1];
        q[pi] = vec3(fp_repeat(a.x, FP(s)), fp_repeat(a.y, FP(s + 1)), fp_repeat(a.z, FP(s + 2)));
        break;
      }
      case OP_PUSH_TWIST: {
        vec3 a = q[pi - 1];
        float angle = -FP(s) * a.y;
        float c = cos(angle), sn = sin(angle);
        q[pi] = vec3(c * a.x - sn * a.z, a.y, sn * a.x + c * a.z);
        break;
      }
      case OP_POP_TWIST:
        v[vi] /= fp_twist_lipschitz(FP(s), length(q[pi - 1].xz) + abs(v[vi]));
        break;
      case OP_UNION:
        if (w < v[vi]) m[vi] = m[vi + 1];
        v[vi] = min(v[vi], w);
        break;
      case OP_INTERSECTION:
        if (w > v[vi]) m[vi] = m[vi + 1];
        v[vi] = max(v[vi], w);
        break;
      case OP_SUBTRACT: v[vi] = max(v[vi], -w); break;
      case OP_SMOOTH_UNION:
        if (w < v[vi]) m[vi] = m[vi + 1];
        v[vi] = fp_smin(v[vi], w, FP(s));
        break;
      case OP_SMOOTH_INTERSECTION:
        if (w > v[vi]) m[vi] = m[vi + 1];
        v[vi] = fp_smax(v[vi], w, FP(s));
        break;
      case OP_SMOOTH_SUBTRACT: v[vi] = fp_smax(v[vi], -w, FP(s)); break;
    }
  }
  return vec2(v[0], m[0]);
}
// One part at p: the interpreter over its instructions, or for a Placed / Lone part its one
// primitive instruction at the point its rows place (the interpreter's point stack starts with
// p in slots 0 and 1, where a lone and a placed primitive read). One call site for fp_run and
// fp_primitive keeps the compiled program small.
vec2 evalPart(int record, vec3 p) {
  int base = g_parts + kPartTexels * record;
  vec4 head = SD(base + 2);
  int kind = int(head.x);
  int start = int(SD(base).w), count = int(SD(base + 1).w);
  float scale = 1.0;
  vec3 x = p;
  if (kind != 0) {
    vec4 r0 = SD(base + 3), r1 = SD(base + 4), r2 = SD(base + 5);
    scale = head.w;
    x = vec3(dot(r0.xyz, p) + r0.w, dot(r1.xyz, p) + r1.w, dot(r2.xyz, p) + r2.w) / scale;
    start += kind == 1 ? 1 : 0;
    count = 1;
  }
  vec2 d = fp_run(start, count, x);
  return vec2(d.x * scale, d.y);
}
)GLSL";
}

}  // namespace floptle::render
