// The viewport program draws brick maps from the atlas (render/brick_atlas.h): a sphere baked
// at 5 cm into a BrickMap, uploaded as the R16_SNORM atlas and the RGBA32F index, drawn by
// viewportFragmentShader(buffers, true) in a real GL 3.3 context (llvmpipe under xvfb-run) over
// a ground plane from the scene data. The image matches the CPU renderer given the same atlas
// (RenderSettings::brickMaps), and the depth at the centre pixel is the analytic ray-sphere
// distance within a bake cell. Skipped only when no GL 3.3 context can be created.
#include <gtest/gtest.h>

#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QSurfaceFormat>
#include <QTest>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../../gui/viewport_test_support.h"
#include "floptle/core/brickmap/brick_map_vdb.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/render/brick_atlas.h"
#include "floptle/core/render/cpu_renderer.h"
#include "floptle/core/render/raymarch_glsl.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/render/shading_model.h"
#include "floptle/core/scene/scene.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/physics/baked_field_file.h"
#include "viewport/baked_field_maps.h"

#ifndef GL_R16_SNORM
#define GL_R16_SNORM 0x8F98
#endif

namespace floptle {
namespace {

constexpr int kW = 129, kH = 97;  // odd: the centre pixel's ray is the camera's axis
constexpr float kRadius = 0.5f, kCell = 0.05f;
constexpr float kEyeDistance = 3.0f;  // camera on +z looking at the sphere's centre (m)

const render::MaterialColors kMaterials{
    {0.72f, 0.72f, 0.72f}, {0.35f, 0.55f, 0.30f}, {0.85f, 0.25f, 0.20f}};

BrickMap bakeSphere() {
  BrickMapSettings s;
  s.bounds = Aabb::fromCenterHalf(Vec3(0.0f), Vec3(kRadius));
  s.cellSize = kCell;
  auto map = BrickMap::bake(s, [](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) out[i] = glm::length(points[i]) - kRadius;
  });
  EXPECT_TRUE(map.ok());
  return std::move(map).value();
}

struct GpuImage {
  render::Image image;     ///< top row first, like the CPU renderer's
  std::vector<float> hit;  ///< distance along the ray (m), < 0 for sky
};

/// Draws the viewport program over buffers and atlas in an offscreen GL 3.3 context.
class GlViewport {
 public:
  bool init(std::string& why) {
    viewport_testing::ensureApplication();
    QSurfaceFormat fmt;
    fmt.setVersion(3, 3);
    fmt.setProfile(QSurfaceFormat::CoreProfile);
    context_ = std::make_unique<QOpenGLContext>();
    context_->setFormat(fmt);
    if (!context_->create()) return why = "no OpenGL context", false;
    if (context_->format().version() < qMakePair(3, 3)) return why = "OpenGL below 3.3", false;
    surface_ = std::make_unique<QOffscreenSurface>();
    surface_->setFormat(context_->format());
    surface_->create();
    if (!surface_->isValid() || !context_->makeCurrent(surface_.get()))
      return why = "cannot make the context current", false;
    gl_ = context_->extraFunctions();
    return true;
  }

