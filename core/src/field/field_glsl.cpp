// GLSL emission: the same instruction list as the CPU evaluators, one statement per
// instruction, values and points in variables named after their stack positions. Parameters
// are read through FP(slot), so only the structure (ops, slots, materials) is baked in.
#include "floptle/core/field/field_glsl.h"

#include <map>
#include <string>

#include "displace_math.h"
#include "program_impl.h"

namespace floptle::field {
namespace {

// Helpers shared by every emitted map function (guarded so two maps can share a shader).
// They mirror sdf_math.h line for line.
constexpr const char* kHelpers = R"GLSL(
#ifndef FLOPTLE_FIELD_HELPERS
#define FLOPTLE_FIELD_HELPERS
float fp_box(vec3 p, vec3 b) {
  vec3 q = abs(p) - b;
  return length(max(q, 0.0)) + min(max(q.x, max(q.y, q.z)), 0.0);
}
float fp_capsule(vec3 p, vec3 a, vec3 b, float r) {
  vec3 pa = p - a, ba = b - a;
  float l2 = dot(ba, ba);
  float h = l2 > 0.0 ? clamp(dot(pa, ba) / l2, 0.0, 1.0) : 0.0;
  return length(pa - ba * h) - r;
}
float fp_cylinder(vec3 p, float r, float h) {
  vec2 d = vec2(length(p.xz) - r, abs(p.y) - h);
  return min(max(d.x, d.y), 0.0) + length(max(d, 0.0));
}
float fp_torus(vec3 p, float R, float r) { return length(vec2(length(p.xz) - R, p.y)) - r; }
float fp_extrude(float d2, float z, float hz) {
  vec2 w = vec2(d2, abs(z) - hz);
  return min(max(w.x, w.y), 0.0) + length(max(w, 0.0));
}
float fp_wedge2(vec2 p, float hx, float hy) {
  float bx = clamp(p.x, -hx, hx);
  float dB = (p.x - bx) * (p.x - bx) + (p.y + hy) * (p.y + hy);
  float ry = clamp(p.y, -hy, hy);
  float dR = (p.x - hx) * (p.x - hx) + (p.y - ry) * (p.y - ry);
  vec2 e = vec2(2.0 * hx, 2.0 * hy);
  vec2 v = p + vec2(hx, hy);
  float e2 = dot(e, e);
  float s = e2 > 0.0 ? clamp(dot(v, e) / e2, 0.0, 1.0) : 0.0;
  vec2 w = v - e * s;
  float d = sqrt(min(dB, min(dR, dot(w, w))));
  bool inside = p.y > -hy && p.x < hx && (e.x * v.y - e.y * v.x) < 0.0;
  return inside ? -d : d;
}
float fp_vert2(vec2 p, float cx, float y0, float y1) {
  vec2 d = vec2(p.x - cx, p.y - clamp(p.y, y0, y1));
  return dot(d, d);
}
float fp_horz2(vec2 p, float cy, float x0, float x1) {
  vec2 d = vec2(p.x - clamp(p.x, x0, x1), p.y - cy);
  return dot(d, d);
}
float fp_stairs2(vec2 p, float n, float rise, float run) {
  float w = n * run, hgt = n * rise, last = n - 1.0;
  float d2 = min(fp_horz2(p, 0.0, 0.0, w), fp_vert2(p, w, 0.0, hgt));
  float ix = run > 0.0 ? clamp(floor(p.x / run), 0.0, last) : (p.x > 0.0 ? last : 0.0);
  float iy = rise > 0.0 ? clamp(floor(p.y / rise), 0.0, last) : (p.y > 0.0 ? last : 0.0);
  float dl2 = run * run + rise * rise;
  float proj = dl2 > 0.0 ? (p.x * run + p.y * rise) / dl2 : 0.0;
  float ip = clamp(floor(proj), min(ix, iy), max(ix, iy));
  float cand[5] = float[5](ix, iy, ip - 1.0, ip, ip + 1.0);
  for (int c = 0; c < 5; ++c) {
    float i = cand[c];
    if (i < 0.0 || i > last) continue;
    d2 = min(d2, fp_vert2(p, i * run, i * rise, (i + 1.0) * rise));
    d2 = min(d2, fp_horz2(p, (i + 1.0) * rise, i * run, (i + 1.0) * run));
  }
  float d = sqrt(d2);
  bool inside = false;
  if (p.x > 0.0 && p.x < w && p.y > 0.0) {
    float col = run > 0.0 ? min(floor(p.x / run), last) : last;
    inside = p.y < (col + 1.0) * rise;
  }
  return inside ? -d : d;
}
float fp_smin(float a, float b, float k) {
  if (k <= 0.0) return min(a, b);
  float h = max(k - abs(a - b), 0.0) / k;
  return min(a, b) - h * h * k * 0.25;
}
float fp_smax(float a, float b, float k) { return -fp_smin(-a, -b, k); }
// The Mandelbulb's distance estimate 0.5 log(r) r / dr (sdf_math.h); the physics field takes
// kMandelbulbSafety of it (fp_mandelbulb), the viewport marches fp_mandelbulb_march.
float fp_mandelbulb_estimate(vec3 p, float power, int iterations, float bailout) {
  float r0 = length(p);
  if (r0 > 2.0 * bailout) return r0 - bailout;
  vec3 z = p;
  float dr = 1.0, r = r0;
  // No branch for |z| < 1e-12 inside the loop (a GPU pays for every exit of a hot loop): the
  // division's floor covers it. The CPU (sdf_math.h) restarts from z = p with dr = 1 there;
  // this iteration gives z = r^n (...) + p and dr = n r^(n-1) dr + 1, the same to float
  // precision.
  int count = min(iterations, 64);
  for (int i = 0; i < count; ++i) {
    r = length(z);
    if (r > bailout) break;
    float theta = acos(clamp(z.y / max(r, 1e-12), -1.0, 1.0)) * power;
    float phi = atan(z.z, z.x) * power;
    float rp1 = pow(r, power - 1.0);
    dr = rp1 * power * dr + 1.0;
    float zr = rp1 * r, st = sin(theta);
    z = zr * vec3(st * cos(phi), cos(theta), st * sin(phi)) + p;
    r = length(z);
  }
  r = max(r, 1e-20);
  return 0.5 * log(r) * r / dr;
}
// The estimate the viewport marches. For power n > 1 a point with |p| > 2^(1/(n-1)) keeps
// |z| >= |p| > 1 at every iteration (|z^n + p| >= |z| (|z|^(n-1) - 1) > |z|), so its estimate
// is positive: the surface lies within that radius, and beyond it (plus 0.1 m, where the
// iteration is cheap anyway) the distance to the ball bounds the distance from below.
float fp_mandelbulb_march(vec3 p, float power, int iterations, float bailout) {
  float reach = power > 1.0 ? min(bailout, exp2(1.0 / (power - 1.0))) : bailout;
  float r0 = length(p);
  if (r0 > reach + 0.1) return r0 - reach;
  return fp_mandelbulb_estimate(p, power, iterations, bailout);
}
float fp_mandelbulb(vec3 p, float power, int iterations, float bailout) {
  float r0 = length(p);
  if (r0 > 2.0 * bailout) return r0 - bailout;
  return 0.5 * fp_mandelbulb_estimate(p, power, iterations, bailout);  // kMandelbulbSafety
}
float fp_menger(vec3 p, int iterations) {
  float d = fp_box(p, vec3(1.0));
  float s = 1.0;
  for (int m = 0; m < 10; ++m) {
    if (m >= iterations) break;
    vec3 a = p * s - 2.0 * floor(p * s * 0.5) - 1.0;
    s *= 3.0;
    vec3 r = abs(1.0 - 3.0 * abs(a));
    float da = max(r.x, r.y), db = max(r.y, r.z), dc = max(r.z, r.x);
    d = max(d, (min(da, min(db, dc)) - 1.0) / s);
  }
  return d;
}
float fp_mandelbox(vec3 p, float scale, int iterations, float minR2, float fixedR2) {
  vec3 z = p;
  float dr = 1.0;
  for (int i = 0; i < 64; ++i) {
    if (i >= iterations) break;
    z = clamp(z, -1.0, 1.0) * 2.0 - z;
    float r2 = dot(z, z);
    float f = 1.0;
    if (r2 < minR2) f = fixedR2 / minR2;
    else if (r2 < fixedR2) f = fixedR2 / r2;
    z *= f;
    dr *= f;
    z = scale * z + p;
    dr = dr * abs(scale) + 1.0;
    if (dot(z, z) > 1e12) break;
  }
  return (length(z) - abs(scale - 1.0)) / abs(dr) - pow(abs(scale), 1.0 - float(iterations));
}
vec3 fp_rotate_inverse(vec3 v, vec4 q) {
  float l = length(q);
  q = l > 1e-20 ? q / l : vec4(0.0, 0.0, 0.0, 1.0);
  vec3 u = -q.xyz;  // conjugate
  vec3 t = 2.0 * cross(u, v);
  return v + q.w * t + cross(u, t);
}
float fp_repeat(float v, float period) { return period > 0.0 ? v - period * floor(v / period + 0.5) : v; }
float fp_twist_lipschitz(float rate, float rho) {
  float s = abs(rate) * rho;
  return 0.5 * (s + sqrt(s * s + 4.0));
}
// Morph displacement (displace_math.h, operation for operation).
uint fp_hash(int ix, int iy, int iz, uint seed) {
  uint h = seed * 0x9E3779B1u;
  h ^= uint(ix) * 0x85EBCA77u;
  h ^= uint(iy) * 0xC2B2AE3Du;
  h ^= uint(iz) * 0x27D4EB2Fu;
  h ^= h >> 15u;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12u;
  h *= 0x297A2D39u;
  h ^= h >> 15u;
  return h;
}
float fp_grad_dot(uint h, float x, float y, float z) {
  uint k = h % 12u;
  if (k == 0u) return x + y;
  if (k == 1u) return -x + y;
  if (k == 2u) return x - y;
  if (k == 3u) return -x - y;
  if (k == 4u) return x + z;
  if (k == 5u) return -x + z;
  if (k == 6u) return x - z;
  if (k == 7u) return -x - z;
  if (k == 8u) return y + z;
  if (k == 9u) return -y + z;
  if (k == 10u) return y - z;
  return -y - z;
}
float fp_fade(float u) { return u * u * u * (u * (u * 6.0 - 15.0) + 10.0); }
float fp_lerp(float a, float b, float s) { return a + s * (b - a); }
float fp_noise3(float x, float y, float z, uint seed) {
  float cx = floor(x), cy = floor(y), cz = floor(z);
  float fx = x - cx, fy = y - cy, fz = z - cz;
  int ix = int(min(max(cx, -1073741824.0), 1073741824.0));
  int iy = int(min(max(cy, -1073741824.0), 1073741824.0));
  int iz = int(min(max(cz, -1073741824.0), 1073741824.0));
  float u = fp_fade(fx), v = fp_fade(fy), w = fp_fade(fz);
  float n000 = fp_grad_dot(fp_hash(ix, iy, iz, seed), fx, fy, fz);
  float n100 = fp_grad_dot(fp_hash(ix + 1, iy, iz, seed), fx - 1.0, fy, fz);
  float n010 = fp_grad_dot(fp_hash(ix, iy + 1, iz, seed), fx, fy - 1.0, fz);
  float n110 = fp_grad_dot(fp_hash(ix + 1, iy + 1, iz, seed), fx - 1.0, fy - 1.0, fz);
  float n001 = fp_grad_dot(fp_hash(ix, iy, iz + 1, seed), fx, fy, fz - 1.0);
  float n101 = fp_grad_dot(fp_hash(ix + 1, iy, iz + 1, seed), fx - 1.0, fy, fz - 1.0);
  float n011 = fp_grad_dot(fp_hash(ix, iy + 1, iz + 1, seed), fx, fy - 1.0, fz - 1.0);
  float n111 = fp_grad_dot(fp_hash(ix + 1, iy + 1, iz + 1, seed), fx - 1.0, fy - 1.0, fz - 1.0);
  float x00 = fp_lerp(n000, n100, u), x10 = fp_lerp(n010, n110, u);
  float x01 = fp_lerp(n001, n101, u), x11 = fp_lerp(n011, n111, u);
  return fp_lerp(fp_lerp(x00, x10, v), fp_lerp(x01, x11, v), w);
}
vec3 fp_displace_sine(vec3 p, vec3 amplitude, vec3 wave, float phase) {
  float s = sin(wave.x * p.x + wave.y * p.y + wave.z * p.z + phase);
  return vec3(amplitude.x * s, amplitude.y * s, amplitude.z * s);
}
vec3 fp_displace_noise(vec3 p, float a, float f, float drift, uint seed) {
  float qx = f * p.x, qy = f * p.y - drift, qz = f * p.z;
  uint s = seed * 3u;
  return vec3(a * fp_noise3(qx, qy, qz, s), a * fp_noise3(qx, qy, qz, s + 1u),
              a * fp_noise3(qx, qy, qz, s + 2u));
}
#endif
)GLSL";

}  // namespace

