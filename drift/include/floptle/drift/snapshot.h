#pragma once
// Read-only, interpolated view of the Drift sandbox for rendering and debug overlays
// (seed 003: render extraction narrows bounded values to float32). Taking one never changes
// the simulation; presentation can be skipped entirely.

#include <cstdint>

#include "floptle/drift/tuning.h"

namespace floptle::drift {

struct RippleView {
  /// Monotonic ripple id (-).
  std::uint64_t id = 0;
  /// Ring centre (m).
  float centreX = 0.0f;
  float centreZ = 0.0f;
  /// Ring radius at the interpolated time (m); may be < 0 for a collapsed shrinking ring.
  float radius = 0.0f;
  /// Physical band half-width of the water ring, without the boat radius (m).
  float halfWidth = 0.0f;
  /// Age at the interpolated time (s) and lifetime (s).
  float age = 0.0f;
  float lifetime = 0.0f;
  /// True once this ripple has pushed the boat (it never pushes again).
  bool contacted = false;
};

struct Snapshot {
  /// Ticks completed (-) and interpolation factor between the previous and current tick (-).
  std::uint64_t tick = 0;
  float alpha = 0.0f;
  /// Boat centre (m), velocity (m/s), heading about +Y from +Z toward +X (rad), radius (m).
  float boatX = 0.0f;
  float boatZ = 0.0f;
  float velocityX = 0.0f;
  float velocityZ = 0.0f;
  float heading = 0.0f;
  float boatRadius = 0.0f;
  /// Water (current) velocity (m/s).
  float waterVelocityX = 0.0f;
  float waterVelocityZ = 0.0f;
  /// The most recent contact, for the overlay: tick, ripple, fraction (-), normal (-).
  bool hasContact = false;
  std::uint64_t contactTick = 0;
  std::uint64_t contactRipple = 0;
  float contactFraction = 0.0f;
  float contactNormalX = 0.0f;
  float contactNormalZ = 0.0f;
  /// Live ripples, ordered by id.
  RippleView ripples[kMaxRipples];
  int rippleCount = 0;
};

}  // namespace floptle::drift
