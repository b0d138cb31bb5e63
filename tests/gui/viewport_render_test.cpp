// The viewport against the CPU reference: the same field, camera and materials give the same
// image within a stated tolerance; a shader that fails to compile keeps the last image; a
// parameter-only edit updates uniforms without recompiling; adaptive resolution refines.
// Run under xvfb-run (Mesa llvmpipe); small images keep it fast.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <filesystem>

#include "../large_scene/large_scene.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/render/cpu_renderer.h"
#include "floptle/core/render/image.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/editor/raymarch_view.h"
#include "viewport_test_support.h"

using namespace floptle;
using floptle::editor::RaymarchView;

namespace {

constexpr int kWidth = 160;
constexpr int kHeight = 90;

std::string sphereOnPlane(float radius) {
  return R"({"type": "union", "children": [
      {"type": "plane", "normal": [0, 1, 0], "material": 1},
      {"type": "sphere", "radius": )" +
         std::to_string(radius) + R"(, "material": 2, "transform": {"position": [0, 0.6, 0]}}]})";
}

render::Camera testCamera() {
  render::Camera camera;
  camera.position = {2.0f, 1.6f, 3.2f};
  camera.lookAt = {0.0f, 0.45f, 0.0f};
  camera.fovYDegrees = 60.0f;
  return camera;
}

const render::MaterialColors kMaterials{
    {0.72f, 0.72f, 0.72f}, {0.35f, 0.55f, 0.30f}, {0.85f, 0.25f, 0.20f}};

render::Image toImage(const QImage& qimage) {
  const QImage rgba = qimage.convertToFormat(QImage::Format_RGBA8888);
  render::Image image;
  image.width = rgba.width();
  image.height = rgba.height();
  for (int y = 0; y < rgba.height(); ++y) {
    const uchar* line = rgba.constScanLine(y);
    image.rgba.insert(image.rgba.end(), line, line + rgba.width() * 4);
  }
  return image;
}

std::filesystem::path outputDir() {
  auto dir = std::filesystem::path(FLOPTLE_BINARY_DIR) / "test-output";
  std::filesystem::create_directories(dir);
  return dir;
}

/// A shown, exposed viewport of kWidth x kHeight with the test scene and no overlays.
class ViewportFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    viewport_testing::ensureApplication();
    auto program = viewport_testing::compileShapeJson(sphereOnPlane(0.6f));
    ASSERT_TRUE(program.ok()) << program.error().message();
    program_ = *program;
    view_ = std::make_unique<RaymarchView>();
    view_->setOverlaysVisible(false);
    view_->setAdaptiveResolution(false);
    view_->setFixedSize(kWidth, kHeight);
    view_->setMaterialColors(kMaterials);
    view_->setCamera(testCamera());
    view_->setField(*program_);
    view_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(view_.get()));
    ASSERT_TRUE(QTest::qWaitFor([&] { return view_->frameCount() > 0; }, 20000));
  }
  void TearDown() override { view_.reset(); }

  std::optional<field::FieldProgram> program_;
  std::unique_ptr<RaymarchView> view_;
};

}  // namespace

