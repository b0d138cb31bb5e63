// render::renderImage and marchRay against closed forms: a sphere's pixels are where the
// analytic ray-sphere intersection says, at the analytic depth.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "floptle/core/field/field_json.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/render/cpu_renderer.h"
#include "floptle/core/render/image.h"
#include "floptle/core/render/raymarch_glsl.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/render/shading_model.h"

using namespace floptle;

namespace {

field::FieldProgram compileShape(const char* json) {
  auto shape =
      field::parseShape(nlohmann::ordered_json::parse(json), "/shape",
                        [](const nlohmann::ordered_json& id) -> Expected<field::MaterialIndex> {
                          return field::MaterialIndex(id.get<int>());
                        });
  EXPECT_TRUE(shape.ok()) << (shape.ok() ? "" : shape.error().message());
  auto program = field::FieldProgram::compile(*shape);
  EXPECT_TRUE(program.ok()) << (program.ok() ? "" : program.error().message());
  return *program;
}

/// Distance along the unit ray to a sphere (centre c, radius r), or -1 when it misses by more
/// than `margin` (m); -2 when it is within the margin of the silhouette (ambiguous).
float sphereHit(const Ray& ray, Vec3 c, float r, float margin) {
  const Vec3 oc = ray.origin - c;
  const float b = glm::dot(oc, ray.direction);
  const float closest = glm::length(oc - b * ray.direction);  // ray's distance to the centre
  if (closest > r + margin) return -1.0f;
  if (closest > r - margin) return -2.0f;
  const float disc = b * b - (glm::dot(oc, oc) - r * r);
  return -b - std::sqrt(disc);
}

}  // namespace

TEST(RenderImage, SpherePixelsAreWhereProjectionSays) {
  const field::FieldProgram sphere = compileShape(
      R"({"type": "sphere", "radius": 1.0, "transform": {"position": [0.5, 0.25, 0]}})");
  render::Camera camera;
  camera.position = {0.0f, 1.0f, 6.0f};
  camera.lookAt = {0.0f, 0.0f, 0.0f};
  render::RenderSettings settings;
  settings.width = 96;
  settings.height = 64;
  auto image = render::renderImage(sphere, camera, {}, settings);
  ASSERT_TRUE(image.ok()) << image.error().message();
  ASSERT_EQ(image->width, 96);
  ASSERT_EQ(image->height, 64);
  const Vec3 centre{0.5f, 0.25f, 0.0f};
  int hits = 0, misses = 0;
  for (int y = 0; y < settings.height; ++y) {
    for (int x = 0; x < settings.width; ++x) {
      const Ray ray = camera.rayThroughPixel({x + 0.5f, y + 0.5f}, settings.width, settings.height);
      const float expected = sphereHit(ray, centre, 1.0f, 0.02f);
      const float depth = image->depth[std::size_t(y) * settings.width + x];
      if (expected == -2.0f) continue;
      if (expected < 0.0f) {
        EXPECT_TRUE(std::isinf(depth)) << "pixel " << x << "," << y << " should see sky";
        ++misses;
      } else {
        // The trace stops outside the surface, at a point whose distance to it (closed form
        // |p - c| - r) is below the hit epsilon at that depth; it never passes the surface.
        const Vec3 hit = ray.origin + ray.direction * depth;
        const float gap = glm::length(hit - centre) - 1.0f;
        const float epsilon =
            render::shading::kHitEpsilonBase + render::shading::kHitEpsilonPerMeter * depth;
        EXPECT_GE(gap, -1e-4f) << "pixel " << x << "," << y;
        EXPECT_LE(gap, epsilon + 1e-4f) << "pixel " << x << "," << y;
        EXPECT_LE(depth, expected + 1e-4f) << "pixel " << x << "," << y;
        ++hits;
      }
    }
  }
  EXPECT_GT(hits, 200);
  EXPECT_GT(misses, 2000);
  // The sphere's centre projects onto a sphere pixel, a corner of the image onto sky.
  Vec2 pixel;
  ASSERT_TRUE(camera.project(centre, settings.width, settings.height, pixel));
  EXPECT_TRUE(
      std::isfinite(image->depth[std::size_t(pixel.y) * settings.width + std::size_t(pixel.x)]));
  EXPECT_TRUE(std::isinf(image->depth[0]));
}

