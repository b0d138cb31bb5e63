// The viewport's emitted shader of tests/bench/gpu/reference_scene.json draws the same image as
// the hand-written tests/bench/gpu/reference.frag (gpu-shader-bench's plane, sphere and
// 8-iteration Mandelbulb), compared on Mesa llvmpipe in a real GL context. The two shade
// differently (reference.frag has its own sky, checker and no occlusion), so "the same image"
// is compared where it is defined: per pixel, which shape the primary ray hits (or sky) and at
// what distance. Each shader writes its primary ray's hit instead of its colour: the emitted
// one under FLOPTLE_OUTPUT_HIT (raymarch_glsl.cpp), reference.frag with its last line, the
// colour output, replaced by its hit variable. Skipped only without a GL 3.3 context (run
// under `xvfb-run -a`).
//
// Tolerance (the viewport-vs-CPU test's 98 %): at least 98 % of pixels see the same shape or
// both sky (reference.frag stops its rays at 20 m, so a ray that meets the ground only past
// that is sky there and counts as the same), and at least 98 % of the pixels where both hit the
// same shape agree on the distance within 1 % + 5 mm (the two stop marching at different epsilons:
// 5e-4 t against 2e-4 + 6e-4 t, which grazing rays stretch along the ray).
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QSurfaceFormat>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../../large_scene/large_scene.h"
#include "floptle/core/render/raymarch_glsl.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/render/scene_render.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/core/scene/scene_io.h"

using namespace floptle;