// Tolerance: the GPU and the CPU evaluate the same float formulas in a different order (and
// llvmpipe's exp/pow differ in the last bits), so a few silhouette and shadow-edge pixels may
// flip. Mean absolute difference per channel <= 1.5 (of 255) and at least 98 % of pixels
// within 8 levels on every channel.
TEST_F(ViewportFixture, ViewportImageMatchesCpuRender) {
  ASSERT_TRUE(view_->hasShader()) << view_->lastShaderError().toStdString();
  // llvmpipe has OpenGL 4.5: the viewport computes unless the test asks for the fragment stage
  // (ctest's viewport.fragment_stage runs these tests so).
  EXPECT_EQ(view_->raymarchComputes(), qgetenv("FLOPTLE_VIEWPORT_STAGE") != "fragment");
  const QImage captured = view_->captureImage();
  ASSERT_EQ(captured.width(), kWidth);
  ASSERT_EQ(captured.height(), kHeight);
  const render::Image gpu = toImage(captured);

  render::RenderSettings settings;
  settings.width = kWidth;
  settings.height = kHeight;
  auto cpu = render::renderImage(*program_, view_->camera(), kMaterials, settings);
  ASSERT_TRUE(cpu.ok()) << cpu.error().message();
  render::writePng((outputDir() / "viewport_gpu.png").string(), gpu);
  render::writePng((outputDir() / "viewport_cpu.png").string(), *cpu);

  auto mean = render::meanAbsoluteDifference(gpu, *cpu);
  ASSERT_TRUE(mean.ok());
  int close = 0;
  for (std::size_t i = 0; i < gpu.rgba.size(); i += 4) {
    bool near = true;
    for (int c = 0; c < 3; ++c)
      near = near && std::abs(int(gpu.rgba[i + c]) - int(cpu->rgba[i + c])) <= 8;
    close += near;
  }
  const double closeFraction = double(close) / double(kWidth * kHeight);
  std::printf("viewport vs CPU: mean |diff| %.4f / 255, %.2f %% of pixels within 8\n", *mean,
              100.0 * closeFraction);
  EXPECT_LE(*mean, 1.5);
  EXPECT_GE(closeFraction, 0.98);

  // The comparison can fail: both images show the red sphere at the projected centre.
  Vec2 centre;
  ASSERT_TRUE(view_->camera().project({0.0f, 0.6f, 0.0f}, kWidth, kHeight, centre));
  const std::uint8_t* p = gpu.pixel(int(centre.x), int(centre.y));
  EXPECT_GT(int(p[0]), int(p[1]) + 50);
}

TEST_F(ViewportFixture, ShaderErrorKeepsTheLastGoodImage) {
  const QImage before = view_->captureImage();
  QSignalSpy errors(view_.get(), &RaymarchView::shaderError);
  view_->setFieldGlsl("vec2 map(vec3 p, float t) { return this is not glsl; }", 0xBADull, {});
  const QImage after = view_->captureImage();
  ASSERT_EQ(errors.count(), 1);
  EXPECT_FALSE(errors.first().first().toString().isEmpty());
  EXPECT_FALSE(view_->lastShaderError().isEmpty());
  EXPECT_TRUE(view_->hasShader());
  EXPECT_EQ(before, after);

  // A good field afterwards compiles and changes the image.
  QSignalSpy compiled(view_.get(), &RaymarchView::shaderCompiled);
  auto other = viewport_testing::compileShapeJson(
      R"({"type": "box", "half_extents": [0.5, 0.5, 0.5], "material": 2})");
  ASSERT_TRUE(other.ok());
  view_->setField(*other);
  const QImage box = view_->captureImage();
  EXPECT_EQ(compiled.count(), 1);
  EXPECT_TRUE(view_->lastShaderError().isEmpty());
  EXPECT_NE(box, before);
}

TEST_F(ViewportFixture, ParameterEditUpdatesUniformsWithoutRecompiling) {
  const QImage small = view_->captureImage();
  QSignalSpy compiled(view_.get(), &RaymarchView::shaderCompiled);
  auto bigger = viewport_testing::compileShapeJson(sphereOnPlane(0.9f));
  ASSERT_TRUE(bigger.ok());
  view_->setField(*bigger);
  const QImage big = view_->captureImage();
  EXPECT_EQ(compiled.count(), 0);
  EXPECT_NE(big, small);
  // And the new image is the CPU image of the bigger sphere.
  render::RenderSettings settings;
  settings.width = kWidth;
  settings.height = kHeight;
  auto cpu = render::renderImage(*bigger, view_->camera(), kMaterials, settings);
  ASSERT_TRUE(cpu.ok());
  auto mean = render::meanAbsoluteDifference(toImage(big), *cpu);
  ASSERT_TRUE(mean.ok());
  EXPECT_LE(*mean, 1.5);
}