  bool render(const render::SceneBuffers& buffers, const render::BrickAtlas& atlas,
              const render::Camera& camera, GpuImage& out, std::string& log) {
    GLuint program =
        link(render::fullscreenVertexShader(), render::viewportFragmentShader(buffers, true), log);
    if (!program) return false;
    GLuint textures[4], fbo, depth, vao;
    gl_->glGenTextures(4, textures);
    // The atlas: every slot (a viewport sends dirtySlots() with glTexSubImage3D).
    const glm::ivec3 n = atlas.atlasTexels();
    std::vector<std::int16_t> texels(std::size_t(n.x) * n.y * n.z, 0);
    for (int slot = 0; slot < atlas.slotCount(); ++slot) {
      const glm::ivec3 o = atlas.slotOrigin(slot);
      const auto samples = atlas.slotSamples(slot);
      for (int k = 0, i = 0; k < 9; ++k)
        for (int j = 0; j < 9; ++j)
          for (int x = 0; x < 9; ++x, ++i)
            texels[std::size_t(o.x + x) +
                   std::size_t(n.x) * (o.y + j + std::size_t(n.y) * (o.z + k))] =
                samples[std::size_t(i)];
    }
    gl_->glActiveTexture(GL_TEXTURE1);
    gl_->glBindTexture(GL_TEXTURE_3D, textures[0]);
    gl_->glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    gl_->glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl_->glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl_->glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    gl_->glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    gl_->glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
    gl_->glTexImage3D(GL_TEXTURE_3D, 0, GL_R16_SNORM, n.x, n.y, n.z, 0, GL_RED, GL_SHORT,
                      texels.data());
    gl_->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    gl_->glActiveTexture(GL_TEXTURE2);
    gl_->glBindTexture(GL_TEXTURE_2D, textures[1]);
    gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl_->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, render::BrickAtlas::kIndexWidth,
                      atlas.indexRows(), 0, GL_RGBA, GL_FLOAT, atlas.indexTexels().data());
    gl_->glUseProgram(program);
    auto at = [&](const char* name) { return gl_->glGetUniformLocation(program, name); };
    gl_->glUniform1i(at("u_brickAtlas"), 1);
    gl_->glUniform1i(at("u_brickIndex"), 2);
    if (buffers.uniformData) {
      gl_->glUniform4fv(at("u_sceneData"), buffers.usedTexels, buffers.texels.data());
    } else {
      gl_->glActiveTexture(GL_TEXTURE3);
      gl_->glBindTexture(GL_TEXTURE_2D, textures[2]);
      gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      gl_->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, render::kSceneDataWidth, buffers.height, 0,
                        GL_RGBA, GL_FLOAT, buffers.texels.data());
      gl_->glUniform1i(at("u_sceneData"), 3);
    }
    const render::CameraBasis basis = camera.basis();
    gl_->glUniform3f(at("u_camPos"), camera.position.x, camera.position.y, camera.position.z);
    gl_->glUniform3f(at("u_camRight"), basis.right.x, basis.right.y, basis.right.z);
    gl_->glUniform3f(at("u_camUp"), basis.up.x, basis.up.y, basis.up.z);
    gl_->glUniform3f(at("u_camForward"), basis.forward.x, basis.forward.y, basis.forward.z);
    gl_->glUniform1f(at("u_tanHalfFovY"), camera.tanHalfFovY());
    gl_->glUniform1f(at("u_aspect"), float(kW) / float(kH));
    gl_->glUniform1f(at("u_time"), 0.0f);
    std::vector<float> colors(3 * render::shading::kMaxMaterials, 0.0f);
    for (std::size_t i = 0; i < kMaterials.size(); ++i)
      for (int c = 0; c < 3; ++c) colors[3 * i + std::size_t(c)] = kMaterials[i][c];
    gl_->glUniform3fv(at("u_materials"), render::shading::kMaxMaterials, colors.data());
    gl_->glUniform1i(at("u_materialCount"), int(kMaterials.size()));