namespace {

void ensureApplication() {
  if (QCoreApplication::instance()) return;
  static int argc = 1;
  static char arg0[] = "floptle_editor_tests";
  static char* argv[] = {arg0, nullptr};
  // Never destroyed (see field_glsl_gl_test.cpp: Qt 3D's thread storage at exit).
  new QGuiApplication(argc, argv);
}

constexpr int kWidth = 192;
constexpr int kHeight = 108;
/// reference.frag's primary rays end at this distance (m).
constexpr float kReferenceFar = 20.0f;

std::string gpuBenchDir() {
  return std::string(FLOPTLE_SOURCE_DIR) + "/tests/bench/gpu/";
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Per pixel (row-major from the bottom row): the hit distance (m) and shape, -1 for sky.
struct HitImage {
  std::vector<float> distance, shape;
};

/// An RGBA float texture a shader reads as `uniform sampler2D NAME`.
struct Input {
  const char* name = "";
  const std::vector<float>* rgba = nullptr;
  int width = 0, height = 0;
};

/// A full-screen fragment shader (gpu-shader-bench's interface: vUv, iResolution, iTime,
/// fragColor) rendered into a float target.
class FragmentRenderer {
 public:
  bool init(std::string& why) {
    ensureApplication();
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    context_ = std::make_unique<QOpenGLContext>();
    context_->setFormat(format);
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

  /// The RGBA floats the shader writes into a width x height target (kWidth x kHeight by
  /// default) with iResolution set to kWidth x kHeight, or an empty vector with `log` set.
  std::vector<float> render(const std::string& fragment, std::string& log, int width = kWidth,
                            int height = kHeight, const std::vector<Input>& inputs = {}) {
    GLuint program = link(render::fullscreenVertexShader(), fragment, log);
    if (!program) return {};
    GLuint target = 0, fbo = 0, vao = 0;
    gl_->glUseProgram(program);
    const std::vector<GLuint> inputTextures = bindInputs(program, inputs);
    gl_->glActiveTexture(GL_TEXTURE0);
    gl_->glGenTextures(1, &target);
    gl_->glBindTexture(GL_TEXTURE_2D, target);
    gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl_->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, width, height, 0, GL_RGBA, GL_FLOAT, nullptr);
    gl_->glGenFramebuffers(1, &fbo);
    gl_->glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl_->glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
    gl_->glGenVertexArrays(1, &vao);
    gl_->glBindVertexArray(vao);
    gl_->glViewport(0, 0, width, height);
    gl_->glUseProgram(program);
    gl_->glUniform2f(gl_->glGetUniformLocation(program, "iResolution"), float(kWidth),
                     float(kHeight));
    gl_->glUniform1f(gl_->glGetUniformLocation(program, "iTime"), 0.0f);
    gl_->glDrawArrays(GL_TRIANGLES, 0, 3);
    std::vector<float> pixels(std::size_t(width) * height * 4);
    gl_->glReadPixels(0, 0, width, height, GL_RGBA, GL_FLOAT, pixels.data());
    if (!inputTextures.empty())
      gl_->glDeleteTextures(GLsizei(inputTextures.size()), inputTextures.data());
    gl_->glBindFramebuffer(GL_FRAMEBUFFER, context_->defaultFramebufferObject());
    gl_->glDeleteVertexArrays(1, &vao);
    gl_->glDeleteFramebuffers(1, &fbo);
    gl_->glDeleteTextures(1, &target);
    gl_->glDeleteProgram(program);
    return pixels;
  }

  bool supportsCompute() const { return context_->format().version() >= qMakePair(4, 3); }

  /// A compute twin (render::computeShaderOf of a standalone shader) dispatched over a width x
  /// height frame (iResolution) as the viewport runs it, `inputs` bound as samplers: the
  /// RGBA8 image it writes to u_colorOut as floats, or in the coarse pass (coarse true) the
  /// R32F image of u_coarseOut, a texel a tile, in .x of RGBA. Empty with `log` set on failure.
  std::vector<float> renderCompute(const std::string& compute, std::string& log, int width,
                                   int height, const std::vector<Input>& inputs, bool coarse) {
    GLuint program = linkCompute(compute, log);
    if (!program) return {};
    gl_->glUseProgram(program);
    const std::vector<GLuint> inputTextures = bindInputs(program, inputs);
    const int w = coarse ? render::coarseTiles(width) : width;
    const int h = coarse ? render::coarseTiles(height) : height;
    const GLenum format = coarse ? GL_R32F : GL_RGBA8;
    GLuint image = 0;
    gl_->glActiveTexture(GL_TEXTURE0);
    gl_->glGenTextures(1, &image);
    gl_->glBindTexture(GL_TEXTURE_2D, image);
    gl_->glTexStorage2D(GL_TEXTURE_2D, 1, format, w, h);
    gl_->glBindImageTexture(0, image, 0, GL_FALSE, 0, GL_WRITE_ONLY, format);
    gl_->glUniform1i(gl_->glGetUniformLocation(program, coarse ? "u_coarseOut" : "u_colorOut"), 0);
    gl_->glUniform2f(gl_->glGetUniformLocation(program, "iResolution"), float(width),
                     float(height));
    gl_->glUniform1f(gl_->glGetUniformLocation(program, "iTime"), 0.0f);
    const int g = render::kComputeGroup;
    gl_->glDispatchCompute(GLuint((w + g - 1) / g), GLuint((h + g - 1) / g), 1);
    gl_->glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    GLuint fbo = 0;
    gl_->glGenFramebuffers(1, &fbo);
    gl_->glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl_->glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, image, 0);
    std::vector<float> pixels(std::size_t(w) * h * 4);
    gl_->glReadPixels(0, 0, w, h, GL_RGBA, GL_FLOAT, pixels.data());
    gl_->glBindFramebuffer(GL_FRAMEBUFFER, context_->defaultFramebufferObject());
    gl_->glDeleteFramebuffers(1, &fbo);
    if (!inputTextures.empty())
      gl_->glDeleteTextures(GLsizei(inputTextures.size()), inputTextures.data());
    gl_->glDeleteTextures(1, &image);
    gl_->glDeleteProgram(program);
    return pixels;
  }

 private:
  /// `inputs` as RGBA32F textures on units 1.. of the program in use, each named by its sampler.
  std::vector<GLuint> bindInputs(GLuint program, const std::vector<Input>& inputs) {
    std::vector<GLuint> textures(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      gl_->glActiveTexture(GLenum(GL_TEXTURE1 + i));
      gl_->glGenTextures(1, &textures[i]);
      gl_->glBindTexture(GL_TEXTURE_2D, textures[i]);
      gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      gl_->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, inputs[i].width, inputs[i].height, 0, GL_RGBA,
                        GL_FLOAT, inputs[i].rgba->data());
      gl_->glUniform1i(gl_->glGetUniformLocation(program, inputs[i].name), GLint(1 + i));
    }
    return textures;
  }

