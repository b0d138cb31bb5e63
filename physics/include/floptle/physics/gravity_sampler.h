#pragma once
// GravitySampler: what gravity a body at a point obeys (the seam gravity/ fills). The
// simulation's sampleGravity stage asks it once per body per tick, at the body's position at
// the start of the tick, and every later stage of that tick reads the body's own vector.
#include <cstdint>

#include "floptle/core/math.h"

namespace floptle::physics {

class Simulation;

/// Whose gravity a sample is: a character or a rigid body of the simulation, by index.
struct GravityReceiver {
  enum class Kind { Character, Body };
  Kind kind = Kind::Body;
  std::uint32_t index = 0;
};

class GravitySampler {
 public:
  virtual ~GravitySampler() = default;
  /// Gravitational acceleration at world point p at time t (m/s^2). Finite for finite p.
  virtual Vec3 sample(Vec3 p, double t) const = 0;
  /// What `receiver` at p obeys (before its response): sample(p, t), unless the field gives
  /// that receiver a field of its own (runtime's scripts: gravity.set_mode on a body).
  virtual Vec3 sampleFor(GravityReceiver /*receiver*/, Vec3 p, double t) const {
    return sample(p, t);
  }
  /// Rate a body's gravity eases towards each new sample (1/s): an exponential moving
  /// average, 1 - exp(-rate dt) of the difference a tick; 0 takes each sample at once.
  virtual float easingRate() const { return 0.0f; }
  /// Called by the sampleGravity stage at the start of each tick, before its samples: a field
  /// that follows the simulation's state (density-field gravity, bodies as masses) updates
  /// its cache here. That cache is the sampler's own mutable state behind this const
  /// interface, a function of the simulation's tick and state alone (so lockstep runs and
  /// save / restore stay bit-identical); it never runs alongside sample().
  virtual void beginTick(const Simulation& /*simulation*/, double /*tStart*/) const {}
};

}  // namespace floptle::physics
