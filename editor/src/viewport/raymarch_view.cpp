#include "floptle/editor/raymarch_view.h"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QLineF>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "floptle/core/field/field_glsl.h"
#include "floptle/core/render/raymarch_glsl.h"
#include "viewport/camera_controller.h"
#include "viewport/gizmo.h"
#include "viewport/overlay_layers.h"
#include "viewport/viewport_renderer.h"

namespace floptle::editor {

namespace {
/// Frame time the adaptive resolution aims for while something moves (ms).
constexpr double kTargetFrameMs = 33.0;
constexpr float kMinScale = 0.1f;
/// Quiet time after the last motion before the full-resolution frame (ms).
constexpr int kRefineDelayMs = 250;
/// Press-to-release travel below which a press is a click (pixels).
constexpr double kClickSlop = 4.0;
constexpr int kFlyIntervalMs = 16;
constexpr float kGridHalfSize = 50.0f;  // (m)

std::vector<OverlayLine> gridLines() {
  std::vector<OverlayLine> lines;
  const int n = int(kGridHalfSize);
  for (int i = -n; i <= n; ++i) {
    const float v = float(i);
    const bool major = i % 10 == 0;
    Vec4 color = major ? Vec4(0.25f, 0.25f, 0.28f, 0.55f) : Vec4(0.3f, 0.3f, 0.33f, 0.25f);
    Vec4 xColor = i == 0 ? Vec4(0.85f, 0.2f, 0.2f, 0.8f) : color;  // the X axis (z = 0)
    Vec4 zColor = i == 0 ? Vec4(0.2f, 0.35f, 0.9f, 0.8f) : color;  // the Z axis (x = 0)
    lines.push_back({{-kGridHalfSize, 0.0f, v}, {kGridHalfSize, 0.0f, v}, xColor});
    lines.push_back({{v, 0.0f, -kGridHalfSize}, {v, 0.0f, kGridHalfSize}, zColor});
  }
  return lines;
}

void addBox(std::vector<OverlayLine>& out, const Aabb& box, Vec4 color) {
  if (box.empty()) return;
  const Vec3 lo = glm::max(box.min, Vec3(-kGridHalfSize)), hi = glm::min(box.max, Vec3(kGridHalfSize));
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
}  // namespace

RaymarchView::RaymarchView(QWidget* parent)
    : QOpenGLWidget(parent),
      cameraController_(std::make_unique<CameraController>()),
      gizmo_(std::make_unique<Gizmo>()),
      layers_(std::make_unique<OverlayLayers>()) {
  QSurfaceFormat format = QSurfaceFormat::defaultFormat();
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  setFormat(format);
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(64, 48);
  refineTimer_.setSingleShot(true);
  refineTimer_.setInterval(kRefineDelayMs);
  connect(&refineTimer_, &QTimer::timeout, this, [this] {
    moving_ = false;
    update();
  });
  flyTimer_.setInterval(kFlyIntervalMs);
  connect(&flyTimer_, &QTimer::timeout, this, &RaymarchView::flyTick);
}

RaymarchView::~RaymarchView() { cleanupGL(); }

void RaymarchView::cleanupGL() {
  if (!renderer_) return;
  makeCurrent();
  renderer_->release();
  renderer_.reset();
  doneCurrent();
}

// --- field -----------------------------------------------------------------------------------

void RaymarchView::setField(const field::FieldProgram& program) {
  const std::uint64_t hash = field::structureHash(program);
  std::vector<float> params = program.parameterValues(time_);
  if (shownHash_ == hash && !pending_) {
    if (params != shownParams_) {
      shownParams_ = std::move(params);
      noteMotion();
    }
    shownProgram_ = program;
    update();
    return;
  }
  if (pending_ && pending_->hash == hash) {
    pending_->params = std::move(params);
    pending_->program = program;
    update();
    return;
  }
  PendingShader next;
  next.source = render::viewportFragmentShader(field::emitGlsl(program), program.parameterCount());
  next.hash = hash;
  next.params = std::move(params);
  next.program = program;
  pending_ = std::move(next);
  update();
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
  update();
}

void RaymarchView::setTime(double seconds) {
  if (!std::isfinite(seconds) || seconds == time_) return;
  time_ = seconds;
  if (pending_ && pending_->program) pending_->params = pending_->program->parameterValues(time_);
  if (shownProgram_ && shownProgram_->animated()) {
    shownParams_ = shownProgram_->parameterValues(time_);
    noteMotion();
  }
}

void RaymarchView::setMaterialColors(const render::MaterialColors& colors) {
  materials_ = colors;
  update();
}

bool RaymarchView::hasShader() const { return renderer_ && renderer_->hasRaymarch(); }

void RaymarchView::compilePending() {
  if (!pending_ || !renderer_) return;
  PendingShader next = std::move(*pending_);
  pending_.reset();
  const QString log = renderer_->compileRaymarch(next.source);
  if (!log.isEmpty()) {
    // Keep the shown shader and its parameters: the image stays the last good one.
    lastShaderError_ = log;
    emit shaderError(log);
    return;
  }
  lastShaderError_.clear();
  shownHash_ = next.hash;
  shownParams_ = std::move(next.params);
  shownProgram_ = std::move(next.program);
  emit shaderCompiled();
}

// --- overlays --------------------------------------------------------------------------------

void RaymarchView::setSelectionBounds(const std::vector<Aabb>& boxes) {
  selection_ = boxes;
  update();
}

void RaymarchView::setGizmo(GizmoMode mode, Vec3 pivot) {
  gizmo_->setMode(mode);
  gizmo_->setPivot(pivot);
  update();
}

GizmoMode RaymarchView::gizmoMode() const { return gizmo_->mode(); }

void RaymarchView::setGizmoSnap(const GizmoSnap& snap) { gizmo_->setSnap(snap); }

const GizmoSnap& RaymarchView::gizmoSnap() const { return gizmo_->snap(); }

void RaymarchView::setGridVisible(bool visible) {
  gridVisible_ = visible;
  update();
}

void RaymarchView::setOverlaysVisible(bool visible) {
  overlaysVisible_ = visible;
  update();
}

// --- camera ----------------------------------------------------------------------------------

void RaymarchView::setCamera(const render::Camera& camera) {
  cameraController_->setCamera(camera);
  noteMotion();
  emit cameraChanged();
}

render::Camera RaymarchView::camera() const { return cameraController_->camera(); }

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
  update();
}

void RaymarchView::noteMotion() {
  if (adaptive_) {
    moving_ = true;
    refineTimer_.start();
  }
  update();
}

QImage RaymarchView::captureImage() {
  forceFull_ = true;
  QImage image = grabFramebuffer();
  forceFull_ = false;
  return image.convertToFormat(QImage::Format_RGBA8888);
}

void RaymarchView::initializeGL() {
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &RaymarchView::cleanupGL,
          Qt::UniqueConnection);
  renderer_ = std::make_unique<ViewportRenderer>();
  renderer_->initialize();
  // The first frame comes coarse (fast on a software GL), the refined one right after.
  noteMotion();
}

