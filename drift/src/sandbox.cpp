// Sandbox lifecycle: tuning installation, command queue, frame clock, pause/hide/retry.
// The tick pipeline itself is in sandbox_tick.cpp.
#include <cmath>

#include "floptle/drift/sandbox.h"

namespace floptle::drift {

Sandbox::Sandbox() noexcept {
  installTuning(tuning_);
  retry();
  trace_.clear();
}

TuningIssue Sandbox::restart(const Tuning& tuning, const BoatStart& start) noexcept {
  if (TuningIssue issue = validateTuning(tuning); !issue.ok()) return issue;
  if (TuningIssue issue = validateBoatStart(start); !issue.ok()) return issue;
  installTuning(tuning);
  start_ = start;
  retry();
  counters_ = {};
  trace_.clear();
  return {};
}

TuningIssue Sandbox::setTuning(const Tuning& tuning) noexcept {
  TuningIssue issue = validateTuning(tuning);
  if (!issue.ok()) return issue;
  installTuning(tuning);
  Event event;
  event.tick = tick_;
  event.kind = EventKind::tuningChange;
  trace_.push(event);
  return issue;
}

void Sandbox::installTuning(const Tuning& tuning) noexcept {
  // Only called with a validated tuning: every derived value below is finite.
  tuning_ = tuning;
  makeDragCoefficients(tuning.dragRate, kTickSeconds, drag_);
  contactHalfWidth_ = tuning.rippleHalfWidth + tuning.boatRadius;
  // Whole-tick counts are snapped so that e.g. 2.5 s is exactly 150 ticks despite rounding.
  lifetimeTicks_ = tuning.rippleLifetime / kTickSeconds;
  if (std::fabs(lifetimeTicks_ - std::round(lifetimeTicks_)) < 1e-9 * lifetimeTicks_) {
    lifetimeTicks_ = std::round(lifetimeTicks_);
  }
  cooldownTicks_ =
      static_cast<std::uint64_t>(std::ceil(tuning.placementCooldown / kTickSeconds - 1e-9));
}

bool Sandbox::queuePlacement(Vec2d position) noexcept {
  return schedulePlacement(tick_, position);
}

bool Sandbox::schedulePlacement(std::uint64_t tick, Vec2d position) noexcept {
  if (paused_ || hidden_ || queuedCount_ == kMaxQueuedPlacements || !isFinite(position)) {
    return false;
  }
  // Keep the queue ordered by tick; equal ticks keep their arrival order.
  int at = queuedCount_;
  while (at > 0 && queue_[at - 1].tick > tick) {
    queue_[at] = queue_[at - 1];
    --at;
  }
  queue_[at] = {tick, position};
  ++queuedCount_;
  return true;
}

int Sandbox::advanceFrame(double frameDelta) noexcept {
  const int ticks = admitFrame(frameDelta);
  for (int i = 0; i < ticks; ++i) tick();
  return ticks;
}

int Sandbox::admitFrame(double frameDelta) noexcept {
  if (paused_ || hidden_) return 0;
  const std::uint64_t discardedBefore = clock_.discardedTicks();
  const int ticks = clock_.advance(frameDelta);
  counters_.discardedTicks += clock_.discardedTicks() - discardedBefore;
  return ticks;
}

void Sandbox::stopTime() noexcept {
  queuedCount_ = 0;
  clock_.pause();  // Clears the debt, hence alpha.
  previous_ = boat_;
  interpolate_ = false;
}

void Sandbox::setPaused(bool paused) noexcept {
  if (paused == paused_) return;
  paused_ = paused;
  if (paused_) {
    stopTime();
  } else if (!hidden_) {
    clock_.resume();
  }
}

void Sandbox::setHidden(bool hidden) noexcept {
  if (hidden == hidden_) return;
  hidden_ = hidden;
  if (hidden_) {
    stopTime();
  } else if (!paused_) {
    clock_.resume();
  }
}

void Sandbox::retry() noexcept {
  if (tick_ != 0 || rippleCount_ != 0 || counters_.ticks != 0) {
    Event event;
    event.tick = tick_;
    event.kind = EventKind::retry;
    trace_.push(event);
  }
  boat_.position = start_.position;
  boat_.velocity = start_.velocity;
  // Heading about +Y from +Z toward +X (rad); a boat at rest faces +Z.
  boat_.heading =
      length(start_.velocity) > 0.0 ? std::atan2(start_.velocity.x, start_.velocity.z) : 0.0;
  previous_ = boat_;
  interpolate_ = false;
  tick_ = 0;
  nextRippleId_ = 1;
  nextPlacementTick_ = 0;
  rippleCount_ = 0;
  queuedCount_ = 0;
  hasContact_ = false;
  clock_.reset();
}

double Sandbox::rippleAgeTicks(const Ripple& ripple) const noexcept {
  return static_cast<double>(tick_ - ripple.bornTick);
}

}  // namespace floptle::drift
