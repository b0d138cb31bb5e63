#include "floptle/drift/expanding_band.h"

#include <algorithm>
#include <cmath>

namespace floptle::drift {

namespace {

// The sweep in coordinates divided by 2^exponent, where 2^exponent bounds every input
// magnitude: all scaled values lie in [-1, 1], so differences stay within 2 and squares within
// 4. Dividing by a power of two is exact (short of subnormals), so the contact parameter is
// the same as in unscaled arithmetic wherever that would not overflow.
struct ScaledSweep {
  Vec2d start;       // (2^-e m)
  Vec2d delta;       // end - start (2^-e m)
  Vec2d fromCentre;  // start - centre (2^-e m)
  double radius;     // (2^-e m)
  double growth;     // (2^-e m)
  double halfWidth;  // (2^-e m)
};

double scaleDown(double value, int exponent) noexcept {
  return std::ldexp(value, -exponent);
}

Vec2d scaleDown(Vec2d v, int exponent) noexcept {
  return {scaleDown(v.x, exponent), scaleDown(v.z, exponent)};
}

double largestMagnitude(const ExpandingBand& band, const LinearSweep& sweep) noexcept {
  const double values[] = {sweep.start.x,    sweep.start.z, sweep.end.x,
                           sweep.end.z,      band.centre.x, band.centre.z,
                           band.startRadius, band.growth,   band.halfWidth};
  double largest = 0.0;
  for (double v : values) largest = std::max(largest, std::fabs(v));
  return largest;
}

// Roots of A t^2 + 2 B t + C = 0 in the cancellation-free form q / A, C / q with
// q = -(B + sign(B) sqrt(B^2 - A C)). Returns the number written to `roots` (0..2).
int solveHalfQuadratic(double a, double b, double c, double roots[2]) noexcept {
  if (a == 0.0) {
    if (b == 0.0) return 0;  // Constant: a start-of-sweep contact, if any, was found already.
    roots[0] = -c / (2.0 * b);
    return 1;
  }
  const double discriminant = b * b - a * c;
  if (discriminant < 0.0) return 0;
  const double q = -(b + std::copysign(std::sqrt(discriminant), b));
  if (q == 0.0) {  // b == 0 and a c == 0 with a != 0: the double root t = 0.
    roots[0] = 0.0;
    return 1;
  }
  roots[0] = q / a;
  roots[1] = c / q;
  return 2;
}

// Earliest t in [0, 1] where |p(t) - o| equals the signed boundary radius s0 + t g, with that
// radius non-negative, folded into `best` (only ever lowered; untouched when there is none).
void earliestBoundaryRoot(const ScaledSweep& s, double boundaryStart, double& best) noexcept {
  const double a = dot(s.delta, s.delta) - s.growth * s.growth;
  const double b = dot(s.fromCentre, s.delta) - boundaryStart * s.growth;
  const double c = dot(s.fromCentre, s.fromCentre) - boundaryStart * boundaryStart;
  double roots[2];
  const int count = solveHalfQuadratic(a, b, c, roots);
  for (int i = 0; i < count; ++i) {
    const double t = roots[i];
    if (!(t >= 0.0 && t <= 1.0)) continue;             // Outside the sweep (or NaN).
    if (boundaryStart + t * s.growth < 0.0) continue;  // Negative signed radius: from squaring.
    best = std::min(best, t);
  }
}

}  // namespace

BandSweepStatus sweepExpandingBand(const ExpandingBand& band, const LinearSweep& sweep,
                                   BandContact& out) noexcept {
  if (!isFinite(band.centre) || !isFinite(sweep.start) || !isFinite(sweep.end) ||
      !std::isfinite(band.startRadius) || !std::isfinite(band.growth) ||
      !std::isfinite(band.halfWidth) || band.startRadius < 0.0 || band.halfWidth < 0.0) {
    return BandSweepStatus::invalidInput;
  }

  const double largest = largestMagnitude(band, sweep);
  int exponent = 0;
  if (largest > 0.0) std::frexp(largest, &exponent);  // largest < 2^exponent.

  ScaledSweep s;
  s.start = scaleDown(sweep.start, exponent);
  s.delta = scaleDown(sweep.end, exponent) - s.start;
  s.fromCentre = s.start - scaleDown(band.centre, exponent);
  s.radius = scaleDown(band.startRadius, exponent);
  s.growth = scaleDown(band.growth, exponent);
  s.halfWidth = scaleDown(band.halfWidth, exponent);

  double fraction = 2.0;  // > 1: no contact found yet.
  if (std::fabs(length(s.fromCentre) - s.radius) <= s.halfWidth) {
    fraction = 0.0;  // Starting overlap counts as contact.
  } else {
    earliestBoundaryRoot(s, s.radius - s.halfWidth, fraction);  // Inner boundary.
    earliestBoundaryRoot(s, s.radius + s.halfWidth, fraction);  // Outer boundary.
    if (fraction > 1.0) return BandSweepStatus::miss;
  }

  const Vec2d pointScaled = s.start + s.delta * fraction;
  const Vec2d radial = s.fromCentre + s.delta * fraction;
  const double radialLength = length(radial);
  BandContact contact;
  contact.fraction = fraction;
  contact.point = {std::ldexp(pointScaled.x, exponent), std::ldexp(pointScaled.z, exponent)};
  // A coincident centre has no direction: zero normal, hence zero impulse.
  contact.normal =
      radialLength > 0.0 ? Vec2d{radial.x / radialLength, radial.z / radialLength} : Vec2d{};
  if (!std::isfinite(contact.fraction) || !isFinite(contact.point) || !isFinite(contact.normal)) {
    return BandSweepStatus::numericFailure;
  }
  out = contact;
  return BandSweepStatus::hit;
}

}  // namespace floptle::drift
