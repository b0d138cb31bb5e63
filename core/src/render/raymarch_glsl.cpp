// GLSL side of the shading model. The constants are printed from shading_model.h, so only
// the algorithm below is written twice; it follows cpu_renderer.cpp function by function.
#include "floptle/core/render/raymarch_glsl.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "../field/program_impl.h"
#include "floptle/core/field/field_glsl.h"
#include "floptle/core/render/brick_atlas.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/render/shading_model.h"
#include "scene_map_glsl.h"

namespace floptle::render {

namespace {

using namespace shading;

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
  // A host may set another tile (gpu_scene_bench --tile); the viewport uses kCoarseTile.
  s << "#ifndef FLOPTLE_COARSE_TILE\n#define FLOPTLE_COARSE_TILE " << kCoarseTile << ".0\n#endif\n";
  i("kMaxSteps", kMaxSteps);
  f("kNearDistance", kNearDistance);
  f("kMaxDistance", kMaxDistance);
  f("kHitEpsilonBase", kHitEpsilonBase);
  f("kHitEpsilonPerMeter", kHitEpsilonPerMeter);
  f("kStepScale", kStepScale);
  f("kRelaxation", kGpuRelaxation);
  f("kNormalEpsilon", kNormalEpsilon);
  v3("kSunDirection", kSunDirection);
  v3("kSunColor", kSunColor);
  i("kShadowSteps", kShadowSteps);
  f("kShadowBias", kShadowBias);
  f("kShadowMinT", kShadowMinT);
  f("kShadowMaxT", kShadowMaxT);
  f("kShadowSharpness", kShadowSharpness);
  f("kShadowDark", kShadowDark);
  f("kShadowMinStep", kShadowMinStep);
  f("kShadowMaxStep", kShadowMaxStep);
  f("kShadowStepPerMeter", kShadowStepPerMeter);
  i("kAoSamples", kAoSamples);
  f("kAoStart", kAoStart);
  f("kAoSpacing", kAoSpacing);
  f("kAoDecay", kAoDecay);
  f("kAoStrength", kAoStrength);
  f("kAoFadeStart", kAoFadeStart);
  f("kAoFadeEnd", kAoFadeEnd);
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
  // 0 at run time but unknown to the compiler where the scene data sets it: shadeRay's loop
  // stays a loop (its bound is not a constant to unroll by), so map() is inlined once there.
  s << "int g_loopGuard = 0;\n";
  return s.str();
}

/// The shading functions; they need map(), materialAlbedo(int) and kMaterialCount-like
/// state supplied by the host part (materialCount()). map() has two call sites, the march and
/// the shading loop (the normal's taps, the shadow ray and the occlusion samples in one loop): a
/// GPU compiler inlines a function at each call site, and a large scene's map copied into four
/// loops overflows the instruction cache.
constexpr const char* kShadingBody = R"GLSL(
float hitEpsilon(float t) { return kHitEpsilonBase + kHitEpsilonPerMeter * t; }

vec3 primaryRay(vec2 uv, vec3 right, vec3 up, vec3 forward, float tanHalfFovY, float aspect) {
  vec2 ndc = uv * 2.0 - 1.0;
  return normalize(forward + right * (ndc.x * tanHalfFovY * aspect) + up * (ndc.y * tanHalfFovY));
}

// The tetrahedron of the normal's taps.
vec3 normalTap(int i) {
  return i == 0   ? vec3(1.0, -1.0, -1.0)
         : i == 1 ? vec3(-1.0, -1.0, 1.0)
         : i == 2 ? vec3(-1.0, 1.0, -1.0)
                  : vec3(1.0, 1.0, 1.0);
}

vec3 albedoOf(float material) {
  int index = int(material + 0.5);
  if (index <= 0 || index >= materialCount() || index >= kMaxMaterials) return kDefaultAlbedo;
  return materialAlbedo(index);
}

vec3 skyColor(vec3 rd) {
  vec3 sky = rd.y >= 0.0 ? mix(kSkyHorizon, kSkyZenith, clamp(rd.y, 0.0, 1.0))
                         : mix(kSkyHorizon, kSkyBelow, clamp(-4.0 * rd.y, 0.0, 1.0));
  float sun = max(dot(rd, kSunDirection), 0.0);
  return sky + kSunColor * (kSunGlow * pow(sun, kSunGlowPower));
}

// Where the scene's unbounded parts are all planes (planesApart()), the march steps on the
// other parts alone (map() leaves the planes out while g_skipPlanes is set) and ends at the
// nearest plane the ray meets, found in closed form: the same first hit of the union, without
// the short steps a ray grazing a ground plane takes.
// A primary ray starts at g_startT where the coarse pass has cleared the way (coarseStart).
float g_startT = 0.0;
bool marchRay(vec3 ro, vec3 rd, float time, out float hitT, out float material) {
  float t = max(kNearDistance, g_startT);
  float previousT = t, previousD = 0.0;
  float omega = kRelaxation;
  hitT = 0.0;
  material = 0.0;
  float exitT = boundsExit(ro, rd);
  float planeT = 3.0e38, planeMaterial = 0.0;
  if (planesApart()) planesAhead(ro, rd, kNearDistance, kMaxDistance, planeT, planeMaterial);
  g_skipPlanes = planesApart();
  bool hit = false;
  for (int i = 0; i < kMaxSteps; ++i) {
    // At the plane, or past the box, once the last unrelaxed step covers the way there (a
    // relaxed step may have jumped over a surface the next step would catch).
    if (t >= planeT && previousT + previousD >= planeT) {
      hitT = planeT;
      material = planeMaterial;
      hit = planeT < kMaxDistance;
      break;
    }
    if (t > exitT && previousT + previousD >= exitT) {
      g_skipPlanes = false;
      return planesAhead(ro, rd, t, kMaxDistance, hitT, material);
    }
    vec2 h = map(ro + rd * t, time);
    if (omega > kStepScale && h.x + previousD < t - previousT) {
      t = previousT + previousD * kStepScale;
      omega = kStepScale;
      continue;
    }
    if (h.x < hitEpsilon(t)) {
      hitT = t;
      material = h.y;
      hit = true;
      break;
    }
    previousT = t;
    previousD = h.x;
    if (t + h.x * kStepScale > kMaxDistance) {
      // Nothing but a plane before the range's end.
      hitT = planeT;
      material = planeMaterial;
      hit = planeT < kMaxDistance;
      break;
    }
    t = min(t + h.x * omega, kMaxDistance);
  }
  g_skipPlanes = false;
  return hit;
}

// The coarse pass (a program built with FLOPTLE_COARSE_PASS) draws a texel for each
// kCoarseTile x kCoarseTile pixels of the frame: how far the cone around the tile's rays runs
// clear of every part but the planes (which the full pass finds in closed form, pixel by
// pixel). The full pass (FLOPTLE_COARSE_INPUT) starts each primary ray there: the steps that
// every ray of a tile would take alike are taken once. A point at distance t along the axis
// with the field's lower bound d clears the cone (radius t * slope there) a further
// (d - t slope) / (1 + slope) along the axis; a ray of the cone at parameter s lies at most s
// along the axis, so it is clear up to the returned distance too.
const float kCoarseTile = FLOPTLE_COARSE_TILE;
float coneClearance(vec3 ro, vec3 axis, float slope, float time) {
  g_skipPlanes = planesApart();
  float exitT = boundsExit(ro, axis);
  float t = kNearDistance;
  for (int i = 0; i < kMaxSteps && t < exitT && t < kMaxDistance; ++i) {
    float gap = map(ro + axis * t, time).x - t * slope;
    if (gap < hitEpsilon(t)) break;
    t += kStepScale * gap / (1.0 + slope);
  }
  g_skipPlanes = false;
  return t;
}

// The tile's cone: its axis through the tile's centre, its slope the widest of its corners'.
float coarseStart(vec2 tile, vec2 frame, vec3 ro, vec3 right, vec3 up, vec3 forward,
                  float tanHalfFovY, float aspect, float time) {
  vec2 lo = tile * kCoarseTile, hi = lo + kCoarseTile;
  vec3 axis = primaryRay(0.5 * (lo + hi) / frame, right, up, forward, tanHalfFovY, aspect);
  float cosine = 1.0;
  for (int i = 0; i < 4; ++i) {
    vec2 corner = vec2((i & 1) == 0 ? lo.x : hi.x, (i & 2) == 0 ? lo.y : hi.y);
    cosine = min(cosine, dot(axis, primaryRay(corner / frame, right, up, forward, tanHalfFovY,
                                             aspect)));
  }
  float slope = sqrt(max(1.0 - cosine * cosine, 0.0)) / max(cosine, 1e-3);
  return coneClearance(ro, axis, slope * 1.001 + 1e-6, time);
}

#if defined(FLOPTLE_COARSE_INPUT)
uniform sampler2D u_coarse;
// This pixel's tile's start, a hair short of it against the rounding of the two passes.
float coarseInputStart(vec2 fragCoord) {
  return 0.999 * texelFetch(u_coarse, ivec2(fragCoord / kCoarseTile), 0).x;
}
#endif

const int kPhaseNormal = 0;
const int kPhaseShadow = 1;
const int kPhaseOcclusion = 2;

// Display colour of a primary ray; hitDistance < 0 when it sees sky. The shading of a hit is
// one loop with one map() call: the normal's four taps, the soft shadow towards the sun where
// the surface faces it, then the occlusion samples, each with the same steps, bounds and early
// outs as the CPU renderer (cpu_renderer.cpp), except that the shadow ray here is marched over
// its span near the parts only (shadowSpan) and without the planes that cast no penumbra.
vec3 shadeRay(vec3 ro, vec3 rd, float time, out float hitDistance) {
  vec3 sky = skyColor(rd);
  hitDistance = -1.0;
  float t, material;
  if (!marchRay(ro, rd, time, t, material)) return pow(max(sky, vec3(0.0)), vec3(1.0 / kGamma));
  hitDistance = t;
  vec3 hit = ro + rd * t, n = vec3(0.0);
  int phase = kPhaseNormal, step = 0;
  float diffuse = 0.0, shadow = 1.0, shadowT = kShadowMinT, shadowExitT = 0.0;
  vec3 shadowOrigin = vec3(0.0);
  float occlusion = 0.0, weight = 1.0;
  float shadowMinStep = min(max(kShadowMinStep, kShadowStepPerMeter * t), kShadowMaxStep);
  for (int i = 0; i < 4 + kShadowSteps + kAoSamples + 2 + g_loopGuard; ++i) {
    vec3 p;
    if (phase == kPhaseNormal) {
      p = hit + normalTap(step) * kNormalEpsilon;
    } else if (phase == kPhaseShadow) {
      if (step >= kShadowSteps || shadowT >= kShadowMaxT || shadowT > shadowExitT) {
        // Past the box only the planes can still shade the point.
        float planeT, planeMaterial;
        if (shadowT > shadowExitT && shadowT < kShadowMaxT && step < kShadowSteps &&
            planesAhead(shadowOrigin, kSunDirection, shadowT, kShadowMaxT, planeT, planeMaterial))
          shadow = 0.0;
        phase = kPhaseOcclusion;
        step = 0;
        continue;
      }
      p = shadowOrigin + kSunDirection * shadowT;
    } else {
      if (step >= kAoSamples || t >= kAoFadeEnd) break;
      p = hit + n * (kAoStart + kAoSpacing * float(step));
    }

    g_skipPlanes = phase == kPhaseShadow && shadowSkipsPlanes();
    g_boundMargin = phase == kPhaseShadow ? shadowT / kShadowSharpness : 0.0;
    float h = map(p, time).x;
    g_skipPlanes = false;
    g_boundMargin = 0.0;

    if (phase == kPhaseNormal) {
      n += normalTap(step) * h;
      if (++step == 4) {
        float len = length(n);
        n = len > 0.0 ? n / len : vec3(0.0, 1.0, 0.0);
        diffuse = max(dot(n, kSunDirection), 0.0);
        step = 0;
        if (diffuse > 0.0) {
          shadowOrigin = hit + n * kShadowBias;
          shadowExitT = boundsExit(shadowOrigin, kSunDirection);
          phase = kPhaseShadow;
          // Planes that cast no penumbra (shadowSkipsPlanes) shade only a point behind them.
          float planeT, planeMaterial;
          if (shadowSkipsPlanes() && planesAhead(shadowOrigin, kSunDirection, kShadowMinT,
                                                 kShadowMaxT, planeT, planeMaterial)) {
            shadow = 0.0;
            phase = kPhaseOcclusion;
          }
          shadowSpan(shadowOrigin, kSunDirection, shadowT, shadowExitT);
        } else {
          shadow = 0.0;
          phase = kPhaseOcclusion;
        }
      }
    } else if (phase == kPhaseShadow) {
      ++step;
      shadow = h < kHitEpsilonBase ? 0.0 : min(shadow, kShadowSharpness * h / shadowT);
      if (shadow < kShadowDark) {
        shadow = 0.0;
        phase = kPhaseOcclusion;
        step = 0;
        continue;
      }
      shadowT += clamp(h, shadowMinStep, kShadowMaxStep);
    } else {
      occlusion += (kAoStart + kAoSpacing * float(step) - h) * weight;
      weight *= kAoDecay;
      ++step;
    }
  }
  float aoFade = clamp((kAoFadeEnd - t) / (kAoFadeEnd - kAoFadeStart), 0.0, 1.0);
  float ao = clamp(1.0 - kAoStrength * occlusion * aoFade, 0.0, 1.0);
  float skyLight = kAmbientBase + (1.0 - kAmbientBase) * (0.5 + 0.5 * n.y);
  vec3 lit = kSunColor * (diffuse * clamp(shadow, 0.0, 1.0)) + kSkyAmbient * (skyLight * ao);
  vec3 color = albedoOf(material) * lit;
  float fog = 1.0 - exp(-kFogDensity * t * t);
  color = mix(color, sky, fog);
  return pow(max(color, vec3(0.0)), vec3(1.0 / kGamma));
}

)GLSL";

