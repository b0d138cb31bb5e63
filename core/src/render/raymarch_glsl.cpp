// GLSL side of the shading model. The constants are printed from shading_model.h, so only
// the algorithm below is written twice; it follows cpu_renderer.cpp function by function.
#include "floptle/core/render/raymarch_glsl.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "floptle/core/field/field_glsl.h"
#include "floptle/core/render/shading_model.h"

namespace floptle::render {

namespace {

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

std::string glslVec3(Vec3 v) {
  return "vec3(" + glslFloat(v.x) + ", " + glslFloat(v.y) + ", " + glslFloat(v.z) + ")";
}

/// `const` declarations of every shading constant.
std::string constantsBlock() {
  std::ostringstream s;
  auto f = [&](const char* name, float v) {
    s << "const float " << name << " = " << glslFloat(v) << ";\n";
  };
  auto i = [&](const char* name, int v) { s << "const int " << name << " = " << v << ";\n"; };
  auto v3 = [&](const char* name, Vec3 v) {
    s << "const vec3 " << name << " = " << glslVec3(v) << ";\n";
  };
  i("kMaxSteps", kMaxSteps);
  f("kNearDistance", kNearDistance);
  f("kMaxDistance", kMaxDistance);
  f("kHitEpsilonBase", kHitEpsilonBase);
  f("kHitEpsilonPerMeter", kHitEpsilonPerMeter);
  f("kStepScale", kStepScale);
  f("kNormalEpsilon", kNormalEpsilon);
  v3("kSunDirection", kSunDirection);
  v3("kSunColor", kSunColor);
  i("kShadowSteps", kShadowSteps);
  f("kShadowBias", kShadowBias);
  f("kShadowMinT", kShadowMinT);
  f("kShadowMaxT", kShadowMaxT);
  f("kShadowSharpness", kShadowSharpness);
  f("kShadowMinStep", kShadowMinStep);
  f("kShadowMaxStep", kShadowMaxStep);
  i("kAoSamples", kAoSamples);
  f("kAoStart", kAoStart);
  f("kAoSpacing", kAoSpacing);
  f("kAoDecay", kAoDecay);
  f("kAoStrength", kAoStrength);
  v3("kSkyZenith", kSkyZenith);
  v3("kSkyHorizon", kSkyHorizon);
  v3("kSkyBelow", kSkyBelow);
  f("kSunGlow", kSunGlow);
  f("kSunGlowPower", kSunGlowPower);
  v3("kSkyAmbient", kSkyAmbient);
  f("kAmbientBase", kAmbientBase);
  f("kFogDensity", kFogDensity);
  v3("kDefaultAlbedo", kDefaultAlbedo);
  f("kGamma", kGamma);
  i("kMaxMaterials", kMaxMaterials);
  f("kDepthNear", kDepthNear);
  f("kDepthFar", kDepthFar);
  return s.str();
}

/// The shading functions; they need map(), materialAlbedo(int) and kMaterialCount-like
/// state supplied by the host part (materialCount()).
constexpr const char* kShadingBody = R"GLSL(
float hitEpsilon(float t) { return kHitEpsilonBase + kHitEpsilonPerMeter * t; }

vec3 calcNormal(vec3 p, float time) {
  const vec3 kxyy = vec3(1.0, -1.0, -1.0);
  const vec3 kyyx = vec3(-1.0, -1.0, 1.0);
  const vec3 kyxy = vec3(-1.0, 1.0, -1.0);
  const vec3 kxxx = vec3(1.0, 1.0, 1.0);
  float e = kNormalEpsilon;
  vec3 n = kxyy * map(p + kxyy * e, time).x + kyyx * map(p + kyyx * e, time).x +
           kyxy * map(p + kyxy * e, time).x + kxxx * map(p + kxxx * e, time).x;
  float len = length(n);
  return len > 0.0 ? n / len : vec3(0.0, 1.0, 0.0);
}

float softShadow(vec3 ro, vec3 rd, float time) {
  float result = 1.0;
  float t = kShadowMinT;
  for (int i = 0; i < kShadowSteps && t < kShadowMaxT; ++i) {
    float h = map(ro + rd * t, time).x;
    if (h < kHitEpsilonBase) return 0.0;
    result = min(result, kShadowSharpness * h / t);
    t += clamp(h, kShadowMinStep, kShadowMaxStep);
  }
  return clamp(result, 0.0, 1.0);
}

float ambientOcclusion(vec3 p, vec3 n, float time) {
  float occlusion = 0.0;
  float weight = 1.0;
  for (int i = 0; i < kAoSamples; ++i) {
    float h = kAoStart + kAoSpacing * float(i);
    float d = map(p + n * h, time).x;
    occlusion += (h - d) * weight;
    weight *= kAoDecay;
  }
  return clamp(1.0 - kAoStrength * occlusion, 0.0, 1.0);
}

vec3 albedoOf(float material) {
  int index = int(material + 0.5);
  if (index <= 0 || index >= materialCount() || index >= kMaxMaterials) return kDefaultAlbedo;
  return materialAlbedo(index);
}

bool marchRay(vec3 ro, vec3 rd, float time, out float hitT, out float material) {
  float t = kNearDistance;
  hitT = 0.0;
  material = 0.0;
  for (int i = 0; i < kMaxSteps; ++i) {
    vec2 h = map(ro + rd * t, time);
    if (h.x < hitEpsilon(t)) {
      hitT = t;
      material = h.y;
      return true;
    }
    t += h.x * kStepScale;
    if (t > kMaxDistance) return false;
  }
  return false;
}

vec3 skyColor(vec3 rd) {
  vec3 sky = rd.y >= 0.0 ? mix(kSkyHorizon, kSkyZenith, clamp(rd.y, 0.0, 1.0))
                         : mix(kSkyHorizon, kSkyBelow, clamp(-4.0 * rd.y, 0.0, 1.0));
  float sun = max(dot(rd, kSunDirection), 0.0);
  return sky + kSunColor * (kSunGlow * pow(sun, kSunGlowPower));
}

// Display colour of a primary ray; hitDistance < 0 when it sees sky.
vec3 shadeRay(vec3 ro, vec3 rd, float time, out float hitDistance) {
  vec3 sky = skyColor(rd);
  vec3 color = sky;
  hitDistance = -1.0;
  float t;
  float material;
  if (marchRay(ro, rd, time, t, material)) {
    hitDistance = t;
    vec3 p = ro + rd * t;
    vec3 n = calcNormal(p, time);
    float diffuse = max(dot(n, kSunDirection), 0.0);
    float shadow = diffuse > 0.0 ? softShadow(p + n * kShadowBias, kSunDirection, time) : 0.0;
    float ao = ambientOcclusion(p, n, time);
    float skyLight = kAmbientBase + (1.0 - kAmbientBase) * (0.5 + 0.5 * n.y);
    vec3 lit = kSunColor * (diffuse * shadow) + kSkyAmbient * (skyLight * ao);
    color = albedoOf(material) * lit;
    float fog = 1.0 - exp(-kFogDensity * t * t);
    color = mix(color, sky, fog);
  }
  return pow(max(color, vec3(0.0)), vec3(1.0 / kGamma));
}

vec3 primaryRay(vec2 uv, vec3 right, vec3 up, vec3 forward, float tanHalfFovY, float aspect) {
  vec2 ndc = uv * 2.0 - 1.0;
  return normalize(forward + right * (ndc.x * tanHalfFovY * aspect) + up * (ndc.y * tanHalfFovY));
}
)GLSL";

constexpr const char* kViewportMain = R"GLSL(
void main() {
  vec3 rd = primaryRay(vUv, u_camRight, u_camUp, u_camForward, u_tanHalfFovY, u_aspect);
  float t;
  vec3 color = shadeRay(u_camPos, rd, u_time, t);
  fragColor = vec4(color, 1.0);
  if (t < 0.0) {
    gl_FragDepth = 1.0;
  } else {
    // Eye-space depth of the hit -> window depth of the overlays' perspective projection.
    float z = max(t * dot(rd, u_camForward), kDepthNear);
    float ndcZ = (kDepthFar + kDepthNear) / (kDepthFar - kDepthNear) -
                 2.0 * kDepthFar * kDepthNear / ((kDepthFar - kDepthNear) * z);
    gl_FragDepth = clamp(0.5 * ndcZ + 0.5, 0.0, 1.0);
  }
}
)GLSL";

