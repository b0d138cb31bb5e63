#include "floptle/drift/linear_drag.h"

#include <cmath>

namespace floptle::drift {

namespace {

// Below this k dt, (1 - exp(-x)) / x = 1 - x/2 + x^2/6 - ... is taken as 1 - x/2: the dropped
// x^2/6 is under 2e-17, below double resolution. It also keeps a subnormal k from dividing an
// underflowed product by itself.
constexpr double kSeriesLimit = 1e-8;

}  // namespace

DragStatus makeDragCoefficients(double rate, double step, DragCoefficients& out) noexcept {
  if (!std::isfinite(rate) || !std::isfinite(step) || rate < 0.0 || step < 0.0) {
    return DragStatus::invalidInput;
  }
  DragCoefficients c;
  c.rate = rate;
  c.step = step;
  if (rate == 0.0) {
    c.velocityFactor = 1.0;
    c.distanceFactor = step;
  } else {
    const double x = rate * step;  // (-), may be +inf for huge k dt: exp -> 0, expm1 -> -1.
    c.velocityFactor = std::exp(-x);
    c.distanceFactor = x < kSeriesLimit ? step * (1.0 - 0.5 * x) : -std::expm1(-x) / rate;
  }
  if (!std::isfinite(c.velocityFactor) || !std::isfinite(c.distanceFactor)) {
    return DragStatus::numericFailure;
  }
  out = c;
  return DragStatus::ok;
}

DragStatus advanceDrag(const DragCoefficients& c, Vec2d water, Vec2d position, Vec2d velocity,
                       Vec2d& outPosition, Vec2d& outVelocity) noexcept {
  if (!isFinite(water) || !isFinite(position) || !isFinite(velocity) || !std::isfinite(c.rate) ||
      !std::isfinite(c.step) || c.rate < 0.0 || c.step < 0.0) {
    return DragStatus::invalidInput;
  }
  Vec2d x1;
  Vec2d v1;
  if (c.rate == 0.0) {
    // The k = 0 limit, exact: the general form would round u + (v0 - u) away from v0.
    v1 = velocity;
    x1 = position + velocity * c.step;
  } else {
    const Vec2d relative = velocity - water;  // (m/s)
    v1 = water + relative * c.velocityFactor;
    x1 = position + water * c.step + relative * c.distanceFactor;
  }
  if (!isFinite(x1) || !isFinite(v1)) return DragStatus::numericFailure;
  outPosition = x1;
  outVelocity = v1;
  return DragStatus::ok;
}

}  // namespace floptle::drift