    gl_->glActiveTexture(GL_TEXTURE0);
    gl_->glBindTexture(GL_TEXTURE_2D, textures[3]);
    gl_->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kW, kH, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    gl_->glGenRenderbuffers(1, &depth);
    gl_->glBindRenderbuffer(GL_RENDERBUFFER, depth);
    gl_->glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, kW, kH);
    gl_->glGenFramebuffers(1, &fbo);
    gl_->glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl_->glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, textures[3],
                                0);
    gl_->glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
    gl_->glEnable(GL_DEPTH_TEST);
    gl_->glDepthFunc(GL_ALWAYS);
    gl_->glGenVertexArrays(1, &vao);
    gl_->glBindVertexArray(vao);
    gl_->glViewport(0, 0, kW, kH);
    gl_->glDrawArrays(GL_TRIANGLES, 0, 3);
    std::vector<std::uint8_t> rgba(std::size_t(kW) * kH * 4);
    std::vector<float> z(std::size_t(kW) * kH);
    gl_->glReadPixels(0, 0, kW, kH, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    gl_->glReadPixels(0, 0, kW, kH, GL_DEPTH_COMPONENT, GL_FLOAT, z.data());
    const bool ok = gl_->glGetError() == GL_NO_ERROR;
    gl_->glBindFramebuffer(GL_FRAMEBUFFER, context_->defaultFramebufferObject());
    gl_->glDeleteFramebuffers(1, &fbo);
    gl_->glDeleteRenderbuffers(1, &depth);
    gl_->glDeleteTextures(4, textures);
    gl_->glDeleteVertexArrays(1, &vao);
    gl_->glDeleteProgram(program);
    if (!ok) return log = "a GL call failed", false;

    // Rows bottom-up -> top-down; window depth -> eye z -> distance along the ray.
    out.image.width = kW;
    out.image.height = kH;
    out.image.rgba.resize(rgba.size());
    out.hit.assign(std::size_t(kW) * kH, -1.0f);
    const float nearZ = render::shading::kDepthNear, farZ = render::shading::kDepthFar;
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) {
        const std::size_t from = std::size_t(kH - 1 - y) * kW + x, to = std::size_t(y) * kW + x;
        for (int c = 0; c < 4; ++c) out.image.rgba[4 * to + c] = rgba[4 * from + c];
        const float d = z[from];
        if (d >= 1.0f) continue;
        const float ndc = 2.0f * d - 1.0f;
        const float eyeZ = 2.0f * farZ * nearZ / ((farZ + nearZ) - ndc * (farZ - nearZ));
        const Ray ray = camera.rayThroughPixel({float(x) + 0.5f, float(y) + 0.5f}, kW, kH);
        out.hit[to] = eyeZ / glm::dot(ray.direction, basis.forward);
      }
    return true;
  }

  ~GlViewport() {
    if (context_) context_->doneCurrent();
  }

 private:
  GLuint link(const std::string& vs, const std::string& fs, std::string& log) {
    auto shader = [&](GLenum type, const std::string& src) -> GLuint {
      GLuint s = gl_->glCreateShader(type);
      const char* text = src.c_str();
      gl_->glShaderSource(s, 1, &text, nullptr);
      gl_->glCompileShader(s);
      GLint ok = 0;
      gl_->glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
      if (!ok) {
        char buf[4096];
        gl_->glGetShaderInfoLog(s, sizeof buf, nullptr, buf);
        log += buf;
      }
      return s;
    };
    GLuint v = shader(GL_VERTEX_SHADER, vs), f = shader(GL_FRAGMENT_SHADER, fs);
    GLuint p = gl_->glCreateProgram();
    gl_->glAttachShader(p, v);
    gl_->glAttachShader(p, f);
    gl_->glLinkProgram(p);
    gl_->glDeleteShader(v);
    gl_->glDeleteShader(f);
    GLint ok = 0;
    gl_->glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
      char buf[4096];
      gl_->glGetProgramInfoLog(p, sizeof buf, nullptr, buf);
      log += buf;
      gl_->glDeleteProgram(p);
      return 0;
    }
    return p;
  }

  std::unique_ptr<QOpenGLContext> context_;
  std::unique_ptr<QOffscreenSurface> surface_;
  QOpenGLExtraFunctions* gl_ = nullptr;
};