  GLuint linkCompute(const std::string& source, std::string& log) {
    GLuint s = gl_->glCreateShader(GL_COMPUTE_SHADER);
    const char* text = source.c_str();
    gl_->glShaderSource(s, 1, &text, nullptr);
    gl_->glCompileShader(s);
    GLint ok = 0;
    gl_->glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    char buffer[8192] = "";
    if (!ok) {
      gl_->glGetShaderInfoLog(s, sizeof buffer, nullptr, buffer);
      log += buffer;
      gl_->glDeleteShader(s);
      return 0;
    }
    GLuint program = gl_->glCreateProgram();
    gl_->glAttachShader(program, s);
    gl_->glLinkProgram(program);
    gl_->glDeleteShader(s);
    gl_->glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
      gl_->glGetProgramInfoLog(program, sizeof buffer, nullptr, buffer);
      log += buffer;
      return 0;
    }
    return program;
  }

  GLuint link(const std::string& vertex, const std::string& fragment, std::string& log) {
    auto shader = [&](GLenum type, const std::string& source) -> GLuint {
      GLuint s = gl_->glCreateShader(type);
      const char* text = source.c_str();
      gl_->glShaderSource(s, 1, &text, nullptr);
      gl_->glCompileShader(s);
      GLint ok = 0;
      gl_->glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
      if (!ok) {
        char buffer[8192];
        gl_->glGetShaderInfoLog(s, sizeof buffer, nullptr, buffer);
        log += buffer;
        return 0;
      }
      return s;
    };
    GLuint v = shader(GL_VERTEX_SHADER, vertex), f = shader(GL_FRAGMENT_SHADER, fragment);
    if (!v || !f) return 0;
    GLuint program = gl_->glCreateProgram();
    gl_->glAttachShader(program, v);
    gl_->glAttachShader(program, f);
    gl_->glLinkProgram(program);
    gl_->glDeleteShader(v);
    gl_->glDeleteShader(f);
    GLint ok = 0;
    gl_->glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
      char buffer[8192];
      gl_->glGetProgramInfoLog(program, sizeof buffer, nullptr, buffer);
      log += buffer;
      return 0;
    }
    return program;
  }

  std::unique_ptr<QOpenGLContext> context_;
  std::unique_ptr<QOffscreenSurface> surface_;
  QOpenGLExtraFunctions* gl_ = nullptr;
};

/// A level of exact distances where rays graze many spheres: a ground plane and 400 spheres on
/// 45 x 45 m, seen low across it. Its standalone scene shader reads the scene from a texture,
/// as the viewport does (a constant array of its thousands of texels takes Mesa minutes to
/// compile).
struct GrazingLevel {
  render::SceneBuffers buffers;
  std::string shader;
};

bool grazingLevel(GrazingLevel& level, std::string& why) {
  test::LargeSceneSpec spec;
  spec.spheres = 400;
  spec.side = 45.0;
  auto built = scene::buildScene(test::largeScene(spec));
  if (!built) return why = built.error().message(), false;
  auto composed = scene::compileSceneUnion(*built, 0.0);
  if (!composed) return why = composed.error().message(), false;
  render::Camera camera;
  camera.position = Vec3(-30.0f, 4.0f, 25.0f);
  camera.lookAt = Vec3(0.0f, 1.0f, 0.0f);
  auto buffers = render::packSceneBuffers(composed->field, 0.0);
  if (!buffers) return why = buffers.error().message(), false;
  level.buffers = std::move(*buffers);
  level.shader =
      render::standaloneSceneShader(level.buffers, camera, render::materialColors(*built), false);
  return true;
}