/// A raymarch shader's frame: frameSize() and framePixel(), the viewport's or a standalone
/// shader's (below), then one of two mains: a fragment shader's (kFrameFragmentMain) or its
/// compute twin's (kFrameComputeMain, computeShaderOf). The two differ only in how a pixel's place
/// comes in and its results go out.
///
/// The viewport's frame: the rendered region u_frame. Its pixel has a window depth
/// (FLOPTLE_FRAME_DEPTH): the eye-space depth of the hit through the overlays' perspective
/// projection, 1 for sky.
constexpr const char* kViewportPixel = R"GLSL(
// The rendered region's size in pixels (the full frame's in the coarse pass).
uniform vec2 u_frame;
vec2 frameSize() { return u_frame; }
#define FLOPTLE_FRAME_DEPTH
// The pixel whose centre is fragCoord (pixels from the region's lower-left), uv = fragCoord /
// u_frame: its display colour and window depth. In the coarse pass, the start of the tile
// floor(fragCoord) in .x.
vec4 framePixel(vec2 fragCoord, vec2 uv, out float depth) {
  loadSceneHeader();
  depth = 1.0;
#if defined(FLOPTLE_COARSE_PASS)
  return vec4(coarseStart(floor(fragCoord), u_frame, u_camPos, u_camRight, u_camUp, u_camForward,
                          u_tanHalfFovY, u_aspect, u_time),
              0.0, 0.0, 1.0);
#else
#if defined(FLOPTLE_COARSE_INPUT)
  g_startT = coarseInputStart(fragCoord);
#endif
  vec3 rd = primaryRay(uv, u_camRight, u_camUp, u_camForward, u_tanHalfFovY, u_aspect);
  float t;
  vec3 color = shadeRay(u_camPos, rd, u_time, t);
  if (t >= 0.0) {
    float z = max(t * dot(rd, u_camForward), kDepthNear);
    float ndcZ = (kDepthFar + kDepthNear) / (kDepthFar - kDepthNear) -
                 2.0 * kDepthFar * kDepthNear / ((kDepthFar - kDepthNear) * z);
    depth = clamp(0.5 * ndcZ + 0.5, 0.0, 1.0);
  }
  return vec4(color, 1.0);
#endif
}
)GLSL";