TEST_F(ViewportFixture, MovingRendersCoarseThenRefines) {
  view_->setAdaptiveResolution(true);
  const std::uint64_t frames = view_->frameCount();
  render::Camera moved = testCamera();
  moved.position.x += 0.3f;
  view_->setCamera(moved);
  ASSERT_TRUE(QTest::qWaitFor([&] { return view_->frameCount() > frames; }, 20000));
  EXPECT_LT(view_->lastResolutionScale(), 1.0f);
  // Still for the refine delay: one full-resolution frame follows.
  EXPECT_TRUE(QTest::qWaitFor([&] { return view_->lastResolutionScale() == 1.0f; }, 20000));
  EXPECT_GT(view_->lastFrameTimeMs(), 0.0);
}

TEST_F(ViewportFixture, ClickRequestsAPickAlongTheCameraRay) {
  QSignalSpy picks(view_.get(), &RaymarchView::pickRequested);
  Vec2 centre;
  ASSERT_TRUE(view_->camera().project({0.0f, 0.6f, 0.0f}, kWidth, kHeight, centre));
  QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::NoModifier,
                    QPoint(int(centre.x), int(centre.y)));
  ASSERT_EQ(picks.count(), 1);
  const Ray ray = picks.first().first().value<Ray>();
  const Ray expected = view_->camera().rayThroughPixel({float(int(centre.x)), float(int(centre.y))},
                                                       kWidth, kHeight);
  EXPECT_NEAR(glm::length(ray.direction - expected.direction), 0.0f, 1e-5f);
  // The CPU raycast of the same field along that ray hits the sphere (material 2).
  auto hit = render::marchRay(*program_, ray, 0.0);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->material, 2);
}

TEST_F(ViewportFixture, TranslateGizmoDragIsSnappedAlongItsAxis) {
  view_->setOverlaysVisible(true);
  editor::GizmoSnap snap;
  snap.translate = 0.25f;
  view_->setGizmoSnap(snap);
  const Vec3 pivot{0.0f, 0.6f, 0.0f};
  view_->setGizmo(editor::GizmoMode::Translate, pivot);
  // Grab the X handle two thirds of the way out, drag along its screen direction.
  const render::Camera camera = view_->camera();
  const float length = 2.0f * glm::dot(pivot - camera.position, camera.basis().forward) *
                       camera.tanHalfFovY() * 0.18f;
  Vec2 a, b;
  ASSERT_TRUE(camera.project(pivot + Vec3(0.66f * length, 0, 0), kWidth, kHeight, a));
  ASSERT_TRUE(camera.project(pivot + Vec3(0.66f * length + 0.6f, 0, 0), kWidth, kHeight, b));
  QSignalSpy started(view_.get(), &RaymarchView::gizmoDragStarted);
  QSignalSpy finished(view_.get(), &RaymarchView::gizmoDragFinished);
  QSignalSpy picks(view_.get(), &RaymarchView::pickRequested);
  const QPoint from(int(std::lround(a.x)), int(std::lround(a.y)));
  const QPoint to(int(std::lround(b.x)), int(std::lround(b.y)));
  QTest::mousePress(view_.get(), Qt::LeftButton, Qt::NoModifier, from);
  QMouseEvent move(QEvent::MouseMove, QPointF(to), view_->mapToGlobal(QPointF(to)), Qt::NoButton,
                   Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(view_.get(), &move);
  QTest::mouseRelease(view_.get(), Qt::LeftButton, Qt::NoModifier, to);
  ASSERT_EQ(started.count(), 1);
  ASSERT_EQ(finished.count(), 1);
  EXPECT_EQ(picks.count(), 0);  // a gizmo drag is not a click
  const auto delta = finished.first().first().value<editor::GizmoDelta>();
  EXPECT_EQ(delta.mode, editor::GizmoMode::Translate);
  EXPECT_EQ(delta.axis, 0);
  EXPECT_EQ(delta.translation.y, 0.0f);
  EXPECT_EQ(delta.translation.z, 0.0f);
  // About 0.6 m of travel (pixel rounding aside), snapped to 0.25 m steps.
  EXPECT_NEAR(delta.translation.x, 0.5f, 0.26f);
  EXPECT_NEAR(std::remainder(delta.translation.x, 0.25f), 0.0f, 1e-5f);
}

TEST_F(ViewportFixture, SelectionOutlineAndGridDrawOverTheField) {
  const QImage plain = view_->captureImage();
  view_->setOverlaysVisible(true);
  view_->setGridVisible(false);
  view_->setSelectionBounds({Aabb::fromCenterHalf({0.0f, 0.6f, 0.0f}, Vec3(0.6f))});
  const QImage selected = view_->captureImage();
  // Orange outline pixels appear where there were none.
  int orange = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      const QColor c = selected.pixelColor(x, y);
      if (c.red() > 200 && c.green() > 110 && c.green() < 190 && c.blue() < 80 &&
          plain.pixelColor(x, y) != c)
        ++orange;
    }
  EXPECT_GT(orange, 40);
  view_->setSelectionBounds({});
  view_->setGridVisible(true);
  EXPECT_NE(view_->captureImage(), plain);  // the grid shows
}

