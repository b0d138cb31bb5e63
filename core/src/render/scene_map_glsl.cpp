// The scene's map() for the viewport's fixed program (scene_map_glsl.h).
#include "scene_map_glsl.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>

#include "../field/program_impl.h"
#include "floptle/core/field/field_glsl.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/render/shading_model.h"
#include "scene_interpreter_glsl.h"

namespace floptle::render {

using namespace shading;

/// A GLSL float literal that round-trips the float exactly (always with '.' or an exponent).
std::string glslFloat(float v) {
  if (!std::isfinite(v)) v = 0.0f;
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.9g", double(v));
  std::string s = buffer;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

namespace {

constexpr const char* kSceneHead = R"GLSL(
int g_cellCount, g_unbounded, g_parts, g_grid, g_partCount, g_params, g_planes;
// The candidate grid's box (.w: cell size, lists' texel) and cell counts, read once a pixel.
vec4 g_gridLo, g_gridHi;
ivec3 g_gridDims;
// Set while a march leaves the unbounded parts (then all planes) out of map().
bool g_skipPlanes = false;
// A shadow ray's bound margin (cpu_renderer.cpp's shadowBoundMargin), 0 elsewhere: a part whose
// box is farther than max(this, kRenderBoundMargin) stands in by its box distance.
float g_boundMargin = 0.0;
bool g_shadowSkipsPlanes;
void loadSceneHeader() {
  vec4 h0 = SD(0), h1 = SD(1);
  g_planes = int(SD(2).w);
  g_cellCount = int(h0.x);
  g_unbounded = int(h0.y);
  g_parts = int(h0.z);
  g_grid = int(h1.x);
  g_partCount = int(h1.y);
  g_params = int(h1.z);
  g_loopGuard = int(h1.w);
  if (g_cellCount > 0) {
    g_gridLo = SD(g_grid);
    g_gridHi = SD(g_grid + 1);
    g_gridDims = ivec3(SD(g_grid + 2).xyz);
  }
  // A shadow ray leaves a plane at dot(n, sun) a metre per metre, so its soft-shadow term
  // kShadowSharpness h / t stays at or above kShadowSharpness dot(n, sun): from 1 on, the plane
  // never darkens it (a point behind the plane is in its shadow, which planesAhead tells).
  g_shadowSkipsPlanes = g_planes >= 0;
  for (int i = 0; i < g_planes; ++i)
    if (kShadowSharpness * dot(SD(4 + 2 * i).xyz, kSunDirection) < 1.0)
      g_shadowSkipsPlanes = false;
}
bool planesApart() { return g_planes >= 0; }
bool shadowSkipsPlanes() { return g_shadowSkipsPlanes; }
// Beyond the box of the bounded parts only the unbounded parts remain; when they are all planes
// (g_planes >= 0) a ray is finished there in closed form. The exit distance along the ray (0
// when it never enters the box; past every distance when the shortcut does not apply):
float boundsExit(vec3 ro, vec3 rd) {
  if (g_planes < 0) return 3.0e38;
  vec4 lo = SD(2), hi = SD(3);
  if (hi.w == 0.0) return 0.0;  // no bounded parts
  vec3 inv = 1.0 / max(abs(rd), vec3(1e-20)) * sign(rd + vec3(1e-30));
  vec3 t0 = (lo.xyz - ro) * inv, t1 = (hi.xyz - ro) * inv;
  vec3 tNear = min(t0, t1), tFar = max(t0, t1);
  float enter = max(tNear.x, max(tNear.y, tNear.z));
  float leave = min(tFar.x, min(tFar.y, tFar.z));
  return enter > leave ? 0.0 : max(leave, 0.0);
}
// The nearest plane the ray meets in [t, tMax] (a point behind a plane meets it at t).
bool planesAhead(vec3 ro, vec3 rd, float t, float tMax, out float hitT, out float material) {
  hitT = tMax;
  material = 0.0;
  bool hit = false;
  for (int i = 0; i < g_planes; ++i) {
    vec4 plane = SD(4 + 2 * i);
    float height = dot(plane.xyz, ro + rd * t) - plane.w;
    float along = dot(plane.xyz, rd);
    float at = height <= 0.0 ? t : along < 0.0 ? t + height / -along : 3.0e38;
    if (at < hitT) {
      hitT = at;
      material = SD(5 + 2 * i).x;
      hit = true;
    }
  }
  return hit;
}
// Float j of the parameter block.
float fp_param(int j) { return SD(g_params + (j >> 2))[j & 3]; }
float fp_box_distance(vec3 p, vec3 lo, vec3 hi) {
  return length(max(max(lo - p, p - hi), vec3(0.0)));
}
)GLSL";

/// The part functions' host: FP(i) counts from the part's own parameters (g_partParams), whose
/// block starts on texel g_partTexel (withLoadedParameters).
constexpr const char* kStructureHead = R"GLSL(
int g_partParams, g_partTexel;
float g_time;
float FP(int i) { return fp_param(g_partParams + i); }
)GLSL";

/// A part by its record.
constexpr const char* kRecordEval = R"GLSL(
vec2 evalPart(int record, vec3 p) {
  vec4 head = SD(g_parts + kPartTexels * record + 2);
  return evalStructure(int(head.y), int(head.z) >> 2, p);
}
)GLSL";