/// A standalone shader's frame: iResolution, no depth. With FLOPTLE_OUTPUT_HIT defined (a host
/// inserts it after #version) the pixel is the primary ray's hit instead of a colour:
/// (distance (m), material, 0, 1), or (-1, -1, 0, 1) for sky; tests compare the geometry with
/// another shader's that way.
constexpr const char* kStandalonePixel = R"GLSL(
vec2 frameSize() { return iResolution; }
vec4 framePixel(vec2 fragCoord, vec2 uv, out float depth) {
  loadSceneHeader();
  depth = 1.0;
#if defined(FLOPTLE_COARSE_PASS)
  return vec4(coarseStart(floor(fragCoord), iResolution, kCamPos, kCamRight, kCamUp, kCamForward,
                          kTanHalfFovY, iResolution.x / iResolution.y, iTime),
              0.0, 0.0, 1.0);
#else
#if defined(FLOPTLE_COARSE_INPUT)
  g_startT = coarseInputStart(fragCoord);
#endif
  vec3 rd = primaryRay(uv, kCamRight, kCamUp, kCamForward, kTanHalfFovY,
                       iResolution.x / iResolution.y);
#ifdef FLOPTLE_OUTPUT_HIT
  float hitT, hitMaterial;
  bool hit = marchRay(kCamPos, rd, iTime, hitT, hitMaterial);
  return hit ? vec4(hitT, hitMaterial, 0.0, 1.0) : vec4(-1.0, -1.0, 0.0, 1.0);
#else
  float t;
  return vec4(shadeRay(kCamPos, rd, iTime, t), 1.0);
#endif
#endif
}
)GLSL";