/// Mean |difference| per channel and the fraction of pixels within 8 levels on every channel.
std::pair<double, double> compare(const render::Image& gpu, const render::Image& cpu) {
  auto mean = render::meanAbsoluteDifference(gpu, cpu);
  EXPECT_TRUE(mean.ok());
  int close = 0;
  for (std::size_t i = 0; i < gpu.rgba.size(); i += 4) {
    bool near = true;
    for (int c = 0; c < 3; ++c)
      near = near && std::abs(int(gpu.rgba[i + c]) - int(cpu.rgba[i + c])) <= 8;
    close += near;
  }
  return {mean.ok() ? *mean : 255.0, double(close) / double(gpu.width * gpu.height)};
}

Expected<field::UnionField> groundField() {
  auto ground = viewport_testing::compileShapeJson(
      R"({"type": "plane", "normal": [0, 1, 0], "material": 1, "transform": {"position": [0, -0.5, 0]}})");
  if (!ground) return ground.error();
  return field::UnionField::build({*ground}, 0.0);
}

render::Camera sphereCamera() {
  render::Camera camera;
  camera.position = {0.0f, 0.0f, kEyeDistance};
  camera.lookAt = {0.0f, 0.0f, 0.0f};
  camera.fovYDegrees = 50.0f;
  return camera;
}

TEST(BrickAtlasGl, BakedSphereDrawnFromTheAtlasMatchesCpuAndAnalyticDepth) {
  GlViewport gl;
  std::string why;
  if (!gl.init(why)) GTEST_SKIP() << why;

  // The scene data holds a ground plane under the sphere (material 1); the sphere is a map.
  auto field = groundField();
  ASSERT_TRUE(field.ok()) << field.error().message();
  auto buffers = render::packSceneBuffers(*field, 0.0);
  ASSERT_TRUE(buffers.ok()) << buffers.error().message();

  const BrickMap map = bakeSphere();
  render::BrickAtlas atlas;
  render::BrickMapPlacement placement;
  placement.material = 2;
  ASSERT_TRUE(atlas.addMap(map, placement).ok());

  const render::Camera camera = sphereCamera();

  GpuImage gpu;
  std::string log;
  ASSERT_TRUE(gl.render(*buffers, atlas, camera, gpu, log)) << log;

  render::RenderSettings settings;
  settings.width = kW;
  settings.height = kH;
  settings.brickMaps = &atlas;
  auto cpu = render::renderImage(*field, camera, kMaterials, settings);
  ASSERT_TRUE(cpu.ok()) << cpu.error().message();

  // Centre pixel: the ray along -z meets the sphere at kEyeDistance - kRadius.
  const std::size_t centre = std::size_t(kH / 2) * kW + kW / 2;
  EXPECT_NEAR(gpu.hit[centre], kEyeDistance - kRadius, kCell);
  EXPECT_NEAR(cpu->depth[centre], kEyeDistance - kRadius, kCell);
  // The sphere's colour there (material 2 is red), on both.
  EXPECT_GT(int(gpu.image.rgba[4 * centre]), int(gpu.image.rgba[4 * centre + 1]) + 40);
  EXPECT_GT(int(cpu->rgba[4 * centre]), int(cpu->rgba[4 * centre + 1]) + 40);

  // Same tolerance as the viewport-vs-CPU test (tests/gui/viewport_render_test.cpp).
  const auto [mean, closeFraction] = compare(gpu.image, *cpu);
  std::printf("brick atlas GL vs CPU: mean |diff| %.4f / 255, %.2f %% of pixels within 8\n", mean,
              100.0 * closeFraction);
  EXPECT_LE(mean, 1.5);
  EXPECT_GE(closeFraction, 0.98);
}