HitImage hitsOf(const std::vector<float>& rgba, float shapeOffset) {
  HitImage image;
  for (std::size_t i = 0; i < rgba.size(); i += 4) {
    const bool hit = rgba[i] >= 0.0f;
    image.distance.push_back(hit ? rgba[i] : -1.0f);
    image.shape.push_back(hit ? std::round(rgba[i + 1]) + shapeOffset : -1.0f);
  }
  return image;
}

}  // namespace

TEST(ReferenceShaderImage, TheEmittedReferenceSceneSeesWhatTheHandWrittenShaderSees) {
  FragmentRenderer renderer;
  std::string why;
  if (!renderer.init(why)) GTEST_SKIP() << why;

  // reference.frag, its colour output replaced by its hit: (t, 0 plane | 1 sphere | 2 bulb),
  // hit = (-1, -1) when the ray sees sky.
  std::string reference = readText(gpuBenchDir() + "reference.frag");
  const std::string colourLine = "fragColor = vec4(pow(col, vec3(0.4545)), 1.0);";
  const std::size_t at = reference.find(colourLine);
  ASSERT_NE(at, std::string::npos) << "reference.frag's colour output line moved";
  reference.replace(at, colourLine.size(), "fragColor = vec4(hit.x, hit.y, 0.0, 1.0);");

  // The floptle scene of the same shapes through the viewport's scene program, as
  // `floptle render --shader-out` writes it.
  auto document = scene::loadSceneFile(gpuBenchDir() + "reference_scene.json");
  ASSERT_TRUE(document.ok()) << document.error().message();
  auto built = scene::buildScene(*document);
  ASSERT_TRUE(built.ok()) << built.error().message();
  auto composed = scene::compileSceneUnion(*built, 0.0);
  ASSERT_TRUE(composed.ok()) << composed.error().message();
  auto camera = render::namedCamera(*built, "reference");
  ASSERT_TRUE(camera.ok()) << camera.error().message();
  const std::string emitted =
      render::withDefine(render::standaloneFragmentShader(composed->field, *camera,
                                                          render::materialColors(*built), 0.0),
                         "FLOPTLE_OUTPUT_HIT");

  std::string log;
  const std::vector<float> referencePixels = renderer.render(reference, log);
  ASSERT_FALSE(referencePixels.empty()) << log;
  const std::vector<float> emittedPixels = renderer.render(emitted, log);
  ASSERT_FALSE(emittedPixels.empty()) << log;
  // reference.frag numbers its shapes from 0; the scene's materials are floor 1, red 2, blue 3.
  const HitImage expected = hitsOf(referencePixels, 0.0f);
  const HitImage actual = hitsOf(emittedPixels, -1.0f);

  int sameShape = 0, bothHit = 0, sameDistance = 0;
  int counts[4] = {0, 0, 0, 0};  // reference pixels per sky, plane, sphere, bulb
  int confusion[4][4] = {};
  for (std::size_t i = 0; i < expected.shape.size(); ++i) {
    counts[int(expected.shape[i]) + 1] += 1;
    confusion[int(expected.shape[i]) + 1][std::clamp(int(actual.shape[i]) + 1, 0, 3)] += 1;
    // reference.frag draws nothing past its far distance (its march stops at t > 20 m); the
    // viewport draws to kMaxDistance. A ray that meets a surface only past 20 m sees the same.
    const bool pastReferenceFar = expected.shape[i] < 0.0f && actual.distance[i] > kReferenceFar;
    if (expected.shape[i] != actual.shape[i] && !pastReferenceFar) continue;
    ++sameShape;
    if (expected.shape[i] < 0.0f) continue;
    ++bothHit;
    const float t = expected.distance[i];
    sameDistance += std::abs(actual.distance[i] - t) <= 0.01f * t + 0.005f;
  }
  const double pixels = double(kWidth * kHeight);
  std::printf(
      "reference scene vs reference.frag: %.2f %% same shape, %.2f %% of common hits "
      "at the same distance; reference pixels: sky %d plane %d sphere %d bulb %d\n",
      100.0 * sameShape / pixels, 100.0 * sameDistance / std::max(bothHit, 1), counts[0], counts[1],
      counts[2], counts[3]);
  std::printf("pixels by reference (rows) and emitted (columns) shape, sky plane sphere bulb:\n");
  for (auto& row : confusion) std::printf("  %6d %6d %6d %6d\n", row[0], row[1], row[2], row[3]);
  // The comparison can fail: the view holds every shape and the sky in earnest amounts.
  for (int c = 0; c < 4; ++c) EXPECT_GT(counts[c], int(pixels) / 50) << "class " << c - 1;
  EXPECT_GE(sameShape, 0.98 * pixels);
  EXPECT_GE(sameDistance, 0.98 * bothHit);
}