constexpr const char* kFrameFragmentMain = R"GLSL(
void main() {
  float depth;
  fragColor = framePixel(gl_FragCoord.xy, vUv, depth);
#if defined(FLOPTLE_FRAME_DEPTH) && !defined(FLOPTLE_COARSE_PASS)
  gl_FragDepth = depth;
#endif
}
)GLSL";

/// One invocation a pixel (a tile in the coarse pass) of frameSize(), in work groups of
/// kComputeGroup x kComputeGroup; invocations past the frame's edge write nothing.
constexpr const char* kFrameComputeMain = R"GLSL(
#if defined(FLOPTLE_COARSE_PASS)
layout(r32f) uniform writeonly image2D u_coarseOut;
#else
layout(rgba8) uniform writeonly image2D u_colorOut;
#if defined(FLOPTLE_FRAME_DEPTH)
layout(r32f) uniform writeonly image2D u_depthOut;
#endif
#endif
void main() {
  ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
#if defined(FLOPTLE_COARSE_PASS)
  ivec2 size = (ivec2(frameSize()) + int(kCoarseTile) - 1) / int(kCoarseTile);
#else
  ivec2 size = ivec2(frameSize());
#endif
  if (any(greaterThanEqual(pixel, size))) return;
  vec2 fragCoord = vec2(pixel) + 0.5;
  float depth;
  vec4 color = framePixel(fragCoord, fragCoord / frameSize(), depth);
#if defined(FLOPTLE_COARSE_PASS)
  imageStore(u_coarseOut, pixel, color);
#else
  imageStore(u_colorOut, pixel, color);
#if defined(FLOPTLE_FRAME_DEPTH)
  imageStore(u_depthOut, pixel, vec4(depth));
#endif
#endif
}
)GLSL";

