#include "floptle/drift/vec2d.h"

#include <cmath>

namespace floptle::drift {

double length(Vec2d v) noexcept {
  return std::hypot(v.x, v.z);
}

bool isFinite(Vec2d v) noexcept {
  return std::isfinite(v.x) && std::isfinite(v.z);
}

}  // namespace floptle::drift
