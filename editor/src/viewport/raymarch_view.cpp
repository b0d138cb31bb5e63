#include "floptle/editor/raymarch_view.h"

#include <QCoreApplication>
#include <QSurfaceFormat>
#include <QVBoxLayout>
#include <QVector2D>
#include <QVector4D>
#include <QWindow>
#include <Qt3DRender/QTexture>

#include <algorithm>
#include <cmath>

#include <glm/gtc/type_ptr.hpp>

#include "floptle/core/field/field_glsl.h"
#include "floptle/core/render/raymarch_glsl.h"
#include "floptle/core/render/scene_buffers.h"
#include "floptle/core/render/shading_model.h"
#include "viewport/brick_atlas_texture.h"
#include "viewport/camera_controller.h"
#include "viewport/gizmo.h"
#include "viewport/overlay_layers.h"
#include "viewport/qt3d_layers.h"
#include "viewport/qt3d_scene.h"
#include "viewport/shader_check.h"
#include "viewport/viewport_shaders.h"

namespace floptle::editor {

namespace {
/// Frame time the adaptive resolution aims for while something moves (ms).
constexpr double kTargetFrameMs = 33.0;
constexpr float kMinScale = 0.1f;
/// Quiet time after the last motion before the full-resolution frame (ms).
constexpr int kRefineDelayMs = 250;
constexpr int kFlyIntervalMs = 16;
/// Most draws of one frame beyond the first while Qt 3D is still compiling its programs. It
/// compiles every new program in the frame that first needs it, so one is the rule; the bound
/// keeps a driver that never reports them settled from drawing without end.
constexpr int kMaxRedraws = 3;

QVector3D toQt(Vec3 v) {
  return {v.x, v.y, v.z};
}

void addBox(std::vector<OverlayLine>& out, const Aabb& box, Vec4 color) {
  if (box.empty()) return;
  const Vec3 lo = glm::max(box.min, Vec3(-kGridHalfSize)),
             hi = glm::min(box.max, Vec3(kGridHalfSize));
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (int i = 0; i < 4; ++i) {
      Vec3 a, b;
      a[axis] = lo[axis];
      b[axis] = hi[axis];
      a[u] = b[u] = (i & 1) ? hi[u] : lo[u];
      a[v] = b[v] = (i & 2) ? hi[v] : lo[v];
      out.push_back({a, b, color});
    }
  }
}
/// Compute where the context runs it; FLOPTLE_VIEWPORT_STAGE=fragment or =compute chooses.
RaymarchStage raymarchStage(ShaderChecker& checker) {
  const QByteArray chosen = qgetenv("FLOPTLE_VIEWPORT_STAGE");
  if (chosen == "fragment") return RaymarchStage::Fragment;
  if (chosen == "compute") return RaymarchStage::Compute;
  return checker.supportsCompute() ? RaymarchStage::Compute : RaymarchStage::Fragment;
}
}  // namespace