namespace {

/// A plane at y = -1 and `count` spheres over a 400 x 400 m square (deterministic), as parts.
field::UnionField scatteredSpheres(int count, Vec3 movedFirst = Vec3(0.0f, 0.4f, 0.0f)) {
  std::vector<field::FieldProgram> parts;
  parts.push_back(*viewport_testing::compileShapeJson(
      R"({"type": "plane", "normal": [0, 1, 0], "offset": -1, "material": 1})"));
  std::uint32_t state = 12345u;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1u << 24);
  };
  for (int i = 0; i < count; ++i) {
    Vec3 at(400.0f * next() - 200.0f, 0.5f * next(), 400.0f * next() - 200.0f);
    if (i == 0) at = movedFirst;
    const float radius = 0.3f + 0.7f * next();
    parts.push_back(*viewport_testing::compileShapeJson(
        R"({"type": "sphere", "material": 2, "radius": )" + std::to_string(radius) +
        R"(, "transform": {"position": [)" + std::to_string(at.x) + ", " + std::to_string(at.y) +
        ", " + std::to_string(at.z) + "]}}"));
  }
  return *field::UnionField::build(std::move(parts), 0.0);
}

/// Mean |difference| and the fraction of pixels within 8 levels, printed.
std::pair<double, double> compare(const render::Image& gpu, const render::Image& cpu,
                                  const char* what) {
  auto mean = render::meanAbsoluteDifference(gpu, cpu);
  int close = 0;
  for (std::size_t i = 0; i < gpu.rgba.size(); i += 4) {
    bool near = true;
    for (int c = 0; c < 3; ++c)
      near = near && std::abs(int(gpu.rgba[i + c]) - int(cpu.rgba[i + c])) <= 8;
    close += near;
  }
  const double fraction = double(close) / double(gpu.width * gpu.height);
  std::printf("%s: mean |diff| %.4f / 255, %.2f %% of pixels within 8\n", what,
              mean.ok() ? *mean : -1.0, 100.0 * fraction);
  return {mean.ok() ? *mean : 255.0, fraction};
}