void RaymarchView::resizeGL(int, int) { noteMotion(); }

void RaymarchView::paintGL() {
  if (!renderer_) return;
  compilePending();
  QElapsedTimer timer;
  timer.start();

  const qreal dpr = devicePixelRatioF();
  ViewportFrame frame;
  frame.camera = camera();
  frame.width = std::max(1, int(std::lround(width() * dpr)));
  frame.height = std::max(1, int(std::lround(height() * dpr)));
  frame.scale = (moving_ && adaptive_ && !forceFull_) ? scale_ : 1.0f;
  frame.time = time_;
  frame.params = &shownParams_;
  frame.materials = &materials_;
  frame.targetFramebuffer = defaultFramebufferObject();
  if (overlaysVisible_) {
    if (gridVisible_) {
      static const std::vector<OverlayLine> grid = gridLines();
      frame.grid = grid;
    }
    for (const Aabb& box : selection_) addBox(frame.selection, box, {1.0f, 0.62f, 0.1f, 1.0f});
    frame.gizmo = gizmo_->lines(frame.camera, gizmo_->dragging() ? gizmo_->dragAxis() : hotAxis_);
    frame.layers = layers_.get();
  }
  renderer_->render(frame);
  context()->functions()->glFinish();

  lastFrameMs_ = double(timer.nsecsElapsed()) / 1e6;
  lastScale_ = frame.scale;
  ++frameCount_;
  if (frame.scale < 1.0f) {
    // Aim the next moving frame at kTargetFrameMs: cost ~ pixel count ~ scale^2.
    const float wanted = frame.scale * float(std::sqrt(kTargetFrameMs / std::max(lastFrameMs_, 1e-3)));
    scale_ = std::clamp(0.5f * scale_ + 0.5f * wanted, kMinScale, 1.0f);
  }
  emit frameTimeChanged(lastFrameMs_);
}

// --- input -----------------------------------------------------------------------------------

void RaymarchView::mousePressEvent(QMouseEvent* event) {
  setFocus(Qt::MouseFocusReason);
  pressPos_ = lastPos_ = event->position();
  if (event->button() == Qt::LeftButton) {
    const Vec2 pixel{float(event->position().x()), float(event->position().y())};
    if (auto axis = gizmo_->hitTest(camera(), width(), height(), pixel)) {
      if (gizmo_->beginDrag(*axis, rayAt(event->position()), camera())) {
        drag_ = Drag::Gizmo;
        emit gizmoDragStarted(gizmo_->mode());
        update();
        return;
      }
    }
    drag_ = (event->modifiers() & Qt::ShiftModifier) ? Drag::Pan : Drag::Pending;
  } else if (event->button() == Qt::MiddleButton) {
    drag_ = Drag::Pan;
  } else if (event->button() == Qt::RightButton) {
    drag_ = Drag::Look;
    flyTimer_.start();
  }
}