// The editor's viewport (Qt 3D): the same sphere handed over with addBrickMap is drawn like
// the CPU render of its atlas, and re-sampling one top cell sends exactly that brick.
TEST(BrickAtlasGl, ViewportDrawsBrickMapAndSendsOnlyChangedBricks) {
  viewport_testing::ensureApplication();
  auto field = groundField();
  ASSERT_TRUE(field.ok()) << field.error().message();
  editor::RaymarchView view;
  view.setOverlaysVisible(false);
  view.setAdaptiveResolution(false);
  view.setFixedSize(kW, kH);
  view.setMaterialColors(kMaterials);
  view.setCamera(sphereCamera());
  view.setSceneField(*field);
  BrickMap map = bakeSphere();
  render::BrickMapPlacement placement;
  placement.material = 2;
  auto id = view.addBrickMap(map, placement, "sphere");
  ASSERT_TRUE(id.ok()) << id.error().message();
  EXPECT_EQ(view.brickUploads(), std::uint64_t(map.brickCount()));
  view.show();
  if (!QTest::qWaitForWindowExposed(&view)) GTEST_SKIP() << "no exposed window";
  ASSERT_TRUE(QTest::qWaitFor([&] { return view.frameCount() > 0; }, 20000));
  ASSERT_TRUE(view.hasShader()) << view.lastShaderError().toStdString();
  const QImage captured = view.captureImage().convertToFormat(QImage::Format_RGBA8888);
  ASSERT_EQ(captured.width(), kW);
  render::Image gpu;
  gpu.width = captured.width();
  gpu.height = captured.height();
  for (int y = 0; y < captured.height(); ++y)
    gpu.rgba.insert(gpu.rgba.end(), captured.constScanLine(y), captured.constScanLine(y) + kW * 4);

  render::RenderSettings settings;
  settings.width = kW;
  settings.height = kH;
  settings.brickMaps = view.brickAtlas();
  auto cpu = render::renderImage(*field, sphereCamera(), kMaterials, settings);
  ASSERT_TRUE(cpu.ok()) << cpu.error().message();
  const auto [mean, closeFraction] = compare(gpu, *cpu);
  std::printf("brick atlas viewport vs CPU: mean |diff| %.4f / 255, %.2f %% of pixels within 8\n",
              mean, 100.0 * closeFraction);
  EXPECT_LE(mean, 1.5);
  EXPECT_GE(closeFraction, 0.98);

  // One top cell re-sampled (a slightly larger sphere): one brick sent.
  const Vec3 at(kRadius, 0.05f, 0.05f);
  auto grown = [](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i)
      out[i] = glm::length(points[i]) - (kRadius + 0.01f);
  };
  ASSERT_EQ(map.rebakeNearest(grown, std::span(&at, 1), 1, 0.1f), 1);
  const std::uint64_t before = view.brickUploads();
  ASSERT_TRUE(view.updateBrickMap(*id, map, render::cellsSampledInLastRound(map)).ok());
  EXPECT_EQ(view.brickUploads(), before + 1);
  const std::uint64_t frames = view.frameCount();
  ASSERT_TRUE(QTest::qWaitFor([&] { return view.frameCount() > frames; }, 20000));
}