constexpr const char* kStandaloneMain = R"GLSL(
void main() {
  vec3 rd = primaryRay(vUv, kCamRight, kCamUp, kCamForward, kTanHalfFovY,
                       iResolution.x / iResolution.y);
  float t;
  fragColor = vec4(shadeRay(kCamPos, rd, iTime, t), 1.0);
}
)GLSL";

}  // namespace

std::string fullscreenVertexShader() {
  return "#version 330 core\n"
         "out vec2 vUv;\n"
         "void main() {\n"
         "  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));\n"
         "  vUv = p;\n"
         "  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n"
         "}\n";
}

int packedParameterSlots(int parameterCount) {
  return std::max(1, (parameterCount + 3) / 4);
}

std::string viewportFragmentShader(const std::string& mapGlsl, int parameterCount) {
  std::ostringstream s;
  s << "#version 330 core\n"
    << "in vec2 vUv;\nout vec4 fragColor;\n"
    << "uniform vec3 u_camPos;\nuniform vec3 u_camRight;\nuniform vec3 u_camUp;\n"
    << "uniform vec3 u_camForward;\nuniform float u_tanHalfFovY;\nuniform float u_aspect;\n"
    << "uniform float u_time;\n"
    << "uniform vec4 u_params[" << packedParameterSlots(parameterCount) << "];\n"
    << "uniform vec3 u_materials[" << kMaxMaterials << "];\n"
    << "uniform int u_materialCount;\n"
    << "#define FP(i) u_params[(i) >> 2][(i) & 3]\n"
    << constantsBlock() << "int materialCount() { return u_materialCount; }\n"
    << "vec3 materialAlbedo(int i) { return u_materials[i]; }\n"
    << "// ---- field (field::emitGlsl) ----\n"
    << mapGlsl << "\n// ---- shading ----\n"
    << kShadingBody << kViewportMain;
  return s.str();
}