TEST(RenderImage, SkyPixelsHaveTheSkyColour) {
  const field::FieldProgram sphere = compileShape(R"({"type": "sphere", "radius": 0.1})");
  render::Camera camera;
  camera.position = {0.0f, 0.0f, 50.0f};
  render::RenderSettings settings;
  settings.width = 32;
  settings.height = 16;
  auto image = render::renderImage(sphere, camera, {}, settings);
  ASSERT_TRUE(image.ok());
  const Ray ray = camera.rayThroughPixel({0.5f, 0.5f}, 32, 16);
  const Vec3 sky = render::skyColor(ray.direction);
  for (int c = 0; c < 3; ++c) {
    const float expected = std::pow(sky[c], 1.0f / render::shading::kGamma) * 255.0f;
    EXPECT_NEAR(image->pixel(0, 0)[c], expected, 0.51f);
  }
  EXPECT_EQ(image->pixel(0, 0)[3], 255);
}

TEST(RenderImage, MaterialColourComesFromTheTable) {
  // A big red floor below the camera: the pixel straight down the view is lit red, so its
  // red channel dominates; with no table it is grey (equal channels up to the sky tint).
  const field::FieldProgram floor =
      compileShape(R"({"type": "plane", "normal": [0, 1, 0], "material": 1})");
  render::Camera camera;
  camera.position = {0.0f, 3.0f, 0.0f};
  camera.lookAt = {0.5f, 0.0f, 0.2f};
  render::RenderSettings settings;
  settings.width = 8;
  settings.height = 8;
  auto red = render::renderImage(floor, camera,
                                 {render::shading::kDefaultAlbedo, {0.9f, 0.05f, 0.05f}}, settings);
  ASSERT_TRUE(red.ok());
  const std::uint8_t* p = red->pixel(4, 4);
  EXPECT_GT(int(p[0]), int(p[1]) + 60);
  EXPECT_GT(int(p[0]), int(p[2]) + 60);
}

TEST(RenderImage, ThreadCountDoesNotChangeThePixels) {
  const field::FieldProgram scene = compileShape(
      R"({"type": "union", "children": [{"type": "plane", "normal": [0, 1, 0]},
          {"type": "sphere", "radius": 0.7, "transform": {"position": [0, 0.7, 0]}}]})");
  render::Camera camera;
  render::RenderSettings settings;
  settings.width = 40;
  settings.height = 24;
  settings.threads = 1;
  auto one = render::renderImage(scene, camera, {}, settings);
  settings.threads = 3;
  auto three = render::renderImage(scene, camera, {}, settings);
  ASSERT_TRUE(one.ok() && three.ok());
  EXPECT_EQ(one->rgba, three->rgba);
  auto diff = render::meanAbsoluteDifference(*one, *three);
  ASSERT_TRUE(diff.ok());
  EXPECT_EQ(*diff, 0.0);
}