void RaymarchView::mouseMoveEvent(QMouseEvent* event) {
  const QPointF pos = event->position();
  const Vec2 delta{float(pos.x() - lastPos_.x()), float(pos.y() - lastPos_.y())};
  lastPos_ = pos;
  switch (drag_) {
    case Drag::None: {
      const auto hot = gizmo_->hitTest(camera(), width(), height(), {float(pos.x()), float(pos.y())});
      if (hot != hotAxis_) {
        hotAxis_ = hot;
        update();
      }
      return;
    }
    case Drag::Pending:
      if (QLineF(pos, pressPos_).length() < kClickSlop) return;
      drag_ = Drag::Orbit;
      [[fallthrough]];
    case Drag::Orbit:
      cameraController_->orbit(delta);
      break;
    case Drag::Pan:
      cameraController_->pan(delta, float(height()));
      break;
    case Drag::Look:
      cameraController_->look(delta);
      break;
    case Drag::Gizmo:
      emit gizmoDragged(gizmo_->drag(rayAt(pos)));
      noteMotion();
      return;
  }
  noteMotion();
  emit cameraChanged();
}

void RaymarchView::mouseReleaseEvent(QMouseEvent* event) {
  const Drag finished = drag_;
  drag_ = Drag::None;
  if (event->button() == Qt::RightButton) {
    flyTimer_.stop();
    flyKeys_.clear();
  }
  if (finished == Drag::Gizmo) {
    const GizmoDelta delta = gizmo_->drag(rayAt(event->position()));
    gizmo_->endDrag();
    emit gizmoDragFinished(delta);
    update();
  } else if (finished == Drag::Pending && event->button() == Qt::LeftButton) {
    const Ray ray = rayAt(event->position());
    emit clicked(event->position(), ray, event->modifiers());
    emit pickRequested(ray);
  }
}

void RaymarchView::wheelEvent(QWheelEvent* event) {
  cameraController_->zoom(float(event->angleDelta().y()) / 120.0f);
  noteMotion();
  emit cameraChanged();
  event->accept();
}

bool RaymarchView::event(QEvent* event) {
  if (event->type() == QEvent::ShortcutOverride && drag_ == Drag::Look) {
    switch (static_cast<QKeyEvent*>(event)->key()) {
      case Qt::Key_W: case Qt::Key_A: case Qt::Key_S: case Qt::Key_D: case Qt::Key_Q: case Qt::Key_E:
        event->accept();  // a key press for the fly, not the shortcut
        return true;
      default:
        break;
    }
  }
  return QOpenGLWidget::event(event);
}

void RaymarchView::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape && drag_ == Drag::Gizmo) {
    drag_ = Drag::None;
    gizmo_->endDrag();
    emit gizmoDragCancelled();
    update();
    return;
  }
  if (drag_ == Drag::Look && !event->isAutoRepeat()) {
    switch (event->key()) {
      case Qt::Key_W: case Qt::Key_A: case Qt::Key_S: case Qt::Key_D: case Qt::Key_Q: case Qt::Key_E:
        flyKeys_.insert(event->key());
        return;
      default:
        break;
    }
  }
  QOpenGLWidget::keyPressEvent(event);
}

void RaymarchView::keyReleaseEvent(QKeyEvent* event) {
  if (!event->isAutoRepeat()) flyKeys_.erase(event->key());
  QOpenGLWidget::keyReleaseEvent(event);
}

void RaymarchView::flyTick() {
  if (flyKeys_.empty()) return;
  Vec3 axes(0.0f);
  if (flyKeys_.count(Qt::Key_W)) axes.z += 1.0f;
  if (flyKeys_.count(Qt::Key_S)) axes.z -= 1.0f;
  if (flyKeys_.count(Qt::Key_D)) axes.x += 1.0f;
  if (flyKeys_.count(Qt::Key_A)) axes.x -= 1.0f;
  if (flyKeys_.count(Qt::Key_E)) axes.y += 1.0f;
  if (flyKeys_.count(Qt::Key_Q)) axes.y -= 1.0f;
  // Speed grows with the orbit distance so small and large scenes both feel right (m/s).
  const float speed = std::max(cameraController_->distance(), 1.0f);
  const float shift = (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier) ? 3.0f : 1.0f;
  cameraController_->fly(axes, speed * shift * float(kFlyIntervalMs) / 1000.0f);
  noteMotion();
  emit cameraChanged();
}

}  // namespace floptle::editor
