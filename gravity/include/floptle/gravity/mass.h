#pragma once
// Mass from density (seed 001, section 1): m = rho V. massOf is the one place the product is
// taken, for rigid bodies and Newtonian emitters alike; fieldVolume integrates V (and the
// centroid) from a shape's signed distance field when no closed form is at hand.
#include <string>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"

namespace floptle::field {
class FieldProgram;
}

namespace floptle::gravity {

/// Mass (kg) of `volume` (m^3) of a material of `density` (kg/m^3).
inline float massOf(float density, float volume) {
  return density * volume;
}

struct FieldVolume {
  float volume = 0.0f;  ///< (m^3)
  Vec3 centroid{0.0f};  ///< (m, the field's frame)
};

/// The volume where f < 0 and its centroid, at time t (s): a 64^3 grid of nodes over the
/// field's bounds, each node weighted by its cell's occupancy clamp(1/2 - f/h, 0, 1) (h the
/// largest cell side), which takes a smooth surface's volume to well within 1% (a sphere's
/// error is about 1e-3). Errors (at `where`) for an unbounded field (a plane, a repeat) or one
/// with no interior.
Expected<FieldVolume> fieldVolume(const field::FieldProgram& field, double t,
                                  const std::string& where);

}  // namespace floptle::gravity
