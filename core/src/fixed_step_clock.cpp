#include "floptle/core/fixed_step_clock.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace floptle {

FixedStepClock::FixedStepClock(Settings settings) : settings_(settings) {
  assert(settings_.fixedDt > 0.0 && std::isfinite(settings_.fixedDt));
  assert(settings_.maxTicksPerFrame >= 1);
  assert(settings_.maxFrameDelta >= 0.0);
}

int FixedStepClock::advance(double frameDelta) {
  if (paused_) return 0;
  if (!std::isfinite(frameDelta) || frameDelta < 0.0) frameDelta = 0.0;
  frameDelta = std::min(frameDelta, settings_.maxFrameDelta);

  debt_ += frameDelta;
  // A relative tolerance so that e.g. 2 x (1/120) s yields one tick of 1/60 s despite rounding.
  const double dt = settings_.fixedDt;
  auto whole = static_cast<std::int64_t>(std::floor(debt_ / dt + 1e-9));
  if (whole <= 0) return 0;
  debt_ = std::max(0.0, debt_ - static_cast<double>(whole) * dt);

  const std::int64_t run = std::min<std::int64_t>(whole, settings_.maxTicksPerFrame);
  discarded_ += static_cast<std::uint64_t>(whole - run);
  issued_ += static_cast<std::uint64_t>(run);
  return static_cast<int>(run);
}

void FixedStepClock::pause() {
  paused_ = true;
  debt_ = 0.0;
}

void FixedStepClock::resume() {
  paused_ = false;
}

void FixedStepClock::reset() {
  debt_ = 0.0;
}

}  // namespace floptle