// A `baked_field` node is drawn from the bricks physics collides with: the atlas's distance
// equals the physics collider's (makeBakedFieldFileCollider) near the surface, the image shows
// it where the node is placed (depth on the analytic sphere), and moving the node moves its
// placement without sending a brick.
TEST(BrickAtlasGl, BakedFieldNodeIsDrawnFromTheBricksItCollidesWith) {
  namespace fs = std::filesystem;
  viewport_testing::ensureApplication();
  const fs::path dir = fs::temp_directory_path() / "floptle_brick_atlas_gl_test";
  fs::create_directories(dir);
  ASSERT_TRUE(writeBrickMapVdb(bakeSphere(), dir / "ball.vdb").ok());
  auto document = [](double z) {
    return nlohmann::ordered_json{{"format", "floptle.scene"},
                                  {"version", 1},
                                  {"materials", nlohmann::ordered_json::array()},
                                  {"interactions", nlohmann::ordered_json::array()},
                                  {"nodes",
                                   {{{"name", "rock"},
                                     {"transform", {{"position", {0.0, 0.0, z}}}},
                                     {"baked_field", {{"file", "ball.vdb"}}},
                                     {"collider", {{"body", "static"}, {"collidable", true}}}}}}};
  };
  auto scene = scene::buildScene(document(0.2));
  ASSERT_TRUE(scene.ok()) << scene.error().message();
  const scene::SceneNode& rock = scene->nodes[std::size_t(scene->findNode("rock"))];

  auto field = groundField();
  ASSERT_TRUE(field.ok()) << field.error().message();
  editor::RaymarchView view;
  view.setOverlaysVisible(false);
  view.setAdaptiveResolution(false);
  view.setFixedSize(kW, kH);
  view.setMaterialColors(kMaterials);
  view.setCamera(sphereCamera());
  view.setSceneField(*field);
  editor::BakedFieldMaps maps;
  const std::vector<std::string> problems = maps.sync(view, *scene, dir);
  ASSERT_TRUE(problems.empty()) << problems.front();
  ASSERT_NE(view.brickAtlas(), nullptr);

  // Drawn = collides: the atlas against the physics collider of the same node.
  auto collider =
      physics::makeBakedFieldFileCollider(rock.components["baked_field"], dir, rock.world);
  ASSERT_TRUE(collider.ok()) << collider.error().message();
  std::mt19937 rng(3);
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  std::uniform_real_distribution<float> shell(kRadius - 0.05f, kRadius + 0.05f);
  for (int i = 0; i < 500; ++i) {
    const Vec3 p =
        rock.world.position + glm::normalize(Vec3(gauss(rng), gauss(rng), gauss(rng))) * shell(rng);
    EXPECT_NEAR(view.brickAtlas()->distance(p).x, (*collider)->distance(p, 0.0), 1e-3f)
        << "at " << p.x << ", " << p.y << ", " << p.z;
  }

  view.show();
  if (!QTest::qWaitForWindowExposed(&view)) GTEST_SKIP() << "no exposed window";
  ASSERT_TRUE(QTest::qWaitFor([&] { return view.frameCount() > 0; }, 20000));
  ASSERT_TRUE(view.hasShader()) << view.lastShaderError().toStdString();
  // The centre ray meets the sphere moved 0.2 m towards the camera.
  render::RenderSettings settings;
  settings.width = kW;
  settings.height = kH;
  settings.brickMaps = view.brickAtlas();
  auto cpu = render::renderImage(*field, sphereCamera(), kMaterials, settings);
  ASSERT_TRUE(cpu.ok());
  EXPECT_NEAR(cpu->depth[std::size_t(kH / 2) * kW + kW / 2], kEyeDistance - 0.2f - kRadius, kCell);
  const QImage captured = view.captureImage().convertToFormat(QImage::Format_RGBA8888);
  render::Image gpu;
  gpu.width = captured.width();
  gpu.height = captured.height();
  for (int y = 0; y < captured.height(); ++y)
    gpu.rgba.insert(gpu.rgba.end(), captured.constScanLine(y), captured.constScanLine(y) + kW * 4);
  const auto [mean, closeFraction] = compare(gpu, *cpu);
  std::printf("baked_field viewport vs CPU: mean |diff| %.4f / 255, %.2f %% within 8\n", mean,
              100.0 * closeFraction);
  EXPECT_LE(mean, 1.5);
  EXPECT_GE(closeFraction, 0.98);

  // The node moves: its placement follows, no brick is sent again.
  const std::uint64_t sent = view.brickUploads();
  auto moved = scene::buildScene(document(-0.3));
  ASSERT_TRUE(moved.ok());
  ASSERT_TRUE(maps.sync(view, *moved, dir).empty());
  EXPECT_EQ(view.brickUploads(), sent);
  EXPECT_NEAR(view.brickAtlas()->distance(Vec3(0.0f, 0.0f, -0.3f + kRadius)).x, 0.0f, 1e-3f);
}

}  // namespace
}  // namespace floptle
