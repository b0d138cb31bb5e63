// RaymarchView: mouse, wheel and keyboard (orbit, pan, fly, clicks, gizmo drags), and the
// forwarding of the input that reaches the hosted Qt 3D window to the same handlers.
#include "floptle/editor/raymarch_view.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QLineF>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QWindow>

#include <algorithm>

#include "viewport/camera_controller.h"
#include "viewport/gizmo.h"

namespace floptle::editor {

namespace {
/// Press-to-release travel below which a press is a click (pixels).
constexpr double kClickSlop = 4.0;
}  // namespace

bool RaymarchView::eventFilter(QObject* watched, QEvent* event) {
  if (watched != window_) return QWidget::eventFilter(watched, event);
  switch (event->type()) {
    case QEvent::Expose:
      if (window_->isExposed()) noteMotion();
      return false;
    case QEvent::Resize:
      // The container resizes the window after this widget's own resizeEvent: a frame asked
      // for there could still see the old size and leave the new area unpainted.
      noteMotion();
      return false;
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonRelease:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseMove:
    case QEvent::Wheel:
    case QEvent::KeyPress:
    case QEvent::KeyRelease:
    case QEvent::ShortcutOverride: {
      // The window fills this widget: its coordinates are the widget's. Sent through the
      // widget (not its handlers directly) so event filters on the view see them too.
      std::unique_ptr<QEvent> copy(event->clone());
      QCoreApplication::sendEvent(this, copy.get());
      event->setAccepted(copy->isAccepted());
      return true;
    }
    default:
      return false;
  }
}

void RaymarchView::mousePressEvent(QMouseEvent* event) {
  setFocus(Qt::MouseFocusReason);
  pressPos_ = lastPos_ = event->position();
  if (event->button() == Qt::LeftButton) {
    const Vec2 pixel{float(event->position().x()), float(event->position().y())};
    if (auto axis = gizmo_->hitTest(camera(), width(), height(), pixel)) {
      if (gizmo_->beginDrag(*axis, rayAt(event->position()), camera())) {
        drag_ = Drag::Gizmo;
        emit gizmoDragStarted(gizmo_->mode());
        requestFrame();
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
      const auto hot =
          gizmo_->hitTest(camera(), width(), height(), {float(pos.x()), float(pos.y())});
      if (hot != hotAxis_) {
        hotAxis_ = hot;
        requestFrame();
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
    requestFrame();
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
      case Qt::Key_W:
      case Qt::Key_A:
      case Qt::Key_S:
      case Qt::Key_D:
      case Qt::Key_Q:
      case Qt::Key_E:
        event->accept();  // a key press for the fly, not the shortcut
        return true;
      default:
        break;
    }
  }
  return QWidget::event(event);
}

void RaymarchView::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape && drag_ == Drag::Gizmo) {
    drag_ = Drag::None;
    gizmo_->endDrag();
    emit gizmoDragCancelled();
    requestFrame();
    return;
  }
  if (drag_ == Drag::Look && !event->isAutoRepeat()) {
    switch (event->key()) {
      case Qt::Key_W:
      case Qt::Key_A:
      case Qt::Key_S:
      case Qt::Key_D:
      case Qt::Key_Q:
      case Qt::Key_E:
        flyKeys_.insert(event->key());
        return;
      default:
        break;
    }
  }
  QWidget::keyPressEvent(event);
}

void RaymarchView::keyReleaseEvent(QKeyEvent* event) {
  if (!event->isAutoRepeat()) flyKeys_.erase(event->key());
  QWidget::keyReleaseEvent(event);
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
  cameraController_->fly(axes, speed * shift * float(flyTimer_.interval()) / 1000.0f);
  noteMotion();
  emit cameraChanged();
}

}  // namespace floptle::editor