/// A grid entry's part: by the structure and parameter texel the entry carries
/// (SceneBuffers::entriesCarryParts), or by its record.
constexpr const char* kEntryPartEval = R"GLSL(
vec2 evalEntry(int record, float entryPart, vec3 p) {
  int part = int(entryPart);
  return evalStructure(part & (kMaxPartStructures - 1), part >> kPartStructureBits, p);
}
)GLSL";
constexpr const char* kEntryRecordEval = R"GLSL(
vec2 evalEntry(int record, float entryPart, vec3 p) { return evalPart(record, p); }
)GLSL";

constexpr const char* kSceneMapLoop = R"GLSL(
// The unbounded parts, then the candidate grid: the cell p reads (outside the grid, that of
// its projection onto it) lists every part within its clearance; the rest are farther, so
// min(clearance, listed parts) bounds the distance from below with the same zero set. A point
// outside the parts' bounds is at least its distance to them from every part, hence the max.
// Boxes no nearer than the best so far are skipped.
vec2 map(vec3 p, float t) {
  g_time = t;
  vec2 best = vec2(1e30, 0.0);
  for (int record = g_partCount - g_unbounded; record < g_partCount && !g_skipPlanes; ++record) {
    vec2 d = evalPart(record, p);
    if (d.x < best.x) best = d;
  }
  if (g_cellCount == 0) return best;
  vec3 cellAt = clamp((p - g_gridLo.xyz) / g_gridLo.w, vec3(0.0), vec3(g_gridDims) - 0.5);
  ivec3 c = ivec3(floor(cellAt));
  vec4 cell = SD(g_grid + 3 + c.x + g_gridDims.x * (c.y + g_gridDims.y * c.z));
  vec2 near = vec2(max(cell.z, fp_box_distance(p, g_gridLo.xyz, g_gridHi.xyz)), 0.0);
  float margin = max(g_boundMargin, kRenderBoundMargin);
  int lists = int(g_gridHi.w), first = int(cell.x), count = int(cell.y);
  for (int i = 0; i < count; ++i) {
    int j = lists + 2 * (first + i);
    vec4 lo = SD(j), hi = SD(j + 1);
    int record = int(lo.w);
    float box = fp_box_distance(p, lo.xyz, hi.xyz);
    if (box >= near.x) continue;
    if (box > margin) {
      near = vec2(box, 0.0);
      continue;
    }
    vec2 d = evalEntry(record, hi.w, p);
    if (d.x < near.x) near = d;
  }
  return near.x < best.x ? near : best;
}
)GLSL";

}  // namespace

/// log2(kSceneDataWidth): the shader's row of texel i is i >> this.
int sceneDataWidthShift() {
  int shift = 0;
  while ((1 << shift) < kSceneDataWidth) ++shift;
  return shift;
}