const char* glslHelpers() {
  return kHelpers;
}

namespace {

std::string fp(int slot) {
  return "FP(" + std::to_string(slot) + ")";
}
std::string fp3(int slot) {
  return "vec3(" + fp(slot) + ", " + fp(slot + 1) + ", " + fp(slot + 2) + ")";
}
std::string V(int i) {
  return "v" + std::to_string(i);
}
std::string M(int i) {
  return "m" + std::to_string(i);
}
std::string P(int i) {
  return "p" + std::to_string(i);
}

std::string primitiveExpr(const Instr& in, const GlslOptions& options) {
  const int s = in.slot;
  const std::string p = P(in.pointIndex);
  switch (in.op) {
    case Op::Sphere:
      return "length(" + p + ") - " + fp(s);
    case Op::Box:
      return "fp_box(" + p + ", " + fp3(s) + ")";
    case Op::RoundBox: {
      const std::string b = fp3(s);
      const std::string r = "clamp(" + fp(s + 3) + ", 0.0, min(" + fp(s) + ", min(" + fp(s + 1) +
                            ", " + fp(s + 2) + ")))";
      return "fp_box(" + p + ", " + b + " - vec3(" + r + ")) - " + r;
    }
    case Op::Capsule:
      return "fp_capsule(" + p + ", " + fp3(s) + ", " + fp3(s + 3) + ", " + fp(s + 6) + ")";
    case Op::Cylinder:
      return "fp_cylinder(" + p + ", " + fp(s) + ", " + fp(s + 1) + ")";
    case Op::Torus:
      return "fp_torus(" + p + ", " + fp(s) + ", " + fp(s + 1) + ")";
    case Op::Plane: {
      const std::string n = fp3(s);
      return "dot(" + p + ", length(" + n + ") > 1e-20 ? normalize(" + n +
             ") : vec3(0.0, 1.0, 0.0)) - " + fp(s + 3);
    }
    case Op::Wedge:
      return "fp_extrude(fp_wedge2(" + p + ".xy, " + fp(s) + ", " + fp(s + 1) + "), " + p + ".z, " +
             fp(s + 2) + ")";
    case Op::Stairs:
      return "fp_extrude(fp_stairs2(" + p + ".xy, max(1.0, floor(" + fp(s) + ")), " + fp(s + 1) +
             ", " + fp(s + 2) + "), " + p + ".z, " + fp(s + 3) + ")";
    case Op::Mandelbulb:
      return std::string(options.marchEstimates ? "fp_mandelbulb_march(" : "fp_mandelbulb(") + p +
             ", " + fp(s) + ", int(max(1.0, floor(" + fp(s + 1) + "))), " + fp(s + 2) + ")";
    case Op::Menger:
      return "(" + fp(s + 1) + " > 0.0 ? " + fp(s + 1) + " * fp_menger(" + p + " * (1.0 / " +
             fp(s + 1) + "), int(max(0.0, floor(" + fp(s) + ")))) : length(" + p + "))";
    case Op::Mandelbox:
      return "fp_mandelbox(" + p + ", " + fp(s) + ", int(max(1.0, floor(" + fp(s + 1) + "))), " +
             fp(s + 2) + " * " + fp(s + 2) + ", " + fp(s + 3) + " * " + fp(s + 3) + ")";
    default:
      return "0.0";
  }
}

/// The scale PopDisplace applies, 1 / (1 + each term's Jacobian bound) (program_impl.h), for
/// the chain of terms after code[push].
std::string displacementScale(const std::vector<Instr>& code, std::size_t push) {
  std::string bound = "1.0";
  for (std::size_t j = push + 1; j < code.size(); ++j) {
    const int s = code[j].slot;
    if (code[j].op == Op::DisplaceSine)
      bound += " + length(" + fp3(s) + ") * length(" + fp3(s + 3) + ")";
    else if (code[j].op == Op::DisplaceNoise)
      bound +=
          " + " + std::to_string(displace::kNoiseLipschitz) + " * " + fp(s) + " * " + fp(s + 1);
    else
      break;
  }
  return "1.0 / (" + bound + ")";
}

std::string statement(const Instr& in, const GlslOptions& options) {
  const int s = in.slot, vi = in.valueIndex, pi = in.pointIndex;
  const std::string v = V(vi), w = V(vi + 1), m = M(vi), mw = M(vi + 1);
  switch (in.op) {
    case Op::PushTransform:
      return P(pi) + " = fp_rotate_inverse(" + P(pi - 1) + " - " + fp3(s) + ", vec4(" + fp(s + 3) +
             ", " + fp(s + 4) + ", " + fp(s + 5) + ", " + fp(s + 6) + ")) / max(" + fp(s + 7) +
             ", 1e-6);";
    case Op::PopTransform:
      return v + " *= max(" + fp(s + 7) + ", 1e-6);";
    case Op::PushRepeat: {
      const std::string q = P(pi - 1);
      return P(pi) + " = vec3(fp_repeat(" + q + ".x, " + fp(s) + "), fp_repeat(" + q + ".y, " +
             fp(s + 1) + "), fp_repeat(" + q + ".z, " + fp(s + 2) + "));";
    }
    case Op::PopRepeat:
      return "";
    case Op::PushTwist: {
      const std::string q = P(pi - 1);
      return "{ float a = -" + fp(s) + " * " + q + ".y; float c = cos(a), sn = sin(a); " + P(pi) +
             " = vec3(c * " + q + ".x - sn * " + q + ".z, " + q + ".y, sn * " + q + ".x + c * " +
             q + ".z); }";
    }
    case Op::PopTwist:
      return v + " /= fp_twist_lipschitz(" + fp(s) + ", length(" + P(pi - 1) + ".xz) + abs(" + v +
             "));";
    case Op::PushDisplace:
      return P(pi) + " = " + P(pi - 1) + ";";
    case Op::DisplaceSine:
      return P(pi) + " += fp_displace_sine(" + P(pi - 1) + ", " + fp3(s) + ", " + fp3(s + 3) +
             ", " + fp(s + 6) + " * t + " + fp(s + 7) + ");";
    case Op::DisplaceNoise:
      return P(pi) + " += fp_displace_noise(" + P(pi - 1) + ", " + fp(s) + ", " + fp(s + 1) + ", " +
             fp(s + 1) + " * " + fp(s + 2) + " * t, uint(floor(" + fp(s + 3) + ")));";
    case Op::Union:
      return m + " = " + w + " < " + v + " ? " + mw + " : " + m + "; " + v + " = min(" + v + ", " +
             w + ");";
    case Op::Intersection:
      return m + " = " + w + " > " + v + " ? " + mw + " : " + m + "; " + v + " = max(" + v + ", " +
             w + ");";
    case Op::Subtract:
      return v + " = max(" + v + ", -" + w + ");";
    case Op::SmoothUnion:
      return m + " = " + w + " < " + v + " ? " + mw + " : " + m + "; " + v + " = fp_smin(" + v +
             ", " + w + ", " + fp(s) + ");";
    case Op::SmoothIntersection:
      return m + " = " + w + " > " + v + " ? " + mw + " : " + m + "; " + v + " = fp_smax(" + v +
             ", " + w + ", " + fp(s) + ");";
    case Op::SmoothSubtract:
      return v + " = fp_smax(" + v + ", -" + w + ", " + fp(s) + ");";
    default:
      return v + " = " + primitiveExpr(in, options) + "; " + m + " = " +
             std::to_string(in.material) + ".0;";
  }
}

}  // namespace