RaymarchView::RaymarchView(QWidget* parent)
    : QWidget(parent),
      cameraController_(std::make_unique<CameraController>()),
      gizmo_(std::make_unique<Gizmo>()),
      layers_(std::make_unique<OverlayLayers>()) {
  selectQt3dOpenGlRenderer();
  window_ = new QWindow;  // owned by its container below
  window_->setSurfaceType(QSurface::OpenGLSurface);
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  window_->setFormat(format);
  // Qt 3D's OpenGL renderer creates its context from QSurfaceFormat::defaultFormat(), not
  // from the window's: without a depth buffer there, GLX hands it a visual without one and
  // every overlay drew through the field. The viewport's format becomes the default.
  if (QSurfaceFormat::defaultFormat().depthBufferSize() < format.depthBufferSize())
    QSurfaceFormat::setDefaultFormat(format);
  window_->installEventFilter(this);
  QWidget* container = QWidget::createWindowContainer(window_, this);
  container->setFocusPolicy(Qt::NoFocus);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(container);
  checker_ = std::make_unique<ShaderChecker>();
  scene_ = std::make_unique<ViewportScene>(window_, raymarchStage(*checker_));
  overlays_ = std::make_unique<OverlayEntities>(*scene_);
  clock_.start();

  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(64, 48);
  refineTimer_.setSingleShot(true);
  refineTimer_.setInterval(kRefineDelayMs);
  connect(&refineTimer_, &QTimer::timeout, this, [this] {
    moving_ = false;
    requestFrame();
  });
  frameTimer_.setSingleShot(true);
  frameTimer_.setInterval(0);
  connect(&frameTimer_, &QTimer::timeout, this, [this] {
    if (window_->isExposed()) drawFrame(false);
  });
  flyTimer_.setInterval(kFlyIntervalMs);
  connect(&flyTimer_, &QTimer::timeout, this, &RaymarchView::flyTick);
  // The first frame comes coarse (fast on a software GL), the refined one right after.
  noteMotion();
}

RaymarchView::~RaymarchView() {
  overlays_.reset();
  scene_.reset();  // the aspect engine goes before the window it renders to
}

// --- field -----------------------------------------------------------------------------------

void RaymarchView::setSceneField(field::UnionField sceneField) {
  sceneField.refit(time_);
  sceneField_ = std::move(sceneField);
  shownProgram_.reset();
  if (uploadSceneData()) noteMotion();
}

int RaymarchView::sceneRowLimit() {
  if (sceneRowLimitOverride_ > 0) return sceneRowLimitOverride_;
  const int gpu = checker_->maxTextureSize();
  return gpu > 0 ? gpu : render::kLeastMaxTextureSize;
}

bool RaymarchView::uploadSceneData() {
  Expected<render::SceneBuffers> buffers =
      render::packSceneBuffers(*sceneField_, time_, sceneRowLimit());
  if (!buffers) {
    // Keep the shown image and say why (the limit is named).
    lastShaderError_ = QString::fromStdString(buffers.error().message());
    sceneDataRefused_ = true;
    emit shaderError(lastShaderError_);
    return false;
  }
  if (sceneDataRefused_) {
    sceneDataRefused_ = false;
    lastShaderError_.clear();
  }
  // The program follows the scene's part structures only: a value, a move or a new time
  // reuses it.
  // With brick maps the program gains their part (a fixed text, whatever the maps).
  const bool brickMaps = brickAtlas_ != nullptr;
  const std::uint64_t hash = buffers->programHash ^ (brickMaps ? 0x9e3779b97f4a7c15ull : 0);
  const bool queued = pending_ && pending_->hash == hash;
  const bool shown = shownHash_ == hash && !pending_;
  if (!queued && !shown) {
    PendingShader next;
    next.source = render::viewportFragmentShader(*buffers, brickMaps);
    next.hash = hash;
    pending_ = std::move(next);
  }
  if (buffers->uniformData) {
    QVariantList texels;
    for (int i = 0; i < buffers->usedTexels; ++i) {
      const float* t = &buffers->texels[std::size_t(i) * 4];
      texels << QVector4D(t[0], t[1], t[2], t[3]);
    }
    scene_->setRaymarchUniform("u_sceneData[0]", texels);
    ++uniformUploads_;
  } else {
    scene_->setSceneData(buffers->texels, render::kSceneDataWidth, buffers->height);
  }
  return true;
}

Expected<int> RaymarchView::addBrickMap(const BrickMap& map,
                                        const render::BrickMapPlacement& placement,
                                        const std::string& name) {
  const bool first = !brickAtlas_;
  if (first) brickAtlas_ = std::make_unique<render::BrickAtlas>();
  Expected<int> id = brickAtlas_->addMap(map, placement, name);
  if (!id) return id;
  flushBrickMaps();
  // The scene program gains the brick part once.
  if (first && sceneField_) uploadSceneData();
  noteMotion();
  return id;
}

