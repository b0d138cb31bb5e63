// PlaySession, Drift scenes: ripple placement.
#include "floptle/drift/sandbox.h"
#include "floptle/editor/play_session.h"

namespace floptle::editor {

bool PlaySession::placeRipple(double x, double z) {
  if (!sandbox() || state_ == PlayState::Stopped) return false;
  return sandbox()->queuePlacement(drift::Vec2d{x, z});
}

}  // namespace floptle::editor
