// CPU side of the shading model. Every function here has a GLSL twin of the same name in
// raymarch_glsl.cpp; change both together (the viewport test compares their images).
#include "floptle/core/render/cpu_renderer.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <system_error>
#include <thread>

#include "floptle/core/render/brick_atlas.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/render/shading_model.h"

namespace floptle::render {

using namespace shading;

namespace {

float hitEpsilon(float t) {
  return kHitEpsilonBase + kHitEpsilonPerMeter * t;
}

/// What the renderer marches: UnionField::renderSample, and where brick maps are given the
/// nearer of that and BrickAtlas::distance (the shader's map() with brickMapsDistance()).
/// Where the unbounded parts are all planes (tracedPlanes) a march may leave them out and
/// trace them in closed form (the shader's g_skipPlanes, planesApart(), shadowSkipsPlanes()).
struct Marched {
  Marched(const field::UnionField& parts, double time, const BrickAtlas* maps = nullptr)
      : field(parts), bricks(maps), planes(tracedPlanes(parts, time)) {
    // A shadow ray leaves a plane at dot(n, sun) a metre per metre, so its soft-shadow term
    // kShadowSharpness h / t stays at or above kShadowSharpness dot(n, sun): from 1 on, the
    // plane never darkens it (a point behind the plane is in its shadow: planesAhead).
    shadowSkipsPlanes = planes.has_value();
    if (planes)
      for (const TracedPlane& plane : *planes)
        if (kShadowSharpness * glm::dot(plane.normal, kSunDirection) < 1.0f)
          shadowSkipsPlanes = false;
  }
  field::FieldSample sample(Vec3 p, double time, bool withPlanes = true,
                            float boundMargin = field::UnionField::kRenderBoundMargin) const {
    field::FieldSample s = field.renderSample(p, time, withPlanes, boundMargin);
    if (bricks) {
      const Vec2 b = bricks->distance(p);
      if (b.x < s.distance) s = {b.x, field::MaterialIndex(b.y)};
    }
    return s;
  }
  const field::UnionField& field;
  const BrickAtlas* bricks;
  std::optional<std::vector<TracedPlane>> planes;
  bool shadowSkipsPlanes = false;
};

/// The nearest of `planes` the ray meets in [t, tMax] (a point behind a plane meets it at t);
/// hitT = tMax when none does. The shader's planesAhead.
bool planesAhead(const std::vector<TracedPlane>& planes, const Ray& ray, float t, float tMax,
                 float& hitT, field::MaterialIndex& material) {
  hitT = tMax;
  material = 0;
  bool hit = false;
  for (const TracedPlane& plane : planes) {
    const float height = glm::dot(plane.normal, ray.at(t)) - plane.offset;
    const float along = glm::dot(plane.normal, ray.direction);
    const float at = height <= 0.0f ? t
                     : along < 0.0f ? t + height / -along
                                    : std::numeric_limits<float>::infinity();
    if (at < hitT) {
      hitT = at;
      material = plane.material;
      hit = true;
    }
  }
  return hit;
}

/// The distance the renderer marches.
float mapDistance(const Marched& field, Vec3 p, double time) {
  return field.sample(p, time).distance;
}

/// Tetrahedron-tap normal (same taps and epsilon as the shader's calcNormal).
Vec3 calcNormal(const Marched& field, Vec3 p, double time) {
  const Vec3 kxyy{1, -1, -1}, kyyx{-1, -1, 1}, kyxy{-1, 1, -1}, kxxx{1, 1, 1};
  const float e = kNormalEpsilon;
  const Vec3 n = kxyy * mapDistance(field, p + kxyy * e, time) +
                 kyyx * mapDistance(field, p + kyyx * e, time) +
                 kyxy * mapDistance(field, p + kyxy * e, time) +
                 kxxx * mapDistance(field, p + kxxx * e, time);
  const float len = glm::length(n);
  return len > 0.0f && std::isfinite(len) ? n / len : kUp;
}

/// The bound margin of a shadow ray's sample `t` (m) along it: a part's box distance stands in
/// for the part only beyond t / kShadowSharpness, where the soft-shadow term
/// kShadowSharpness h / t of box and part alike is at least 1. The shadow is then that of the
/// parts themselves, not the halo their boxes would cast. The shader's g_boundMargin.
float shadowBoundMargin(float t) {
  return std::max(field::UnionField::kRenderBoundMargin, t / kShadowSharpness);
}

/// Soft shadow factor towards the sun (0 = fully shadowed) of a receiver `eyeDistance` (m)
/// from the eye.
float softShadow(const Marched& field, Vec3 ro, Vec3 rd, double time, float eyeDistance) {
  const float minStep =
      std::min(std::max(kShadowMinStep, kShadowStepPerMeter * eyeDistance), kShadowMaxStep);
  float result = 1.0f;
  float t = kShadowMinT;
  float planeT = 0.0f;
  field::MaterialIndex planeMaterial = 0;
  if (field.shadowSkipsPlanes &&
      planesAhead(*field.planes, Ray{ro, rd}, t, kShadowMaxT, planeT, planeMaterial))
    return 0.0f;
  for (int i = 0; i < kShadowSteps && t < kShadowMaxT; ++i) {
    const float h =
        field.sample(ro + rd * t, time, !field.shadowSkipsPlanes, shadowBoundMargin(t)).distance;
    if (h < kHitEpsilonBase) return 0.0f;
    result = std::min(result, kShadowSharpness * h / t);
    if (result < kShadowDark) return 0.0f;
    t += std::clamp(h, minStep, kShadowMaxStep);
  }
  return std::clamp(result, 0.0f, 1.0f);
}

/// Occlusion's weight at `eyeDistance` (m): 1 up to kAoFadeStart, 0 from kAoFadeEnd.
float occlusionFade(float eyeDistance) {
  return std::clamp((kAoFadeEnd - eyeDistance) / (kAoFadeEnd - kAoFadeStart), 0.0f, 1.0f);
}

float occlusionAt(const Marched& field, Vec3 p, Vec3 n, double time, float eyeDistance) {
  if (eyeDistance >= kAoFadeEnd) return 1.0f;
  float occlusion = 0.0f;
  float weight = 1.0f;
  for (int i = 0; i < kAoSamples; ++i) {
    const float h = kAoStart + kAoSpacing * float(i);
    const float d = mapDistance(field, p + n * h, time);
    occlusion += (h - d) * weight;
    weight *= kAoDecay;
  }
  return std::clamp(1.0f - kAoStrength * occlusion * occlusionFade(eyeDistance), 0.0f, 1.0f);
}

Vec3 albedoOf(const MaterialColors& materials, field::MaterialIndex index) {
  if (index == 0 || index >= materials.size() || index >= kMaxMaterials) return kDefaultAlbedo;
  return materials[index];
}

std::uint8_t toByte(float c) {
  return static_cast<std::uint8_t>(std::lround(std::clamp(c, 0.0f, 1.0f) * 255.0f));
}

/// With traced planes the march steps on the other parts alone and ends at the nearest plane
/// (the shader's marchRay): the same first hit of the union.
std::optional<MarchHit> marchScene(const Marched& field, const Ray& ray, double time,
                                   float maxDistance) {
  float t = kNearDistance;
  float previousT = t, previousD = 0.0f;
  float omega = kRelaxation;
  float planeT = std::numeric_limits<float>::infinity();
  field::MaterialIndex planeMaterial = 0;
  if (field.planes) planesAhead(*field.planes, ray, t, maxDistance, planeT, planeMaterial);
  auto onPlane = [&]() -> std::optional<MarchHit> {
    if (!(planeT < maxDistance)) return std::nullopt;
    MarchHit hit;
    hit.distance = planeT;
    hit.point = ray.at(planeT);
    hit.material = planeMaterial;
    return hit;
  };
  for (int i = 0; i < kMaxSteps; ++i) {
    if (t >= planeT && previousT + previousD >= planeT) return onPlane();
    const Vec3 p = ray.at(t);
    const field::FieldSample s = field.sample(p, time, !field.planes);
    if (!std::isfinite(s.distance)) return field.planes ? onPlane() : std::nullopt;
    if (omega > kStepScale && s.distance + previousD < t - previousT) {
      // The relaxed step left a gap the two spheres do not cover: back to the safe point.
      t = previousT + previousD * kStepScale;
      omega = kStepScale;
      continue;
    }
    if (s.distance < hitEpsilon(t)) {
      MarchHit hit;
      hit.distance = t;
      hit.point = p;
      hit.material = s.material;
      return hit;
    }
    previousT = t;
    previousD = s.distance;
    // Past the range only when even a safe step leaves it; a relaxed step is cut at the range's
    // end, where the overlap test still checks it.
    if (t + s.distance * kStepScale > maxDistance) return onPlane();
    t = std::min(t + s.distance * omega, maxDistance);
  }
  return std::nullopt;
}

}  // namespace

std::optional<MarchHit> marchRay(const field::UnionField& field, const Ray& ray, double time,
                                 float maxDistance) {
  return marchScene(Marched(field, time), ray, time, maxDistance);
}

Vec3 skyColor(Vec3 rd) {
  Vec3 sky = rd.y >= 0.0f ? glm::mix(kSkyHorizon, kSkyZenith, std::clamp(rd.y, 0.0f, 1.0f))
                          : glm::mix(kSkyHorizon, kSkyBelow, std::clamp(-4.0f * rd.y, 0.0f, 1.0f));
  const float sun = std::max(glm::dot(rd, kSunDirection), 0.0f);
  return sky + kSunColor * (kSunGlow * std::pow(sun, kSunGlowPower));
}

float ambientOcclusion(const field::UnionField& field, Vec3 p, Vec3 n, double time,
                       float eyeDistance) {
  return occlusionAt(Marched(field, time), p, n, time, eyeDistance);
}

namespace {
Vec3 shadeScene(const Marched& program, const Ray& ray, double time,
                const MaterialColors& materials, float& hitDistance) {
  const Vec3 sky = skyColor(ray.direction);
  Vec3 color = sky;
  hitDistance = std::numeric_limits<float>::infinity();
  if (auto hit = marchScene(program, ray, time, kMaxDistance)) {
    hitDistance = hit->distance;
    const Vec3 n = calcNormal(program, hit->point, time);
    const float diffuse = std::max(glm::dot(n, kSunDirection), 0.0f);
    const float shadow = diffuse > 0.0f ? softShadow(program, hit->point + n * kShadowBias,
                                                     kSunDirection, time, hit->distance)
                                        : 0.0f;
    const float ao = occlusionAt(program, hit->point, n, time, hit->distance);
    const float skyLight = kAmbientBase + (1.0f - kAmbientBase) * (0.5f + 0.5f * n.y);
    const Vec3 lit = kSunColor * (diffuse * shadow) + kSkyAmbient * (skyLight * ao);
    color = albedoOf(materials, hit->material) * lit;
    const float fog = 1.0f - std::exp(-kFogDensity * hit->distance * hit->distance);
    color = glm::mix(color, sky, fog);
  }
  const float g = 1.0f / kGamma;
  return {std::pow(std::max(color.x, 0.0f), g), std::pow(std::max(color.y, 0.0f), g),
          std::pow(std::max(color.z, 0.0f), g)};
}
}  // namespace

Vec3 shadeRay(const field::UnionField& program, const Ray& ray, double time,
              const MaterialColors& materials, float& hitDistance) {
  return shadeScene(Marched(program, time), ray, time, materials, hitDistance);
}

Expected<Image> renderImage(const field::UnionField& program, const Camera& camera,
                            const MaterialColors& materials, const RenderSettings& settings) {
  if (settings.width < 1 || settings.width > 16384)
    return Error{"width", "must be between 1 and 16384 pixels"};
  if (settings.height < 1 || settings.height > 16384)
    return Error{"height", "must be between 1 and 16384 pixels"};
  if (!std::isfinite(settings.time)) return Error{"time", "must be finite"};
  if (auto ok = camera.validate(); !ok) return ok.error();

  Image image;
  image.width = settings.width;
  image.height = settings.height;
  image.rgba.assign(std::size_t(image.width) * image.height * 4, 255);
  image.depth.assign(std::size_t(image.width) * image.height, 0.0f);

  // Rows are handed out one at a time through an atomic counter (the fractal rows cost far
  // more than the sky rows); each pixel is a pure function of its ray, so the image does not
  // depend on the thread count.
  const Marched scene(program, settings.time, settings.brickMaps);
  std::atomic<int> nextRow{0};
  auto work = [&] {
    for (int y = nextRow++; y < image.height; y = nextRow++) {
      for (int x = 0; x < image.width; ++x) {
        const Ray ray =
            camera.rayThroughPixel({float(x) + 0.5f, float(y) + 0.5f}, image.width, image.height);
        float depth = 0.0f;
        const Vec3 c = shadeScene(scene, ray, settings.time, materials, depth);
        std::uint8_t* px = &image.rgba[(std::size_t(y) * image.width + x) * 4];
        px[0] = toByte(c.x);
        px[1] = toByte(c.y);
        px[2] = toByte(c.z);
        image.depth[std::size_t(y) * image.width + x] = depth;
      }
    }
  };
  int threads = settings.threads > 0 ? settings.threads
                                     : int(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min(threads, image.height);
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // fewer workers; the calling thread still renders every remaining row
    }
  }
  work();
  for (auto& thread : pool) thread.join();
  return image;
}

}  // namespace floptle::render

namespace floptle::render {

namespace {
field::UnionField onePart(const field::FieldProgram& program, double time) {
  return *field::UnionField::build({program}, std::isfinite(time) ? time : 0.0);
}
}  // namespace

std::optional<MarchHit> marchRay(const field::FieldProgram& program, const Ray& ray, double time,
                                 float maxDistance) {
  return marchRay(onePart(program, time), ray, time, maxDistance);
}

Vec3 shadeRay(const field::FieldProgram& program, const Ray& ray, double time,
              const MaterialColors& materials, float& hitDistance) {
  return shadeRay(onePart(program, time), ray, time, materials, hitDistance);
}

Expected<Image> renderImage(const field::FieldProgram& program, const Camera& camera,
                            const MaterialColors& materials, const RenderSettings& settings) {
  return renderImage(onePart(program, settings.time), camera, materials, settings);
}

}  // namespace floptle::render