/// The fixed scene map: the UnionField in the scene data (scene_buffers.h), read through
/// SD(texel). Small scenes call each part in turn; larger ones read the candidate grid
/// (scene_grid.h). Either way a part farther than kRenderBoundMargin (on a shadow ray, its
/// shadowBoundMargin) from its box answers with the box distance, as UnionField::renderSample
/// does.
/// The one-program shaders know no bounds: every ray is marched to its end.
constexpr const char* kNoOpenSpace = R"GLSL(
bool g_skipPlanes = false;
float g_boundMargin = 0.0;
bool planesApart() { return false; }
bool shadowSkipsPlanes() { return false; }
void shadowSpan(vec3 ro, vec3 rd, inout float enter, inout float leave) {}
float boundsExit(vec3 ro, vec3 rd) { return 3.0e38; }
bool planesAhead(vec3 ro, vec3 rd, float t, float tMax, out float hitT, out float material) {
  hitT = tMax;
  material = 0.0;
  return false;
}
)GLSL";

/// A standalone shader's baked camera, material colours and shading constants.
std::string standaloneConstants(const Camera& camera, const MaterialColors& materials) {
  std::ostringstream s;
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
    << "vec3 materialAlbedo(int i) { return kMaterials[i]; }\n";
  return s.str();
}

}  // namespace