namespace {

/// #defines of the instruction codes and the scene-data constants the interpreter reads.
std::string sceneMapConstants() {
  std::ostringstream s;
  auto op = [&](const char* name, field::Op value) {
    s << "#define " << name << " " << int(value) << "\n";
  };
  using field::Op;
  op("OP_SPHERE", Op::Sphere);
  op("OP_BOX", Op::Box);
  op("OP_ROUND_BOX", Op::RoundBox);
  op("OP_CAPSULE", Op::Capsule);
  op("OP_CYLINDER", Op::Cylinder);
  op("OP_TORUS", Op::Torus);
  op("OP_PLANE", Op::Plane);
  op("OP_WEDGE", Op::Wedge);
  op("OP_STAIRS", Op::Stairs);
  op("OP_MANDELBULB", Op::Mandelbulb);
  op("OP_MENGER", Op::Menger);
  op("OP_MANDELBOX", Op::Mandelbox);
  op("OP_PUSH_TRANSFORM", Op::PushTransform);
  op("OP_POP_TRANSFORM", Op::PopTransform);
  op("OP_PUSH_REPEAT", Op::PushRepeat);
  op("OP_PUSH_TWIST", Op::PushTwist);
  op("OP_POP_TWIST", Op::PopTwist);
  op("OP_UNION", Op::Union);
  op("OP_INTERSECTION", Op::Intersection);
  op("OP_SUBTRACT", Op::Subtract);
  op("OP_SMOOTH_UNION", Op::SmoothUnion);
  op("OP_SMOOTH_INTERSECTION", Op::SmoothIntersection);
  op("OP_SMOOTH_SUBTRACT", Op::SmoothSubtract);
  s << "const int kGpuValueStack = " << kGpuValueStack << ";\n"
    << "const int kGpuPointStack = " << kGpuPointStack << ";\n"
    << "const int kPartTexels = " << kPartTexels << ";\n"
    << "const float kRenderBoundMargin = " << glslFloat(field::UnionField::kRenderBoundMargin)
    << ";\n"
    << "const int kMaxPartStructures = " << kMaxPartStructures << ";\n"
    << "const int kPartStructureBits = " << std::countr_zero(unsigned(kMaxPartStructures)) << ";\n";
  return s.str();
}

/// A part function that reads each of its parameters' texels once: FP(k) (k a literal) becomes
/// a component of fpK = SD(g_partTexel + K), loaded at the function's top, instead of a texel
/// fetch per read. The part's parameter block starts on a texel (packSceneBuffers). A function
/// of more than kMaxLoadedTexels texels keeps FP().
std::string withLoadedParameters(const std::string& function) {
  constexpr int kMaxLoadedTexels = 8;
  static const std::regex kRead(R"(FP\((\d+)\))");
  int texels = 0;
  for (auto it = std::sregex_iterator(function.begin(), function.end(), kRead);
       it != std::sregex_iterator(); ++it)
    texels = std::max(texels, std::stoi((*it)[1].str()) / 4 + 1);
  const std::size_t body = function.find("{\n");
  if (texels == 0 || texels > kMaxLoadedTexels || body == std::string::npos) return function;
  std::string prologue;
  for (int i = 0; i < texels; ++i)
    prologue +=
        "  vec4 fp" + std::to_string(i) + " = SD(g_partTexel + " + std::to_string(i) + ");\n";
  std::string out = function.substr(0, body + 2) + prologue;
  std::string rest = function.substr(body + 2);
  std::size_t last = 0;
  for (auto it = std::sregex_iterator(rest.begin(), rest.end(), kRead);
       it != std::sregex_iterator(); ++it) {
    const int k = std::stoi((*it)[1].str());
    out += rest.substr(last, std::size_t(it->position()) - last);
    out += "fp" + std::to_string(k / 4) + "." + "xyzw"[k % 4];
    last = std::size_t(it->position() + it->length());
  }
  return out + rest.substr(last);
}

/// shadowSpan() for a scene of few parts: a shadow ray is marched only over its stretch
/// through the bounded parts' boxes grown by kShadowMaxT / kShadowSharpness. Elsewhere on the
/// ray every part is farther than that, so there the soft-shadow term kShadowSharpness h / t
/// (t <= kShadowMaxT) is at least 1 and cannot darken the point.
std::string shadowSpanGlsl(int boundedParts) {
  return "void shadowSpan(vec3 ro, vec3 rd, inout float enter, inout float leave) {\n"
         "  float grow = kShadowMaxT / kShadowSharpness, first = 3.0e38, last = 0.0;\n"
         "  vec3 inv = 1.0 / max(abs(rd), vec3(1e-20)) * sign(rd + vec3(1e-30));\n"
         "  for (int r = 0; r < " +
         std::to_string(boundedParts) +
         "; ++r) {\n"
         "    int base = " +
         std::to_string(kPartsOffset) + " + " + std::to_string(kPartTexels) +
         " * r;\n"
         "    vec3 t0 = (SD(base).xyz - grow - ro) * inv, t1 = (SD(base + 1).xyz + grow - ro) * "
         "inv;\n"
         "    vec3 tNear = min(t0, t1), tFar = max(t0, t1);\n"
         "    float a = max(tNear.x, max(tNear.y, tNear.z)), b = min(tFar.x, min(tFar.y, "
         "tFar.z));\n"
         "    if (a <= b && b > 0.0) {\n      first = min(first, a);\n      last = max(last, b);\n "
         "   }\n"
         "  }\n"
         "  enter = max(enter, first);\n  leave = min(leave, last);\n}\n";
}

}  // namespace

