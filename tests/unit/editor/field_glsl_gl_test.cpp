// The emitted GLSL and the CPU program agree: the map function of a graph with every node
// type is compiled in a real GL context, evaluated at thousands of points (one fragment per
// point, points from a float texture, results to a float framebuffer) and compared with
// FieldProgram::sample. Skipped only when no GL 3.3 context can be created (run under
// `xvfb-run -a`; Mesa llvmpipe is fine).
//
// Tolerance: |gpu - cpu| <= 1e-3 m + 1e-4 * |cpu| for the analytic shapes at every point.
// The fractals iterate chaotic maps (8 Mandelbulb iterations raise rounding differences of
// the GPU's sin/acos/pow to the 8th power each step), so for them 97% of the points must meet
// the same tolerance and every point must agree on the sign where |cpu| > 0.05 m.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QSurfaceFormat>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../core/field_test_util.h"
#include "floptle/core/field/field_glsl.h"

using namespace floptle;
using namespace floptle::field;
using namespace floptle::field::test;

namespace {

void ensureApplication() {
  if (QCoreApplication::instance()) return;
  static int argc = 1;
  static char arg0[] = "floptle_editor_tests";
  static char* argv[] = {arg0, nullptr};
  // Never destroyed: a static QGuiApplication torn down by exit() crashes in Qt's thread
  // storage once Qt 3D is linked in (the editor library's viewport).
  new QGuiApplication(argc, argv);
}

constexpr int kW = 128, kH = 64;

struct GpuResult {
  std::vector<float> distance, material;
};

class GlFieldEvaluator {
 public:
  bool init(std::string& why) {
    ensureApplication();
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

  /// Compiles `glsl` (the emitted map) into a program; returns the info log on failure.
  bool compile(const std::string& glsl, int paramCount, std::string& log) {
    const std::string vs = R"(#version 330 core
void main() {
  vec2 v = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(v * 2.0 - 1.0, 0.0, 1.0);
})";
    const std::string fs =
        "#version 330 core\nuniform sampler2D u_points;\nuniform float u_params[" +
        std::to_string(std::max(paramCount, 1)) +
        "];\nuniform float u_time;\n#define FP(i) u_params[i]\n" + glsl +
        "\nout vec4 fragColor;\nvoid main() {\n  vec3 p = texelFetch(u_points, "
        "ivec2(gl_FragCoord.xy), 0).xyz;\n"
        "  vec2 r = map(p, u_time);\n  fragColor = vec4(r, 0.0, 1.0);\n}\n";
    auto shader = [&](GLenum type, const std::string& src) -> GLuint {
      GLuint s = gl_->glCreateShader(type);
      const char* text = src.c_str();
      gl_->glShaderSource(s, 1, &text, nullptr);
      gl_->glCompileShader(s);
      GLint ok = 0;
      gl_->glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
      if (!ok) {
        char buf[8192];
        gl_->glGetShaderInfoLog(s, sizeof buf, nullptr, buf);
        log += buf;
        return 0;
      }
      return s;
    };
    GLuint v = shader(GL_VERTEX_SHADER, vs), f = shader(GL_FRAGMENT_SHADER, fs);
    if (!v || !f) return false;
    program_ = gl_->glCreateProgram();
    gl_->glAttachShader(program_, v);
    gl_->glAttachShader(program_, f);
    gl_->glLinkProgram(program_);
    GLint ok = 0;
    gl_->glGetProgramiv(program_, GL_LINK_STATUS, &ok);
    if (!ok) {
      char buf[8192];
      gl_->glGetProgramInfoLog(program_, sizeof buf, nullptr, buf);
      log += buf;
      return false;
    }
    return true;
  }

  GpuResult evaluate(const std::vector<Vec3>& pts, const std::vector<float>& params, float time) {
    GLuint tex = 0, target = 0, fbo = 0, vao = 0;
    gl_->glGenTextures(1, &tex);
    gl_->glBindTexture(GL_TEXTURE_2D, tex);
    gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl_->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB32F, kW, kH, 0, GL_RGB, GL_FLOAT, pts.data());
    gl_->glGenTextures(1, &target);
    gl_->glBindTexture(GL_TEXTURE_2D, target);
    gl_->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl_->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, kW, kH, 0, GL_RGBA, GL_FLOAT, nullptr);
    gl_->glGenFramebuffers(1, &fbo);
    gl_->glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    gl_->glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
    gl_->glGenVertexArrays(1, &vao);
    gl_->glBindVertexArray(vao);
    gl_->glViewport(0, 0, kW, kH);
    gl_->glUseProgram(program_);
    gl_->glActiveTexture(GL_TEXTURE0);
    gl_->glBindTexture(GL_TEXTURE_2D, tex);
    gl_->glUniform1i(gl_->glGetUniformLocation(program_, "u_points"), 0);
    if (!params.empty())
      gl_->glUniform1fv(gl_->glGetUniformLocation(program_, "u_params"), GLsizei(params.size()),
                        params.data());
    gl_->glUniform1f(gl_->glGetUniformLocation(program_, "u_time"), time);
    gl_->glDrawArrays(GL_TRIANGLES, 0, 3);
    std::vector<float> rgba(std::size_t(kW) * kH * 4);
    gl_->glReadPixels(0, 0, kW, kH, GL_RGBA, GL_FLOAT, rgba.data());
    gl_->glBindFramebuffer(GL_FRAMEBUFFER, context_->defaultFramebufferObject());
    gl_->glDeleteFramebuffers(1, &fbo);
    gl_->glDeleteTextures(1, &tex);
    gl_->glDeleteTextures(1, &target);
    gl_->glDeleteVertexArrays(1, &vao);
    GpuResult r;
    for (int i = 0; i < kW * kH; ++i) {
      r.distance.push_back(rgba[i * 4]);
      r.material.push_back(rgba[i * 4 + 1]);
    }
    return r;
  }

  ~GlFieldEvaluator() {
    if (gl_ && program_) gl_->glDeleteProgram(program_);
    if (context_) context_->doneCurrent();
  }

 private:
  std::unique_ptr<QOpenGLContext> context_;
  std::unique_ptr<QOffscreenSurface> surface_;
  QOpenGLExtraFunctions* gl_ = nullptr;
  GLuint program_ = 0;
};