std::string computeShaderOf(const std::string& fragmentShader) {
  static const std::string kVersion = "#version 330 core\n";
  static const std::string kStageInterface = "in vec2 vUv;\nout vec4 fragColor;\n";
  static const std::string kFragmentMain = kFrameFragmentMain;
  const std::size_t interface = fragmentShader.find(kStageInterface);
  if (fragmentShader.rfind(kVersion, 0) != 0 || interface == std::string::npos ||
      fragmentShader.size() < kFragmentMain.size() ||
      fragmentShader.compare(fragmentShader.size() - kFragmentMain.size(), kFragmentMain.size(),
                             kFragmentMain) != 0)
    return {};
  const std::size_t bodyStart = interface + kStageInterface.size();
  const std::size_t bodyEnd = fragmentShader.size() - kFragmentMain.size();
  return "#version 430 core\nlayout(local_size_x = " + std::to_string(kComputeGroup) +
         ", local_size_y = " + std::to_string(kComputeGroup) + ") in;\n" +
         fragmentShader.substr(kVersion.size(), interface - kVersion.size()) +
         fragmentShader.substr(bodyStart, bodyEnd - bodyStart) + kFrameComputeMain;
}

std::string withDefine(const std::string& shader, const std::string& name) {
  const std::size_t end = shader.find('\n');
  if (end == std::string::npos) return shader + "\n#define " + name + "\n";
  return shader.substr(0, end + 1) + "#define " + name + "\n" + shader.substr(end + 1);
}

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
    << mapGlsl << "\nvoid loadSceneHeader() {}\n"
    << kNoOpenSpace << "// ---- shading ----\n"
    << kShadingBody << kViewportPixel << kFrameFragmentMain;
  return s.str();
}

namespace {
/// The scene's map() renamed sceneMap(), and a map() that adds the brick maps of the atlas
/// textures (brick_atlas.h): the nearer of the two, with its material. The open-space shortcut
/// (boundsExit: a ray past the box of the scene's bounded parts finishes against its planes)
/// and a shadow ray's span (shadowSpan) know only the scene's parts, so with brick maps every
/// ray is marched to its end. The planes stay apart: the union with the bricks is a plain min.
std::string withBrickMaps(std::string sceneMap) {
  auto rename = [&sceneMap](const std::string& from, const std::string& to) {
    const std::size_t at = sceneMap.find(from);
    if (at != std::string::npos) sceneMap.replace(at, from.size(), to);
  };
  rename("vec2 map(vec3 p, float t) {", "vec2 sceneMap(vec3 p, float t) {");
  rename("float boundsExit(vec3 ro, vec3 rd) {", "float sceneBoundsExit(vec3 ro, vec3 rd) {");
  rename("void shadowSpan(vec3 ro, vec3 rd, inout float enter, inout float leave) {",
         "void sceneShadowSpan(vec3 ro, vec3 rd, inout float enter, inout float leave) {");
  return sceneMap + brickMapsGlsl() +
         "vec2 map(vec3 p, float t) {\n  vec2 a = sceneMap(p, t), b = brickMapsDistance(p);\n"
         "  return b.x < a.x ? b : a;\n}\n"
         "float boundsExit(vec3 ro, vec3 rd) { return 3.0e38; }\n"
         "void shadowSpan(vec3 ro, vec3 rd, inout float enter, inout float leave) {}\n";
}
}  // namespace