Expected<void> RaymarchView::updateBrickMap(int id, const BrickMap& map,
                                            std::span<const glm::ivec3> changedCells) {
  if (!brickAtlas_) return Error{"brick map", "the viewport draws no brick maps"};
  Expected<void> ok = brickAtlas_->updateMap(id, map, changedCells);
  if (!ok) return ok;
  flushBrickMaps();
  noteMotion();
  return {};
}

void RaymarchView::setBrickMapPlacement(int id, const render::BrickMapPlacement& placement) {
  if (!brickAtlas_) return;
  brickAtlas_->setPlacement(id, placement);
  flushBrickMaps();
  noteMotion();
}

void RaymarchView::removeBrickMap(int id) {
  if (!brickAtlas_) return;
  brickAtlas_->removeMap(id);
  flushBrickMaps();
  noteMotion();
}

std::uint64_t RaymarchView::brickUploads() const {
  return brickTextures_ ? brickTextures_->bricksUploaded() : 0;
}

void RaymarchView::flushBrickMaps() {
  const bool bind = !brickTextures_;
  if (bind) brickTextures_ = std::make_unique<BrickAtlasTextures>(*brickAtlas_);
  if (bind)
    scene_->setRaymarchUniform("u_brickAtlas", QVariant::fromValue(brickTextures_->atlasTexture()));
  if (brickTextures_->upload(*brickAtlas_) || bind)
    scene_->setRaymarchUniform("u_brickIndex", QVariant::fromValue(brickTextures_->indexTexture()));
}

std::uint64_t RaymarchView::sceneDataUploads() const {
  return scene_->sceneDataUploads() + uniformUploads_;
}

void RaymarchView::setField(const field::FieldProgram& program) {
  sceneField_.reset();
  const std::uint64_t hash = field::structureHash(program);
  std::vector<float> params = program.parameterValues(time_);
  if (shownHash_ == hash && !pending_) {
    if (params != shownParams_) {
      shownParams_ = std::move(params);
      noteMotion();
    }
    shownProgram_ = program;
    requestFrame();
    return;
  }
  if (pending_ && pending_->hash == hash) {
    pending_->params = std::move(params);
    pending_->program = program;
    requestFrame();
    return;
  }
  PendingShader next;
  next.source = render::viewportFragmentShader(field::emitGlsl(program), program.parameterCount());
  next.hash = hash;
  next.params = std::move(params);
  next.program = program;
  pending_ = std::move(next);
  requestFrame();
}

void RaymarchView::setFieldGlsl(const std::string& mapGlsl, std::uint64_t structureHash,
                                std::vector<float> parameterValues) {
  if (shownHash_ == structureHash && !pending_) {
    shownParams_ = std::move(parameterValues);
    shownProgram_.reset();
    noteMotion();
    return;
  }
  PendingShader next;
  next.source = render::viewportFragmentShader(mapGlsl, int(parameterValues.size()));
  next.hash = structureHash;
  next.params = std::move(parameterValues);
  pending_ = std::move(next);
  requestFrame();
}

void RaymarchView::setTime(double seconds) {
  if (!std::isfinite(seconds) || seconds == time_) return;
  time_ = seconds;
  if (pending_ && pending_->program) pending_->params = pending_->program->parameterValues(time_);
  if (shownProgram_ && shownProgram_->animated()) {
    shownParams_ = shownProgram_->parameterValues(time_);
    noteMotion();
  }
  if (sceneField_ && sceneField_->animated()) {
    sceneField_->refit(time_);
    if (uploadSceneData()) noteMotion();
  }
}

void RaymarchView::setMaterialColors(const render::MaterialColors& colors) {
  materials_ = colors;
  requestFrame();
}

bool RaymarchView::raymarchComputes() const {
  return scene_->stage() == RaymarchStage::Compute;
}

bool RaymarchView::hasShader() const {
  return hasShader_;
}