std::string emitGlsl(const FieldProgram& program, const GlslOptions& options) {
  const FieldProgram::Impl& impl = program.impl();
  std::string out = options.withHelpers ? kHelpers : "";
  out += "vec2 " + options.functionName + "(vec3 p, float t) {\n";
  out += "  vec3 p0 = p;\n";
  for (int i = 1; i < impl.pointDepth; ++i) out += "  vec3 " + P(i) + " = p;\n";
  // The value stack is one deeper than used so binary ops may name v[vi + 1] uniformly.
  for (int i = 0; i <= impl.valueDepth; ++i)
    out += "  float " + V(i) + " = 0.0; float " + M(i) + " = 0.0;\n";
  std::map<int, std::string> displaceScales;  // by the Push / Pop pair's data offset
  for (std::size_t i = 0; i < impl.code.size(); ++i) {
    const Instr& in = impl.code[i];
    if (in.op == Op::PushDisplace) displaceScales[in.data] = displacementScale(impl.code, i);
    const std::string s = in.op == Op::PopDisplace
                              ? V(in.valueIndex) + " *= " + displaceScales[in.data] + ";"
                              : statement(in, options);
    if (!s.empty()) out += "  " + s + "\n";
  }
  out += "  return vec2(v0, m0);\n}\n";
  return out;
}

std::uint64_t structureHash(const FieldProgram& program) {
  // FNV-1a over the emitted text: equal exactly when the GLSL is equal.
  const std::string text = emitGlsl(program);
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace floptle::field