std::string standaloneFragmentShader(const field::FieldProgram& program, const Camera& camera,
                                     const MaterialColors& materials, double time) {
  const std::vector<float> values = program.parameterValues(time);
  const int slots = packedParameterSlots(int(values.size()));
  std::ostringstream s;
  s << "#version 330 core\n"
    << "// Floptle raymarch shader with the scene baked in (parameters at t = " << time
    << " s); generated by floptle render --shader-out.\n"
    << "in vec2 vUv;\nout vec4 fragColor;\nuniform vec2 iResolution;\nuniform float iTime;\n";
  s << "const vec4 kParams[" << slots << "] = vec4[" << slots << "](";
  for (int slot = 0; slot < slots; ++slot) {
    s << (slot ? ",\n  " : "\n  ") << "vec4(";
    for (int c = 0; c < 4; ++c) {
      const std::size_t i = std::size_t(slot) * 4 + c;
      s << (c ? ", " : "") << glslFloat(i < values.size() ? values[i] : 0.0f);
    }
    s << ")";
  }
  s << ");\n#define FP(i) kParams[(i) >> 2][(i) & 3]\n";
  const int count = std::clamp(int(materials.size()), 1, kMaxMaterials);
  s << "const vec3 kMaterials[" << count << "] = vec3[" << count << "](";
  for (int i = 0; i < count; ++i)
    s << (i ? ", " : "") << glslVec3(i < int(materials.size()) ? materials[i] : kDefaultAlbedo);
  s << ");\n";
  const CameraBasis basis = camera.basis();
  s << "const vec3 kCamPos = " << glslVec3(camera.position) << ";\n"
    << "const vec3 kCamRight = " << glslVec3(basis.right) << ";\n"
    << "const vec3 kCamUp = " << glslVec3(basis.up) << ";\n"
    << "const vec3 kCamForward = " << glslVec3(basis.forward) << ";\n"
    << "const float kTanHalfFovY = " << glslFloat(camera.tanHalfFovY()) << ";\n"
    << constantsBlock() << "int materialCount() { return " << int(materials.size()) << "; }\n"
    << "vec3 materialAlbedo(int i) { return kMaterials[i]; }\n"
    << "// ---- field (field::emitGlsl) ----\n"
    << field::emitGlsl(program) << "\n// ---- shading ----\n"
    << kShadingBody << kStandaloneMain;
  return s.str();
}

}  // namespace floptle::render