/// Draws `field` from `camera` in `view`, checks the image against the CPU render (the
/// tolerance above; both written as viewport_NAME_{gpu,cpu}.png) and returns how many of the
/// viewport's pixels are red (the spheres' material), -1 when either image is missing.
int drawnAsTheCpuDraws(editor::RaymarchView& view, const field::UnionField& field,
                       const render::Camera& camera, const std::string& name) {
  view.setCamera(camera);
  view.setSceneField(field);
  const render::Image gpu = toImage(view.captureImage());
  EXPECT_TRUE(view.lastShaderError().isEmpty()) << view.lastShaderError().toStdString();
  render::RenderSettings settings;
  settings.width = kWidth;
  settings.height = kHeight;
  auto cpu = render::renderImage(field, camera, kMaterials, settings);
  if (!cpu.ok() || gpu.rgba.empty()) {
    ADD_FAILURE() << name << ": no image";
    return -1;
  }
  render::writePng((outputDir() / ("viewport_" + name + "_gpu.png")).string(), gpu);
  render::writePng((outputDir() / ("viewport_" + name + "_cpu.png")).string(), *cpu);
  const auto [mean, fraction] = compare(gpu, *cpu, (name + ", viewport vs CPU").c_str());
  EXPECT_LE(mean, 1.5) << name;
  EXPECT_GE(fraction, 0.98) << name;
  int red = 0;
  for (std::size_t i = 0; i < gpu.rgba.size(); i += 4)
    red += gpu.rgba[i] > gpu.rgba[i + 1] + 40 ? 1 : 0;
  return red;
}

}  // namespace

// The generated level (tests/large_scene: a ground plane and 10,000 spheres over 400 x 400 m),
// composed as the editor composes it: the fixed program reads it through the candidate grid
// and draws what the CPU reference draws (same tolerance as above).
TEST_F(ViewportFixture, TheGeneratedTenThousandNodeLevelMatchesTheCpuRender) {
  auto built = scene::buildScene(test::largeScene(test::LargeSceneSpec{}));
  ASSERT_TRUE(built.ok()) << built.error().message();
  ASSERT_EQ(built->nodes.size(), 10001u);
  auto composed = scene::compileSceneUnion(*built, 0.0);
  ASSERT_TRUE(composed.ok()) << composed.error().message();
  const field::UnionField& field = composed->field;
  render::Camera camera;
  camera.position = {-30.0f, 6.0f, 25.0f};
  camera.lookAt = {0.0f, 0.0f, 0.0f};
  camera.fovYDegrees = 60.0f;
  // Red sphere pixels exist: the comparison is not of two empty skies.
  EXPECT_GT(drawnAsTheCpuDraws(*view_, field, camera, "10k"), 50);
}

// More kinds of part than the shader has functions for (kMaxPartStructures): 40 clusters of
// 1..40 spheres, each its own structure, drawn by the instruction interpreter through the
// candidate grid, as the CPU reference draws them.
TEST_F(ViewportFixture, MoreKindsOfPartThanFunctionsAreInterpretedAsTheCpuDrawsThem) {
  std::vector<field::FieldProgram> parts;
  parts.push_back(*viewport_testing::compileShapeJson(
      R"({"type": "plane", "normal": [0, 1, 0], "offset": -1, "material": 1})"));
  constexpr int kKinds = render::kMaxPartStructures + 8;
  for (int k = 0; k < kKinds; ++k) {
    const float angle = 6.2831853f * float(k) / float(kKinds);
    const Vec3 at(4.0f * std::cos(angle), -0.6f, 4.0f * std::sin(angle));
    std::string children;
    for (int i = 0; i <= k; ++i) {
      const float a = 6.2831853f * float(i) / float(k + 1);
      const Vec3 c = at + Vec3(0.25f * std::cos(a), 0.02f * float(i), 0.25f * std::sin(a));
      children += std::string(i ? ", " : "") +
                  R"({"type": "sphere", "material": 2, "radius": 0.2, "transform": )"
                  R"({"position": [)" +
                  std::to_string(c.x) + ", " + std::to_string(c.y) + ", " + std::to_string(c.z) +
                  "]}}";
    }
    parts.push_back(*viewport_testing::compileShapeJson(R"({"type": "union", "children": [)" +
                                                        children + "]}"));
  }
  const field::UnionField field = *field::UnionField::build(std::move(parts), 0.0);
  const auto buffers = render::packSceneBuffers(field, 0.0);
  ASSERT_TRUE(buffers.ok()) << buffers.error().message();
  ASSERT_TRUE(buffers->structures.empty()) << "the interpreter is not in use";
  ASSERT_GT(buffers->gridEntries, 0) << "the grid is not in use";
  render::Camera camera;
  camera.position = {0.0f, 5.0f, 9.0f};
  camera.lookAt = {0.0f, -0.6f, 0.0f};
  EXPECT_GT(drawnAsTheCpuDraws(*view_, field, camera, "kinds"), 500);
}

