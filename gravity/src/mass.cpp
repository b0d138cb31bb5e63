// fieldVolume: occupancy quadrature of f < 0 over the field's bounds.
#include "floptle/gravity/mass.h"

#include <algorithm>
#include <cmath>

#include "floptle/core/field/field_program.h"

namespace floptle::gravity {

Expected<FieldVolume> fieldVolume(const field::FieldProgram& field, double t,
                                  const std::string& where) {
  constexpr int kNodes = 64;
  Aabb bounds = field.bounds(t);
  if (bounds.empty() || !isFinite(bounds.min) || !isFinite(bounds.max) ||
      glm::length(bounds.max - bounds.min) > 1e5f)
    return Error{where, "a shape's volume needs a bounded field (no plane or repeat)"};
  // Grow the bounds by a cell so the occupancy ramp of a surface on them is whole.
  const Vec3 extent = bounds.max - bounds.min;
  const float h0 = std::max({extent.x, extent.y, extent.z}) / float(kNodes - 3);
  bounds = bounds.inflated(h0);
  const Vec3 cell = (bounds.max - bounds.min) / float(kNodes - 1);
  const float h = std::max({cell.x, cell.y, cell.z});
  const double cellVolume = double(cell.x) * double(cell.y) * double(cell.z);
  double volume = 0.0;
  glm::dvec3 first(0.0);
  for (int k = 0; k < kNodes; ++k)
    for (int j = 0; j < kNodes; ++j)
      for (int i = 0; i < kNodes; ++i) {
        const Vec3 p = bounds.min + cell * Vec3(float(i), float(j), float(k));
        const float f = field.distance(p, t);
        const double occupancy = std::clamp(0.5 - double(f) / double(h), 0.0, 1.0);
        volume += occupancy * cellVolume;
        first += occupancy * cellVolume * glm::dvec3(p);
      }
  if (!(volume > 0.0)) return Error{where, "the shape has no interior to give it mass"};
  return FieldVolume{float(volume), Vec3(first / volume)};
}

}  // namespace floptle::gravity