std::string viewportFragmentShader(const SceneBuffers& buffers, bool brickMaps) {
  std::ostringstream s;
  s << "#version 330 core\n"
    << "in vec2 vUv;\nout vec4 fragColor;\n"
    << "uniform vec3 u_camPos;\nuniform vec3 u_camRight;\nuniform vec3 u_camUp;\n"
    << "uniform vec3 u_camForward;\nuniform float u_tanHalfFovY;\nuniform float u_aspect;\n"
    << "uniform float u_time;\n"
    << "uniform vec3 u_materials[" << kMaxMaterials << "];\n"
    << "uniform int u_materialCount;\n";
  if (buffers.uniformData) {
    // Declared at its largest, so that a scene whose texel count changes (a rebuilt hierarchy)
    // keeps its program.
    s << "uniform vec4 u_sceneData[" << kMaxUniformTexels << "];\n"
      << "#define SD(i) u_sceneData[i]\n";
  } else {
    s << "uniform sampler2D u_sceneData;\n"
      << "#define SD(i) texelFetch(u_sceneData, ivec2((i) & " << (kSceneDataWidth - 1)
      << ", (i) >> " << sceneDataWidthShift() << "), 0)\n";
  }
  s << constantsBlock() << "int materialCount() { return u_materialCount; }\n"
    << "vec3 materialAlbedo(int i) { return u_materials[i]; }\n"
    << (brickMaps ? withBrickMaps(sceneMapGlsl(buffers)) : sceneMapGlsl(buffers))
    << "// ---- shading ----\n"
    << kShadingBody << kViewportPixel << kFrameFragmentMain;
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
  s << standaloneConstants(camera, materials) << "// ---- field (field::emitGlsl) ----\n"
    << field::emitGlsl(program) << "\n"
    << kNoOpenSpace << "// ---- shading ----\n"
    << kShadingBody << kStandalonePixel << kFrameFragmentMain;
  return s.str();
}

std::string standaloneFragmentShader(const field::UnionField& field, const Camera& camera,
                                     const MaterialColors& materials, double time) {
  Expected<SceneBuffers> buffers = packSceneBuffers(field, time);
  if (!buffers) return "// " + buffers.error().message() + "\n";
  return standaloneSceneShader(*buffers, camera, materials, true);
}

std::string standaloneSceneShader(const SceneBuffers& buffers, const Camera& camera,
                                  const MaterialColors& materials, bool embedData) {
  std::ostringstream s;
  s << "#version 330 core\n"
    << "// Floptle raymarch shader: the scene program (" << buffers.partCount << " parts, "
    << buffers.structures.size() << " part structures); generated by floptle render.\n"
    << "in vec2 vUv;\nout vec4 fragColor;\nuniform vec2 iResolution;\nuniform float iTime;\n";
  // A scene the viewport hands over as a uniform array is embedded (a host of the standalone
  // shader has no way to fill the array); a constant array costs the same on a GPU.
  if (embedData || buffers.uniformData) {
    const int used = buffers.usedTexels;
    s << "const vec4 kSceneData[" << used << "] = vec4[" << used << "](";
    for (int i = 0; i < used; ++i) {
      const float* t = &buffers.texels[std::size_t(i) * 4];
      s << (i ? ",\n  " : "\n  ") << "vec4(" << glslFloat(t[0]) << ", " << glslFloat(t[1]) << ", "
        << glslFloat(t[2]) << ", " << glslFloat(t[3]) << ")";
    }
    s << ");\n#define SD(i) kSceneData[i]\n";
  } else {
    s << "uniform sampler2D u_sceneData;\n"
      << "#define SD(i) texelFetch(u_sceneData, ivec2((i) & " << (kSceneDataWidth - 1)
      << ", (i) >> " << sceneDataWidthShift() << "), 0)\n";
  }
  s << standaloneConstants(camera, materials) << sceneMapGlsl(buffers) << "// ---- shading ----\n"
    << kShadingBody << kStandalonePixel << kFrameFragmentMain;
  return s.str();
}

}  // namespace floptle::render