void RaymarchView::compilePending() {
  if (!pending_) return;
  PendingShader next = std::move(*pending_);
  pending_.reset();
  // Both passes' programs (ViewportScene::setRaymarchShader).
  QString log;
  for (const char* define : {render::kCoarsePassDefine, render::kCoarseInputDefine}) {
    const std::string source = render::withDefine(next.source, define);
    log = scene_->stage() == RaymarchStage::Compute
              ? checker_->checkCompute(render::computeShaderOf(source))
              : checker_->check(viewport_shaders::kFullscreenVertex, source);
    if (!log.isEmpty()) break;
  }
  if (!log.isEmpty()) {
    // Keep the shown shader and its parameters: the image stays the last good one.
    lastShaderError_ = log;
    sceneDataRefused_ = false;
    emit shaderError(log);
    return;
  }
  scene_->setRaymarchShader(next.source);
  ++compileCount_;
  hasShader_ = true;
  lastShaderError_.clear();
  shownHash_ = next.hash;
  shownParams_ = std::move(next.params);
  shownProgram_ = std::move(next.program);
  emit shaderCompiled();
}

// --- overlays --------------------------------------------------------------------------------

void RaymarchView::setSelectionBounds(const std::vector<Aabb>& boxes) {
  selection_ = boxes;
  requestFrame();
}

void RaymarchView::setGizmo(GizmoMode mode, Vec3 pivot) {
  gizmo_->setMode(mode);
  gizmo_->setPivot(pivot);
  requestFrame();
}

GizmoMode RaymarchView::gizmoMode() const {
  return gizmo_->mode();
}

void RaymarchView::setGizmoSnap(const GizmoSnap& snap) {
  gizmo_->setSnap(snap);
}

const GizmoSnap& RaymarchView::gizmoSnap() const {
  return gizmo_->snap();
}

void RaymarchView::setGridVisible(bool visible) {
  gridVisible_ = visible;
  requestFrame();
}

void RaymarchView::setOverlaysVisible(bool visible) {
  overlaysVisible_ = visible;
  requestFrame();
}

// --- camera ----------------------------------------------------------------------------------

void RaymarchView::setCamera(const render::Camera& camera) {
  cameraController_->setCamera(camera);
  noteMotion();
  emit cameraChanged();
}

render::Camera RaymarchView::camera() const {
  return cameraController_->camera();
}

void RaymarchView::frameBounds(const Aabb& bounds) {
  cameraController_->frame(bounds);
  noteMotion();
  emit cameraChanged();
}

Ray RaymarchView::rayAt(QPointF widgetPos) const {
  return camera().rayThroughPixel({float(widgetPos.x()), float(widgetPos.y())},
                                  std::max(width(), 1), std::max(height(), 1));
}

// --- frames ----------------------------------------------------------------------------------

void RaymarchView::setAdaptiveResolution(bool enabled) {
  adaptive_ = enabled;
  requestFrame();
}

void RaymarchView::noteMotion() {
  if (adaptive_) {
    moving_ = true;
    refineTimer_.start();
  }
  requestFrame();
}

QImage RaymarchView::captureImage() {
  if (!window_->isExposed()) return {};
  drawFrame(true);
  return lastCapture_.convertToFormat(QImage::Format_RGBA8888);
}

void RaymarchView::paintEvent(QPaintEvent*) {
  requestFrame();
}

void RaymarchView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  noteMotion();
}

void RaymarchView::requestFrame() {
  frameWanted_ = true;
  if (!frameTimer_.isActive()) frameTimer_.start();
}