// The coarse pass (raymarch_glsl.cpp, FLOPTLE_COARSE_PASS) clears each 8 x 8 tile's cone of every
// part but the planes, and the full pass (FLOPTLE_COARSE_INPUT) starts the tile's primary rays
// there. On the grazing level (grazingLevel) every tile's start lies before every hit of its
// pixels in the one-pass image, the two passes see the same shapes at the same distances, and the
// start is far enough to save steps: over half the tiles start past 5 m.
TEST(ReferenceShaderImage, TheCoarsePassStartsEveryRayBeforeItsHitAndChangesNothing) {
  FragmentRenderer renderer;
  std::string why;
  if (!renderer.init(why)) GTEST_SKIP() << why;
  GrazingLevel level;
  ASSERT_TRUE(grazingLevel(level, why)) << why;
  const Input scene{"u_sceneData", &level.buffers.texels, render::kSceneDataWidth,
                    level.buffers.height};
  const std::string& shader = level.shader;
  const std::string hits = render::withDefine(shader, "FLOPTLE_OUTPUT_HIT");

  constexpr int kTile = render::kCoarseTile;
  const int tilesW = render::coarseTiles(kWidth), tilesH = render::coarseTiles(kHeight);
  std::string log;
  const std::vector<float> onePass = renderer.render(hits, log, kWidth, kHeight, {scene});
  ASSERT_FALSE(onePass.empty()) << log;
  const std::vector<float> tiles = renderer.render(
      render::withDefine(shader, render::kCoarsePassDefine), log, tilesW, tilesH, {scene});
  ASSERT_FALSE(tiles.empty()) << log;
  const std::vector<float> twoPass =
      renderer.render(render::withDefine(hits, render::kCoarseInputDefine), log, kWidth, kHeight,
                      {scene, {"u_coarse", &tiles, tilesW, tilesH}});
  ASSERT_FALSE(twoPass.empty()) << log;

  // Materials: ground 1, stone 2 (the spheres). The coarse pass leaves the ground plane out,
  // so only sphere hits must lie past their tile's start.
  constexpr float kStone = 2.0f;
  const HitImage one = hitsOf(onePass, 0.0f), two = hitsOf(twoPass, 0.0f);
  std::vector<float> nearestStone(std::size_t(tilesW) * tilesH, 1e30f);
  int stoneHits = 0, startsBeforeHit = 0, same = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const std::size_t i = std::size_t(y) * kWidth + x,
                        tile = std::size_t(y / kTile) * tilesW + x / kTile;
      const bool bothSky = one.shape[i] < 0.0f && two.shape[i] < 0.0f;
      same += bothSky ||
              (one.shape[i] == two.shape[i] &&
               std::abs(one.distance[i] - two.distance[i]) <= 0.01f * one.distance[i] + 0.005f);
      if (one.shape[i] != kStone) continue;
      ++stoneHits;
      startsBeforeHit += tiles[4 * tile] <= one.distance[i];
      nearestStone[tile] = std::min(nearestStone[tile], one.distance[i]);
    }
  // Tiles that see a sphere, and those whose start is past half the way to the nearest.
  int stoneTiles = 0, farTiles = 0;
  for (std::size_t t = 0; t < nearestStone.size(); ++t) {
    if (nearestStone[t] > 1e29f) continue;
    ++stoneTiles;
    farTiles += tiles[4 * t] > 0.5f * nearestStone[t];
  }
  std::printf(
      "coarse pass: %d of %d sphere hits past their tile's start, %d of %d pixels the "
      "same, %d of %d tiles seeing a sphere start past half the way to it\n",
      startsBeforeHit, stoneHits, same, kWidth * kHeight, farTiles, stoneTiles);
  ASSERT_GT(stoneHits, kWidth * kHeight / 10);
  EXPECT_EQ(startsBeforeHit, stoneHits);
  EXPECT_GE(same, 0.995 * kWidth * kHeight);
  EXPECT_GT(farTiles, stoneTiles / 2);
}

