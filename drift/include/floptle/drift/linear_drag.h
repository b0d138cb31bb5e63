#pragma once
// Exact linear drag toward a constant water velocity (seed 003, "Timing and numerical model").
//
//   dv/dt = -k (v - u)                       u: water velocity (m/s), k >= 0: drag rate (1/s)
//   v1 = u + (v0 - u) exp(-k dt)
//   x1 = x0 + u dt + (v0 - u) (1 - exp(-k dt)) / k
//   k = 0: v1 = v0, x1 = x0 + v0 dt (exactly, not through the general formula)
//
// The distance factor (1 - exp(-k dt)) / k is formed with -expm1(-k dt) so that small k dt loses
// no digits to cancellation. Coefficients depend only on (k, dt): they are validated once and
// cached in DragCoefficients, then applied every tick. A general kernel: no boat or water rules.

#include "floptle/drift/vec2d.h"

namespace floptle::drift {

/// Outcome of a drag kernel call. Anything but `ok` leaves the outputs untouched.
enum class DragStatus : unsigned char {
  ok,
  /// An input was non-finite or out of range (negative rate or step).
  invalidInput,
  /// The inputs were valid but a result overflowed to a non-finite value.
  numericFailure,
};

/// Cached coefficients of one drag step. Build them with makeDragCoefficients().
struct DragCoefficients {
  /// Drag rate k (1/s), >= 0.
  double rate = 0.0;
  /// Step length dt (s), >= 0.
  double step = 0.0;
  /// exp(-k dt) (-), in [0, 1]; exactly 1 when k = 0.
  double velocityFactor = 1.0;
  /// (1 - exp(-k dt)) / k (s), in [0, dt]; exactly dt when k = 0.
  double distanceFactor = 0.0;
};

/// Validates (rate finite and >= 0, step finite and >= 0) and fills `out`.
DragStatus makeDragCoefficients(double rate, double step, DragCoefficients& out) noexcept;

/// One exact drag step from (position, velocity) with water velocity `water`. Writes
/// `outPosition` (m) and `outVelocity` (m/s) only when the result is `ok`; they may alias the
/// inputs. Non-finite inputs are `invalidInput`; a non-finite result is `numericFailure`.
DragStatus advanceDrag(const DragCoefficients& coefficients, Vec2d water, Vec2d position,
                       Vec2d velocity, Vec2d& outPosition, Vec2d& outVelocity) noexcept;

}  // namespace floptle::drift