void RaymarchView::drawFrame(bool full) {
  frameWanted_ = false;
  compilePending();
  const qreal dpr = window_->devicePixelRatio();
  const QSize size(std::max(1, int(std::lround(window_->width() * dpr))),
                   std::max(1, int(std::lround(window_->height() * dpr))));
  const float scale = (!full && moving_ && adaptive_) ? scale_ : 1.0f;
  const float aspect = float(size.width()) / float(size.height());
  scene_->setFrame(size, scale);

  // Raymarch uniforms: camera, time, packed parameters (arrays are named by element 0).
  const render::Camera cam = camera();
  const render::CameraBasis basis = cam.basis();
  scene_->setRaymarchUniform("u_camPos", toQt(cam.position));
  scene_->setRaymarchUniform("u_camRight", toQt(basis.right));
  scene_->setRaymarchUniform("u_camUp", toQt(basis.up));
  scene_->setRaymarchUniform("u_camForward", toQt(basis.forward));
  scene_->setRaymarchUniform("u_tanHalfFovY", cam.tanHalfFovY());
  scene_->setRaymarchUniform("u_aspect", aspect);
  scene_->setRaymarchUniform("u_time", float(time_));
  QVariantList packed;
  const int slotCount = render::packedParameterSlots(int(shownParams_.size()));
  for (int slot = 0; slot < slotCount; ++slot) {
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int c = 0; c < 4; ++c)
      if (std::size_t(slot * 4 + c) < shownParams_.size())
        v[c] = shownParams_[std::size_t(slot * 4 + c)];
    packed << QVector4D(v[0], v[1], v[2], v[3]);
  }
  scene_->setRaymarchUniform("u_params[0]", packed);
  QVariantList albedo;
  const int materialCount =
      int(std::min<std::size_t>(materials_.size(), render::shading::kMaxMaterials));
  for (int i = 0; i < render::shading::kMaxMaterials; ++i)
    albedo << (i < materialCount ? toQt(materials_[std::size_t(i)]) : QVector3D());
  scene_->setRaymarchUniform("u_materials[0]", albedo);
  scene_->setRaymarchUniform("u_materialCount", int(materials_.size()));

  // Overlays: camera, built-in lines, named layers.
  const Mat4 viewProj =
      cam.projectionMatrix(aspect, render::shading::kDepthNear, render::shading::kDepthFar) *
      cam.viewMatrix();
  scene_->setViewProjection(QMatrix4x4(glm::value_ptr(viewProj)).transposed(), toQt(cam.position));
  OverlayFrame overlay;
  overlay.visible = overlaysVisible_;
  overlay.grid = gridVisible_;
  for (const Aabb& box : selection_) addBox(overlay.selection, box, {1.0f, 0.62f, 0.1f, 1.0f});
  overlay.gizmo = gizmo_->lines(cam, gizmo_->dragging() ? gizmo_->dragAxis() : hotAxis_);
  overlay.layers = layers_.get();
  const OverlayEntities::Shown shown = overlays_->sync(overlay);

  // Qt 3D compiles a new program during the first frame that needs it and draws that frame
  // without the program's entities: such a frame is drawn again (the time counts both).
  const std::int64_t startNs = clock_.nsecsElapsed();
  for (int attempt = 0;; ++attempt) {
    const bool settled = scene_->programsSettled(shown.lines, shown.meshes);
    QImage image = scene_->drawFrame(full);
    scene_->noteFrameFinished();
    if (settled || attempt == kMaxRedraws) {
      if (full) lastCapture_ = std::move(image);
      break;
    }
  }
  lastFrameMs_ = double(clock_.nsecsElapsed() - startNs) / 1e6;
  lastScale_ = scale;
  ++frameCount_;
  if (lastScale_ < 1.0f) {
    // Aim the next moving frame at kTargetFrameMs: cost ~ pixel count ~ scale^2.
    const float wanted =
        lastScale_ * float(std::sqrt(kTargetFrameMs / std::max(lastFrameMs_, 1e-3)));
    scale_ = std::clamp(0.5f * scale_ + 0.5f * wanted, kMinScale, 1.0f);
  }
  emit frameTimeChanged(lastFrameMs_);
  if (frameWanted_) frameTimer_.start();
}

}  // namespace floptle::editor
