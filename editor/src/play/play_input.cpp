// PlayMode, input while playing: keys and the right mouse button on the viewport become the
// player's controls and the follow camera's turn; a click on the water places a ripple.
#include <cmath>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QResizeEvent>

#include "floptle/editor/main_window.h"
#include "floptle/editor/play_mode.h"
#include "floptle/editor/raymarch_view.h"

namespace floptle::editor {
namespace {

bool isControlKey(int key) {
  switch (key) {
    case Qt::Key_W:
    case Qt::Key_A:
    case Qt::Key_S:
    case Qt::Key_D:
    case Qt::Key_Space:
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Left:
    case Qt::Key_Right:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool PlayMode::handleClick(const Ray& ray) {
  if (!session_.active() || session_.kind() != PlayKind::Drift) return false;
  // The water is the y = 0 plane; a ray parallel to it or pointing away never meets it.
  if (!(std::abs(ray.direction.y) > 1e-6f)) return false;
  const float t = -ray.origin.y / ray.direction.y;
  if (!(t > 0.0f) || !std::isfinite(t)) return false;
  const Vec3 hit = ray.at(t);
  return session_.placeRipple(double(hit.x), double(hit.z));
}

bool PlayMode::eventFilter(QObject* watched, QEvent* event) {
  if (watched != window_.viewport() || !session_.active())
    return QObject::eventFilter(watched, event);
  switch (event->type()) {
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
      auto* key = static_cast<QKeyEvent*>(event);
      if (!isControlKey(key->key()) || key->modifiers() & (Qt::ControlModifier | Qt::AltModifier))
        break;
      if (key->isAutoRepeat()) return true;
      if (event->type() == QEvent::KeyPress) {
        keys_.insert(key->key());
        if (key->key() == Qt::Key_Space) session_.jump();
      } else {
        keys_.erase(key->key());
      }
      updateControls();
      return true;  // the viewport's fly keys stay off while playing
    }
    case QEvent::MouseButtonPress: {
      auto* mouse = static_cast<QMouseEvent*>(event);
      if (mouse->button() != Qt::RightButton || session_.kind() == PlayKind::Drift) break;
      turning_ = true;
      lastMouse_ = mouse->position();
      return true;
    }
    case QEvent::MouseMove: {
      if (!turning_) break;
      auto* mouse = static_cast<QMouseEvent*>(event);
      const QPointF d = mouse->position() - lastMouse_;
      lastMouse_ = mouse->position();
      yaw_ += 0.006 * d.x();
      pitch_ = std::clamp(pitch_ + 0.006 * d.y(), -0.2, 1.4);
      updateControls();  // W follows the view direction
      return true;
    }
    case QEvent::MouseButtonRelease: {
      auto* mouse = static_cast<QMouseEvent*>(event);
      if (!turning_ || mouse->button() != Qt::RightButton) break;
      turning_ = false;
      return true;
    }
    case QEvent::Resize:
      placeHudWidgets();
      break;
    case QEvent::FocusOut:
      keys_.clear();  // a key released elsewhere must not keep walking
      updateControls();
      break;
    default:
      break;
  }
  return QObject::eventFilter(watched, event);
}

// W / S along the view's horizontal direction (yaw about the eased up), A / D across it;
// arrows: Up throttle, Down reverse throttle, Left / Right steer; Space brakes the vehicle
// when the scene has no character to jump.
void PlayMode::updateControls() {
  const float forwardInput = float(keys_.count(Qt::Key_W)) - float(keys_.count(Qt::Key_S));
  const float rightInput = float(keys_.count(Qt::Key_D)) - float(keys_.count(Qt::Key_A));
  // Yaw 0 looks along -Z; positive yaw turns toward +X (see PlayMode::updateCamera).
  const Vec2 forward(float(std::sin(yaw_)), -float(std::cos(yaw_)));
  const Vec2 right(float(std::cos(yaw_)), float(std::sin(yaw_)));
  Vec2 move = forward * forwardInput + right * rightInput;
  const float len = glm::length(move);
  if (len > 1.0f) move /= len;
  session_.setMove(move);
  const float throttle = float(keys_.count(Qt::Key_Up)) - float(keys_.count(Qt::Key_Down));
  const float steer = float(keys_.count(Qt::Key_Left)) - float(keys_.count(Qt::Key_Right));
  const float brake = !session_.playerCharacter() && keys_.count(Qt::Key_Space) ? 1.0f : 0.0f;
  session_.setVehicleControls(throttle, brake, steer);
}

}  // namespace floptle::editor
