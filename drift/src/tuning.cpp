#include "floptle/drift/tuning.h"

#include <cmath>

namespace floptle::drift {

namespace {

bool bounded(double value) noexcept {
  return std::isfinite(value) && std::fabs(value) <= kMaxTuningMagnitude;
}

constexpr const char* kNotFinite = "must be a finite number of magnitude at most 1e9";

// Checks one scalar: finite and bounded, then the range given by `minimum` and whether the
// minimum itself is allowed.
TuningIssue checkScalar(const char* field, double value, double minimum, bool minimumAllowed,
                        const char* rangeProblem) noexcept {
  if (!bounded(value)) return {field, kNotFinite};
  if (value < minimum || (!minimumAllowed && value == minimum)) return {field, rangeProblem};
  return {};
}

TuningIssue checkVector(const char* field, Vec2d value) noexcept {
  if (!bounded(value.x) || !bounded(value.z)) return {field, kNotFinite};
  return {};
}

}  // namespace

TuningIssue validateTuning(const Tuning& t) noexcept {
  const TuningIssue checks[] = {
      checkScalar("boat_radius", t.boatRadius, 0.0, false, "must be > 0 (m)"),
      checkScalar("drag_rate", t.dragRate, 0.0, true, "must be >= 0 (1/s)"),
      checkVector("water_velocity", t.waterVelocity),
      checkScalar("speed_cap", t.speedCap, 0.0, false, "must be > 0 (m/s)"),
      checkScalar("ripple_start_radius", t.rippleStartRadius, 0.0, true, "must be >= 0 (m)"),
      checkScalar("ripple_growth", t.rippleGrowth, -kMaxTuningMagnitude, true, ""),
      checkScalar("ripple_half_width", t.rippleHalfWidth, 0.0, true, "must be >= 0 (m)"),
      checkScalar("ripple_lifetime", t.rippleLifetime, 0.0, false, "must be > 0 (s)"),
      checkScalar("ripple_impulse", t.rippleImpulse, 0.0, true, "must be >= 0 (m/s)"),
      checkScalar("ripple_attenuation", t.rippleAttenuation, 0.0, true, "must be >= 0 (1/s)"),
      checkScalar("placement_cooldown", t.placementCooldown, 0.0, true, "must be >= 0 (s)"),
  };
  for (const TuningIssue& issue : checks) {
    if (!issue.ok()) return issue;
  }
  // Relations between fields, checked once every field is in range on its own.
  if (t.rippleStartRadius + t.rippleGrowth * t.rippleLifetime < 0.0) {
    return {"ripple_growth",
            "shrinks the ring below zero radius within ripple_lifetime "
            "(need ripple_start_radius + ripple_growth * ripple_lifetime >= 0)"};
  }
  return {};
}

TuningIssue validateBoatStart(const BoatStart& start) noexcept {
  if (TuningIssue issue = checkVector("boat_position", start.position); !issue.ok()) return issue;
  return checkVector("boat_velocity", start.velocity);
}

}  // namespace floptle::drift