TEST(RenderImage, MarchRayHitsAtTheAnalyticDistance) {
  const field::FieldProgram sphere =
      compileShape(R"({"type": "sphere", "radius": 1.0, "material": 3})");
  const Ray ray{{0.0f, 0.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
  auto hit = render::marchRay(sphere, ray, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->distance, 4.0f, 0.01f);
  EXPECT_EQ(hit->material, 3);
  EXPECT_FALSE(
      render::marchRay(sphere, {{0.0f, 3.0f, 5.0f}, {0.0f, 0.0f, -1.0f}}, 0.0).has_value());
  EXPECT_FALSE(render::marchRay(sphere, ray, 0.0, 3.5f).has_value());  // beyond maxDistance
}

// A ground plane is traced in closed form (render::tracedPlanes): a ray grazing it at half a
// degree from 1 m up meets it at 1 / sin(0.5 deg) = 114.6 m, where plain sphere tracing would
// need ~300 steps of (1 - sin 0.5 deg) each; a sphere before the plane still comes first.
TEST(RenderImage, AGrazingRayMeetsTheGroundPlaneWhereTheClosedFormSays) {
  auto field = field::UnionField::build(
      {compileShape(R"({"type": "plane", "normal": [0, 1, 0], "offset": 0, "material": 2})"),
       compileShape(R"({"type": "sphere", "radius": 1.0, "material": 3})")},
      0.0);
  ASSERT_TRUE(field.ok()) << field.error().message();
  auto planes = render::tracedPlanes(*field, 0.0);
  ASSERT_TRUE(planes.has_value());
  ASSERT_EQ(planes->size(), 1u);
  EXPECT_EQ((*planes)[0].material, 2);

  const float angle = 0.5f * 3.14159265f / 180.0f;
  const Ray grazing{{0.0f, 1.0f, 20.0f}, {0.0f, -std::sin(angle), std::cos(angle)}};
  auto hit = render::marchRay(*field, grazing, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->distance, 1.0f / std::sin(angle), 1e-3f);
  EXPECT_NEAR(hit->point.y, 0.0f, 1e-4f);
  EXPECT_EQ(hit->material, 2);

  // Towards the sphere (centre at the origin, radius 1): it is met 1 m before its centre.
  const Ray towards{{0.0f, 0.5f, 10.0f}, {0.0f, 0.0f, -1.0f}};
  hit = render::marchRay(*field, towards, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->distance, 10.0f - std::sqrt(1.0f - 0.25f), 0.01f);
  EXPECT_EQ(hit->material, 3);
}

// A part's box stands in for it only where the soft-shadow term of either is at least 1: ground
// points whose shadow ray passes the sphere far enough for no penumbra (kShadowSharpness d / t
// >= 1.3 everywhere along it, d the closed-form distance to the sphere) but within the halo its
// box would cast (box distance term <= 0.7 somewhere) are lit exactly as open ground is.
TEST(RenderImage, APartsBoxCastsNoSoftShadowOfItsOwn) {
  using namespace render::shading;
  const Vec3 centre(0.0f, 2.5f, 0.0f);
  const float radius = 1.0f;
  auto field = field::UnionField::build(
      {compileShape(R"({"type": "plane", "normal": [0, 1, 0], "offset": 0, "material": 2})"),
       compileShape(
           R"({"type": "sphere", "radius": 1.0, "transform": {"position": [0, 2.5, 0]}, "material": 3})")},
      0.0);
  ASSERT_TRUE(field.ok()) << field.error().message();
  const Aabb box = field->partBox(1);
  auto minimumTerm = [&](Vec3 p, bool ofBox) {
    float least = 1e30f;
    for (int i = 0; i <= 6000; ++i) {
      const float t = kShadowMinT + (kShadowMaxT - kShadowMinT) * float(i) / 6000.0f;
      const Vec3 q = p + kSunDirection * t;
      const float d = ofBox ? box.distance(q) : glm::length(q - centre) - radius;
      least = std::min(least, kShadowSharpness * d / t);
    }
    return least;
  };
  const render::MaterialColors materials{
      {0.5f, 0.5f, 0.5f}, {0.4f, 0.6f, 0.3f}, {0.8f, 0.2f, 0.2f}};
  auto groundColour = [&](Vec3 p) {
    float hitDistance = 0.0f;
    return render::shadeRay(*field, Ray{p + Vec3(0.0f, 0.5f, 0.0f), {0.0f, -1.0f, 0.0f}}, 0.0,
                            materials, hitDistance);
  };
  const Vec3 open = groundColour({60.0f, 0.0f, 60.0f});
  int checked = 0;
  for (float x = -8.0f; x <= 2.0f; x += 0.25f)
    for (float z = -8.0f; z <= 2.0f; z += 0.25f) {
      const Vec3 p(x, 0.0f, z);
      if (minimumTerm(p, false) < 1.3f || minimumTerm(p, true) > 0.7f) continue;
      ++checked;
      const Vec3 lit = groundColour(p);
      for (int c = 0; c < 3; ++c) ASSERT_NEAR(lit[c], open[c], 2e-3f) << x << " " << z;
    }
  EXPECT_GT(checked, 5) << "no ground point lies in the box's halo only";
}

TEST(RenderImage, ScenesWhoseUnboundedPartsAreNotAllPlanesAreMarchedWhole) {
  auto field = field::UnionField::build(
      {compileShape(R"({"type": "plane", "normal": [0, 1, 0], "offset": 0})"),
       compileShape(
           R"({"type": "repeat", "period": [4, 0, 4], "children": [{"type": "sphere", "radius": 0.5}]})")},
      0.0);
  ASSERT_TRUE(field.ok()) << field.error().message();
  EXPECT_FALSE(render::tracedPlanes(*field, 0.0).has_value());
}

TEST(RenderImage, BadSettingsAreRefused) {
  const field::FieldProgram sphere = compileShape(R"({"type": "sphere", "radius": 1.0})");
  render::RenderSettings settings;
  settings.width = 0;
  EXPECT_FALSE(render::renderImage(sphere, {}, {}, settings).ok());
  settings.width = 10;
  settings.height = 20000;
  EXPECT_FALSE(render::renderImage(sphere, {}, {}, settings).ok());
  render::Camera bad;
  bad.lookAt = bad.position;
  EXPECT_FALSE(render::renderImage(sphere, bad, {}, {}).ok());
}

TEST(RenderImage, PngRoundTripKeepsEveryByte) {
  const field::FieldProgram sphere = compileShape(R"({"type": "sphere", "radius": 1.0})");
  render::RenderSettings settings;
  settings.width = 21;
  settings.height = 13;
  auto image = render::renderImage(sphere, {}, {}, settings);
  ASSERT_TRUE(image.ok());
  const auto path = std::filesystem::temp_directory_path() / "floptle_render_png_roundtrip.png";
  ASSERT_TRUE(render::writePng(path.string(), *image).ok());
  auto back = render::readPng(path.string());
  ASSERT_TRUE(back.ok()) << back.error().message();
  EXPECT_EQ(back->width, 21);
  EXPECT_EQ(back->height, 13);
  EXPECT_EQ(back->rgba, image->rgba);
  std::filesystem::remove(path);
  EXPECT_FALSE(render::readPng(path.string()).ok());
  EXPECT_FALSE(render::writePng("/nonexistent-dir/x.png", *image).ok());
}

TEST(RenderGlsl, ShadersCarryTheFieldAndTheConstants) {
  const field::FieldProgram sphere = compileShape(R"({"type": "sphere", "radius": 1.25})");
  const std::string viewport = render::viewportFragmentShader(
      "vec2 map(vec3 p, float t) { return vec2(length(p) - FP(0), 0.0); }", 1);
  EXPECT_EQ(viewport.rfind("#version 330 core", 0), 0u);
  EXPECT_NE(
      viewport.find("const int kMaxSteps = " + std::to_string(render::shading::kMaxSteps) + ";"),
      std::string::npos);
  EXPECT_NE(viewport.find("gl_FragDepth"), std::string::npos);
  const std::string standalone = render::standaloneFragmentShader(sphere, {}, {}, 0.0);
  EXPECT_NE(standalone.find("1.25"), std::string::npos);  // the radius baked as a constant
  EXPECT_NE(standalone.find("uniform vec2 iResolution"), std::string::npos);
}

// Occlusion in closed form, and its budget by distance: on a floor 5 cm from a wall the taps
// at heights h_i = 0.01 + 0.06 i see min(h_i, 0.05), so the occlusion is
// sum_i (h_i - min(h_i, 0.05)) 0.85^i; it counts in full up to 30 m from the eye, half at 35 m
// and not at all from 40 m.
TEST(RenderImage, OcclusionNearAWallIsItsClosedFormAndFadesOutWithDistance) {
  const field::FieldProgram corner = compileShape(R"({"type": "union", "children": [
      {"type": "plane", "normal": [0, 1, 0], "offset": 0},
      {"type": "plane", "normal": [1, 0, 0], "offset": 0}]})");
  auto field = field::UnionField::build({corner}, 0.0);
  ASSERT_TRUE(field.ok()) << field.error().message();
  using namespace render::shading;
  const float wallGap = 0.05f;
  float occlusion = 0.0f, weight = 1.0f;
  for (int i = 0; i < kAoSamples; ++i) {
    const float h = kAoStart + kAoSpacing * float(i);
    occlusion += (h - std::min(h, wallGap)) * weight;
    weight *= kAoDecay;
  }
  ASSERT_GT(occlusion, 0.1f);  // the wall occludes in earnest
  const Vec3 floorPoint{wallGap, 0.0f, 3.0f}, up{0.0f, 1.0f, 0.0f};
  auto ao = [&](float eyeDistance) {
    return render::ambientOcclusion(*field, floorPoint, up, 0.0, eyeDistance);
  };
  EXPECT_NEAR(ao(10.0f), std::clamp(1.0f - kAoStrength * occlusion, 0.0f, 1.0f), 1e-5f);
  EXPECT_NEAR(ao(kAoFadeStart), ao(10.0f), 1e-6f);
  const float halfway = 0.5f * (kAoFadeStart + kAoFadeEnd);
  EXPECT_NEAR(ao(halfway), std::clamp(1.0f - 0.5f * kAoStrength * occlusion, 0.0f, 1.0f), 1e-5f);
  EXPECT_EQ(ao(kAoFadeEnd), 1.0f);
  EXPECT_EQ(ao(100.0f), 1.0f);
  // On the open floor, far from the wall, the taps see their own heights: no occlusion.
  EXPECT_NEAR(render::ambientOcclusion(*field, {5.0f, 0.0f, 3.0f}, up, 0.0, 10.0f), 1.0f, 1e-5f);
}
