#pragma once
// Swept expanding radial band (seed 003, "Timing and numerical model").
//
// A ring has centre o (m), radius r0 (m) at sweep start, growth g (m) across the sweep and a
// contact half-width w (m) that already includes the mover's radius. A point moves linearly
// from p0 to p1 while the parameter t runs over [0, 1]. The query returns the earliest t with
//
//   | length(p0 + t (p1 - p0) - o) - (r0 + t g) | <= w.
//
// Method: a point that starts in the band is a contact at t = 0. Otherwise the first contact
// lies on one of the two signed band boundaries s(t) = (r0 -/+ w) + t g, so it is the earliest
// root in [0, 1] of |p(t) - o|^2 = s(t)^2 whose signed radius s(t) is >= 0 (squaring adds
// roots on negative radii, which are rejected). The quadratics are solved with the
// cancellation-free root pair q / A, C / q, on coefficients scaled by an exact power of two so
// that no square overflows even for coordinates near the double range. Shrinking bands (g < 0)
// and stationary sweeps (p0 == p1) take the same path.
//
// A general kernel: no boat or water rules. noexcept, no allocation.

#include "floptle/drift/vec2d.h"

namespace floptle::drift {

/// Outcome of a band sweep. Only `hit` writes the contact output.
enum class BandSweepStatus : unsigned char {
  hit,
  miss,
  /// Non-finite input, negative start radius or negative half-width.
  invalidInput,
  /// Valid input whose arithmetic still produced a non-finite value (defensive; the
  /// power-of-two scaling is meant to make this unreachable for finite input).
  numericFailure,
};

/// One ring over one sweep interval.
struct ExpandingBand {
  /// Ring centre (m).
  Vec2d centre;
  /// Ring radius at t = 0 (m), >= 0.
  double startRadius = 0.0;
  /// Radius change across the whole sweep, t: 0 -> 1 (m); negative for a shrinking ring.
  double growth = 0.0;
  /// Contact half-width of the band, including the mover's radius (m), >= 0.
  double halfWidth = 0.0;
};

/// A linear sweep of the mover's centre, parameterised by t in [0, 1].
struct LinearSweep {
  /// Centre at t = 0 (m).
  Vec2d start;
  /// Centre at t = 1 (m).
  Vec2d end;
};

/// The first contact of a sweep with a band.
struct BandContact {
  /// Earliest contact parameter t (-), in [0, 1].
  double fraction = 0.0;
  /// Mover centre at the contact (m).
  Vec2d point;
  /// Unit radial direction from the ring centre to the contact point (-); zero when the
  /// point coincides with the centre (then no direction exists and no impulse applies).
  Vec2d normal;
};

/// Finds the earliest contact of `sweep` with `band`. Writes `out` only on `hit`.
BandSweepStatus sweepExpandingBand(const ExpandingBand& band, const LinearSweep& sweep,
                                   BandContact& out) noexcept;

}  // namespace floptle::drift