// A scene over the GPU's scene-data limit is refused naming the limit; the view keeps the image
// it drew (never black), and the next scene that fits is drawn and clears the message.
TEST_F(ViewportFixture, ASceneOverTheGpuLimitIsRefusedNamingItAndKeepsTheImage) {
  EXPECT_GE(view_->sceneRowLimit(), 1024);  // the GPU's GL_MAX_TEXTURE_SIZE (GL 3.3's least)
  view_->setSceneField(scatteredSpheres(200));
  const QImage before = view_->captureImage();
  ASSERT_TRUE(view_->lastShaderError().isEmpty()) << view_->lastShaderError().toStdString();
  const std::uint64_t uploads = view_->sceneDataUploads();
  QSignalSpy errors(view_.get(), &editor::RaymarchView::shaderError);
  view_->setSceneRowLimit(1);  // 200 parts need more than one row of 1024 texels
  view_->setSceneField(scatteredSpheres(200, Vec3(-0.8f, 0.4f, 0.6f)));
  ASSERT_EQ(errors.count(), 1);
  EXPECT_TRUE(view_->lastShaderError().contains("GL_MAX_TEXTURE_SIZE"))
      << view_->lastShaderError().toStdString();
  EXPECT_TRUE(view_->lastShaderError().contains("limit of 1"))
      << view_->lastShaderError().toStdString();
  EXPECT_EQ(view_->sceneDataUploads(), uploads);
  EXPECT_EQ(view_->captureImage(), before);

  view_->setSceneRowLimit(0);
  view_->setSceneField(scatteredSpheres(200, Vec3(-0.8f, 0.4f, 0.6f)));
  EXPECT_TRUE(view_->lastShaderError().isEmpty()) << view_->lastShaderError().toStdString();
  EXPECT_EQ(view_->sceneDataUploads(), uploads + 1);
  EXPECT_NE(view_->captureImage(), before);
}

// Moving a node changes texels only: no compile, one more upload, the sphere is elsewhere.
TEST_F(ViewportFixture, AMovedPartRedrawsWithoutACompile) {
  view_->setSceneField(scatteredSpheres(200));
  const QImage before = view_->captureImage();
  const std::uint64_t compiles = view_->shaderCompiles();
  const std::uint64_t uploads = view_->sceneDataUploads();
  const field::UnionField moved = scatteredSpheres(200, Vec3(-0.8f, 0.4f, 0.6f));
  view_->setSceneField(moved);
  const QImage after = view_->captureImage();
  EXPECT_EQ(view_->shaderCompiles(), compiles);
  EXPECT_EQ(view_->sceneDataUploads(), uploads + 1);
  EXPECT_NE(before, after);
  render::RenderSettings settings;
  settings.width = kWidth;
  settings.height = kHeight;
  auto cpu = render::renderImage(moved, view_->camera(), kMaterials, settings);
  ASSERT_TRUE(cpu.ok());
  const auto [mean, fraction] = compare(toImage(after), *cpu, "moved part, viewport vs CPU");
  EXPECT_LE(mean, 1.5);
  EXPECT_GE(fraction, 0.98);
}
