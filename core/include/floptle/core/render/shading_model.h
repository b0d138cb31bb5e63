#pragma once
// The one shading model of Floptle: sphere-traced field, sky gradient, a sun with soft
// shadows, ambient occlusion, per-material albedo, distance fog and gamma. The CPU reference
// renderer (cpu_renderer.cpp) and the viewport's GLSL (raymarch_glsl.cpp, which writes these
// very constants into the shader as `const` declarations) implement it step for step, so a
// viewport image and a CPU image of the same camera agree to rounding.
#include <array>

#include "floptle/core/math.h"

namespace floptle::render::shading {

// --- sphere tracing -------------------------------------------------------------------------
/// Most steps along a primary ray (-).
inline constexpr int kMaxSteps = 192;
/// First distance sampled along a primary ray (m).
inline constexpr float kNearDistance = 0.01f;
/// A primary ray that travels further than this sees the sky (m).
inline constexpr float kMaxDistance = 250.0f;
/// Hit when the field is below kHitEpsilonBase + kHitEpsilonPerMeter * t (m): a cone of a
/// pixel's footprint at 1920 x 1080 and a 60 degree field of view (2 tan 30 deg / 1080 =
/// 1.07e-3 rad), so a ray stops once the surface is within its pixel and silhouettes do not
/// eat the step budget.
inline constexpr float kHitEpsilonBase = 2e-4f;
inline constexpr float kHitEpsilonPerMeter = 1e-3f;
/// Fraction of the field value taken per step (-): < 1 tolerates the non-Lipschitz fields
/// (twist, fractal estimators).
inline constexpr float kStepScale = 0.9f;
/// Over-relaxed sphere tracing (Keinert et al. 2014): steps are this times the distance while
/// each new unbounding sphere still overlaps the previous one; the first time they do not, the
/// march returns to the last safe point and continues with kStepScale. Safe for any distance
/// that bounds the true one from below.
inline constexpr float kRelaxation = 1.6f;
/// The viewport's shader takes plain steps of the distance (the same fall-back guards a step
/// that lands inside): on a GPU a relaxed step's fall-back stalls the neighbouring pixels that
/// share its instructions.
inline constexpr float kGpuRelaxation = 1.0f;
/// Offset of the tetrahedron normal taps (m).
inline constexpr float kNormalEpsilon = 1e-3f;

// --- sun and soft shadows -------------------------------------------------------------------
/// Unit direction towards the sun.
inline const Vec3 kSunDirection = glm::normalize(Vec3(0.55f, 0.75f, 0.35f));
inline constexpr Vec3 kSunColor{1.00f, 0.94f, 0.82f};
inline constexpr int kShadowSteps = 48;
/// Shadow rays start this far from the surface, along the normal and the light (m).
inline constexpr float kShadowBias = 0.01f;
inline constexpr float kShadowMinT = 0.02f;
inline constexpr float kShadowMaxT = 30.0f;
/// Penumbra sharpness k in min(k * h / t) (-).
inline constexpr float kShadowSharpness = 10.0f;
/// A shadow ray whose penumbra factor falls below this stops as fully shadowed (-): the rest
/// of its steps could change the pixel by less than this.
inline constexpr float kShadowDark = 0.002f;
/// Shadow step clamp (m).
inline constexpr float kShadowMinStep = 0.02f;
inline constexpr float kShadowMaxStep = 1.0f;
/// A shadow ray's steps are at least this fraction of its receiver's distance from the eye
/// (-), up to kShadowMaxStep: a pixel there spans about kHitEpsilonPerMeter * t, so finer
/// steps resolve no penumbra that ten pixels show, and far receivers cost fewer steps.
inline constexpr float kShadowStepPerMeter = 0.01f;

// --- ambient occlusion ----------------------------------------------------------------------
inline constexpr int kAoSamples = 5;
/// Distance of the i-th AO tap along the normal: kAoStart + kAoSpacing * i (m).
inline constexpr float kAoStart = 0.01f;
inline constexpr float kAoSpacing = 0.06f;
/// Weight decay from one tap to the next and overall strength (-).
inline constexpr float kAoDecay = 0.85f;
inline constexpr float kAoStrength = 3.0f;
/// Occlusion fades out linearly between these distances from the eye (m) and is not sampled
/// beyond: its taps span 0.25 m, under seven pixels at 40 m (a budget that depends on distance).
inline constexpr float kAoFadeStart = 30.0f;
inline constexpr float kAoFadeEnd = 40.0f;

// --- sky, ambient, fog, output --------------------------------------------------------------
inline constexpr Vec3 kSkyZenith{0.30f, 0.50f, 0.85f};
inline constexpr Vec3 kSkyHorizon{0.78f, 0.86f, 0.95f};
inline constexpr Vec3 kSkyBelow{0.55f, 0.58f, 0.62f};
/// Sun glow in the sky: kSunColor * kSunGlow * max(dot(rd, sun), 0)^kSunGlowPower.
inline constexpr float kSunGlow = 0.35f;
inline constexpr float kSunGlowPower = 48.0f;
/// Sky light on surfaces, times (kAmbientBase + (1 - kAmbientBase) * (0.5 + 0.5 n.y)) * AO.
inline constexpr Vec3 kSkyAmbient{0.28f, 0.34f, 0.44f};
inline constexpr float kAmbientBase = 0.35f;
/// Fog: fraction 1 - exp(-kFogDensity * t^2) of the sky colour (1/m^2).
inline constexpr float kFogDensity = 2e-5f;
/// Albedo of material index 0 (no material) and of indices beyond the table.
inline constexpr Vec3 kDefaultAlbedo{0.72f, 0.72f, 0.72f};
/// Display gamma (-).
inline constexpr float kGamma = 2.2f;
/// Largest material table the shader holds (indices 0 .. kMaxMaterials - 1).
inline constexpr int kMaxMaterials = 64;

// --- depth ----------------------------------------------------------------------------------
/// Planes of the perspective projection the viewport's overlays use; the raymarch pass
/// writes gl_FragDepth with the same planes (m).
inline constexpr float kDepthNear = 0.05f;
inline constexpr float kDepthFar = 1000.0f;

}  // namespace floptle::render::shading