// The compute twin (render::computeShaderOf), which is how the viewport draws where the context
// has GL 4.3, draws the fragment shader's pixels: the grazing level in two passes, its
// coarse pass's tile starts equal and its colours within one step of 8 bits (the fragment
// colour is read from a float target here, the compute one from the viewport's RGBA8 image).
TEST(ReferenceShaderImage, TheComputeTwinDrawsTheFragmentShadersPixels) {
  FragmentRenderer renderer;
  std::string why;
  if (!renderer.init(why)) GTEST_SKIP() << why;
  if (!renderer.supportsCompute()) GTEST_SKIP() << "no OpenGL 4.3 compute shaders";
  GrazingLevel level;
  ASSERT_TRUE(grazingLevel(level, why)) << why;
  const Input scene{"u_sceneData", &level.buffers.texels, render::kSceneDataWidth,
                    level.buffers.height};
  const std::string& shader = level.shader;
  ASSERT_TRUE(render::computeShaderOf("#version 330 core\nvoid main() {}\n").empty())
      << "a shader not made by raymarch_glsl.cpp has no twin";

  const int tilesW = render::coarseTiles(kWidth), tilesH = render::coarseTiles(kHeight);
  std::string log;
  const std::string coarsePass = render::withDefine(shader, render::kCoarsePassDefine);
  const std::vector<float> tiles = renderer.render(coarsePass, log, tilesW, tilesH, {scene});
  ASSERT_FALSE(tiles.empty()) << log;
  const std::vector<float> computeTiles = renderer.renderCompute(
      render::computeShaderOf(coarsePass), log, kWidth, kHeight, {scene}, true);
  ASSERT_FALSE(computeTiles.empty()) << log;
  int sameStart = 0, farStarts = 0;
  for (int t = 0; t < tilesW * tilesH; ++t) {
    sameStart += std::abs(tiles[4 * t] - computeTiles[4 * t]) <= 1e-4f * tiles[4 * t] + 1e-5f;
    farStarts += tiles[4 * t] > 5.0f;
  }
  EXPECT_EQ(sameStart, tilesW * tilesH);
  EXPECT_GT(farStarts, tilesW * tilesH / 8) << "the coarse pass did work worth comparing";

  const std::string fullPass = render::withDefine(shader, render::kCoarseInputDefine);
  const Input starts{"u_coarse", &tiles, tilesW, tilesH};
  const std::vector<float> fragment =
      renderer.render(fullPass, log, kWidth, kHeight, {scene, starts});
  ASSERT_FALSE(fragment.empty()) << log;
  const std::vector<float> compute = renderer.renderCompute(
      render::computeShaderOf(fullPass), log, kWidth, kHeight, {scene, starts}, false);
  ASSERT_FALSE(compute.empty()) << log;
  ASSERT_EQ(compute.size(), fragment.size());
  int samePixels = 0;
  double brightness = 0.0;
  for (std::size_t i = 0; i < fragment.size(); i += 4) {
    bool same = true;
    for (std::size_t c = 0; c < 3; ++c) {
      const float expected = std::round(std::clamp(fragment[i + c], 0.0f, 1.0f) * 255.0f);
      same = same && std::abs(compute[i + c] * 255.0f - expected) <= 1.01f;
      brightness += fragment[i + c];
    }
    samePixels += same;
  }
  std::printf("compute twin: %d of %d tile starts, %d of %d pixels the same\n", sameStart,
              tilesW * tilesH, samePixels, kWidth * kHeight);
  EXPECT_GT(brightness / (3.0 * kWidth * kHeight), 0.1) << "the image is not black";
  EXPECT_EQ(samePixels, kWidth * kHeight);
}