/// The scene's map(): the part functions of `buffers` (or the interpreter), and the grid or,
/// for few parts, a call of each.
std::string sceneMapGlsl(const SceneBuffers& buffers) {
  const bool unrolled = !buffers.unrolledRecords.empty();
  std::string out = sceneMapConstants();
  out += field::glslHelpers();
  out += kSceneHead;
  if (buffers.structures.empty()) {
    out += sceneInterpreterGlsl();
  } else if (unrolled) {
    // Every index a part function reads is a constant here (the parameter block's place is
    // fixed by the structures, which the program hash covers), so a GPU loads parameters
    // straight from the constant bank.
    out += "int g_partParams;\nfloat g_time;\nconst int kParams = " +
           std::to_string(buffers.parametersOffset) +
           ";\nfloat FP(int i) {\n  int j = g_partParams + i;\n  return SD(kParams + (j >> "
           "2))[j & 3];\n}\n";
    for (const std::string& function : buffers.structures) out += function;
  } else {
    out += kStructureHead;
    for (const std::string& function : buffers.structures) out += withLoadedParameters(function);
    // A part: its structure's function on its parameters (which start on texel `texel` of the
    // parameter block).
    out +=
        "vec2 evalStructure(int structure, int texel, vec3 p) {\n"
        "  g_partParams = texel << 2;\n"
        "  g_partTexel = g_params + texel;\n"
        "  switch (structure) {\n";
    for (std::size_t k = 0; k < buffers.structures.size(); ++k)
      out +=
          "    case " + std::to_string(k) + ": return fp_part" + std::to_string(k) + "(p, 0.0);\n";
    out += "  }\n  return vec2(1e30, 0.0);\n}\n";
    out += kRecordEval;
  }
  if (!unrolled) {
    // The grid's cells already keep a shadow ray's steps to the parts near it.
    out += "void shadowSpan(vec3 ro, vec3 rd, inout float enter, inout float leave) {}\n";
    out += buffers.entriesCarryParts ? kEntryPartEval : kEntryRecordEval;
    out += kSceneMapLoop;
    return out;
  }
  out += shadowSpanGlsl(buffers.firstUnbounded);
  // Few parts: each in turn, the unbounded ones first, the others behind their box (the same
  // values as the grid: a part's term is its box distance beyond the margin, else its field).
  out +=
      "vec2 map(vec3 p, float t) {\n  vec2 best = vec2(1e30, 0.0);\n  vec2 d;\n"
      "  float box, margin = max(g_boundMargin, kRenderBoundMargin);\n  int base;\n";
  const int records = int(buffers.unrolledRecords.size());
  auto call = [&](int r) {
    const std::string k = std::to_string(buffers.unrolledRecords[std::size_t(r)]);
    return "g_partParams = " + std::to_string(buffers.unrolledParameters[std::size_t(r)]) +
           "; d = fp_part" + k + "(p, t); if (d.x < best.x) best = d;";
  };
  for (int r = buffers.firstUnbounded; r < records; ++r)
    out += "  if (!g_skipPlanes) { " + call(r) + " }\n";
  for (int r = 0; r < buffers.firstUnbounded; ++r) {
    out += "  base = " + std::to_string(kPartsOffset + kPartTexels * r) + ";\n";
    out += "  box = fp_box_distance(p, SD(base).xyz, SD(base + 1).xyz);\n";
    out +=
        "  if (box < best.x) {\n    if (box > margin) best = vec2(box, 0.0);\n"
        "    else { " +
        call(r) + " }\n  }\n";
  }
  out += "  return best;\n}\n";
  return out;
}

}  // namespace floptle::render