std::vector<Vec3> samplePoints(Vec3 lo, Vec3 hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Vec3> pts(std::size_t(kW) * kH);
  for (Vec3& p : pts) p = lo + (hi - lo) * Vec3(u(rng), u(rng), u(rng));
  return pts;
}

struct Comparison {
  int total = 0, withinTolerance = 0, signMismatchFar = 0, materialMismatch = 0;
  float worst = 0.0f;
};

Comparison compare(const FieldProgram& prog, GlFieldEvaluator& gpu, const std::vector<Vec3>& pts,
                   double t) {
  const GpuResult r = gpu.evaluate(pts, prog.parameterValues(t), float(t));
  Comparison c;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const FieldSample s = prog.sample(pts[i], t);
    const float err = std::abs(r.distance[i] - s.distance);
    ++c.total;
    c.withinTolerance += err <= 1e-3f + 1e-4f * std::abs(s.distance);
    c.worst = std::max(c.worst, err);
    c.signMismatchFar += std::abs(s.distance) > 0.05f && (r.distance[i] < 0) != (s.distance < 0);
    c.materialMismatch += err <= 1e-3f && std::lround(r.material[i]) != s.material;
  }
  std::printf(
      "  GPU vs CPU at t = %.2f s: %d of %d points within tolerance, worst %.3g m, %d material "
      "ties\n",
      t, c.withinTolerance, c.total, c.worst, c.materialMismatch);
  return c;
}

TEST(FieldGlslGl, EmittedShaderMatchesTheCpuProgramForEveryAnalyticNodeType) {
  GlFieldEvaluator gpu;
  std::string why;
  if (!gpu.init(why)) GTEST_SKIP() << why;
  // Every node type except the fractals (tested below): the full scene minus its fractal parts.
  FieldNode scene = everyNodeScene();
  auto& parts = scene.children[0].children;
  parts.erase(parts.end() - 3, parts.end());
  // Animate a transform and a radius so the uniforms carry driven values.
  parts[0].params[0].driver = AnimatedScalar::Driver::Sine;
  parts[0].params[0].base = -3.0f;
  parts[0].params[0].amplitude = 0.3f;
  parts[0].params[0].frequency = 0.7f;
  const FieldProgram prog = compileOrDie(scene);
  std::string log;
  ASSERT_TRUE(gpu.compile(emitGlsl(prog), prog.parameterCount(), log)) << log << "\n"
                                                                       << emitGlsl(prog);
  for (double t : {0.0, 0.6}) {
    const Comparison c = compare(prog, gpu, samplePoints({-5, -3, -4}, {5, 4, 3}, 17), t);
    EXPECT_EQ(c.withinTolerance, c.total) << "worst error " << c.worst << " m at t = " << t;
    EXPECT_EQ(c.signMismatchFar, 0);
    // Materials agree except where two surfaces are equally near (ties within the tolerance).
    EXPECT_LE(c.materialMismatch, c.total / 200) << "t = " << t;
  }
}

TEST(FieldGlslGl, EmittedShaderMatchesTheCpuProgramForTheFractals) {
  GlFieldEvaluator gpu;
  std::string why;
  if (!gpu.init(why)) GTEST_SKIP() << why;
  const FieldProgram prog = compileOrDie(everyNodeScene());
  std::string log;
  ASSERT_TRUE(gpu.compile(emitGlsl(prog), prog.parameterCount(), log)) << log;
  // The fractal row of the scene: Mandelbulb, Menger, Mandelbox around z = -4.
  const Comparison c =
      compare(prog, gpu, samplePoints({-4.5f, -1.5f, -5.5f}, {5, 1.5f, -2.5f}, 23), 0.0);
  EXPECT_GE(c.withinTolerance, c.total * 97 / 100) << "worst error " << c.worst;
  EXPECT_EQ(c.signMismatchFar, 0);
  EXPECT_LE(c.materialMismatch, c.total / 100);
}

}  // namespace
