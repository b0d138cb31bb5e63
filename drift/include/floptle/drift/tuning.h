#pragma once
// Drift's physical tuning and the boat's authored start state (seed 003, "Requirements and
// ownership"). The sandbox validates a whole Tuning before installing it: an invalid value is
// refused with the name of its field and the installed tuning stays as it was.
// Defaults are the seed's: 7 m/s speed cap, 0.7 /s drag, 0.35 m ring half-width, still water.

#include "floptle/drift/vec2d.h"

namespace floptle::drift {

/// Fixed simulation step of the sandbox (s): 60 Hz.
inline constexpr double kTickSeconds = 1.0 / 60.0;
/// Most ripples alive at once (-).
inline constexpr int kMaxRipples = 16;
/// Most placement commands waiting for their tick (-).
inline constexpr int kMaxQueuedPlacements = 32;
/// Largest magnitude any tuning or state value may have (m, m/s, s or 1/s): keeps every
/// derived quantity (band widths, per-tick growth, drag endpoints) comfortably finite.
inline constexpr double kMaxTuningMagnitude = 1e9;

struct Tuning {
  /// Hull radius of the circular boat (m), > 0.
  double boatRadius = 0.5;
  /// Linear drag rate k toward the water velocity (1/s), >= 0.
  double dragRate = 0.7;
  /// Constant water (current) velocity (m/s). Physical; not the ocean shader's pattern velocity.
  Vec2d waterVelocity{};
  /// Largest boat speed, enforced after impulses every tick (m/s), > 0.
  double speedCap = 7.0;
  /// Ring radius when a ripple is placed (m), >= 0.
  double rippleStartRadius = 0.0;
  /// Ring radius growth (m/s); may be negative if the ring stays >= 0 over its lifetime.
  double rippleGrowth = 4.0;
  /// Half-width of the water ring's band, WITHOUT the boat radius (m), >= 0. The contact band
  /// used by the sweep is rippleHalfWidth + boatRadius.
  double rippleHalfWidth = 0.35;
  /// How long a ripple lives after placement (s), > 0.
  double rippleLifetime = 2.5;
  /// Radial velocity change a fresh ripple gives the boat (m/s), >= 0.
  double rippleImpulse = 3.0;
  /// Impulse decay with ripple age: impulse * exp(-attenuation * age at contact) (1/s), >= 0.
  double rippleAttenuation = 0.5;
  /// Shortest time between two accepted placements (s), >= 0.
  double placementCooldown = 0.25;
};

/// The boat's state at the start of play (and after retry).
struct BoatStart {
  /// Centre on the water plane (m).
  Vec2d position{};
  /// Velocity on the water plane (m/s). Above the speed cap it is capped on the first tick.
  Vec2d velocity{};
};

/// A refused value: `field` is its JSON key ("drag_rate"), `problem` says why. Both null when
/// the value set is acceptable. Static strings, so validation allocates nothing.
struct TuningIssue {
  const char* field = nullptr;
  const char* problem = nullptr;
  bool ok() const noexcept { return field == nullptr; }
};

/// Validates every field of `tuning` and the relations between them.
TuningIssue validateTuning(const Tuning& tuning) noexcept;
/// Validates a boat start state (finite, within kMaxTuningMagnitude).
TuningIssue validateBoatStart(const BoatStart& start) noexcept;

}  // namespace floptle::drift
