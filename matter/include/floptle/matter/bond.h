#pragma once
// The elastoplastic rule of a Visco bond (seed 002, tier 4), applied to every bond after each
// substep's constraints. The bond's total strain is measured from its length when it formed,
// l0: e_total = (length - l0) / l0; its elastic strain from its current rest length (grown by
// yield): e = (length - rest) / rest.
//   e_total > break_strain:  the bond snaps (removed for good);
//   e > yield_strain:        plastic flow: rest <- length / (1 + yield_strain), so the strain
//                            returns to the yield surface and the growth stays;
//   else:                    elastic, unchanged.
// So a bond under a slow pull first thins (creeps plastically, the stretch-to-strands of the
// seed) and tears once it has stretched by break_strain in all. Compression never yields or
// breaks (the volume constraints carry it).
#include <cstdint>

namespace floptle::matter {

enum class BondChange : std::uint8_t { Elastic, Yielded, Broken };

/// Applies the rule to a bond of current `length` (m), rest length `rest` (m, > 0) and length
/// at its forming `formed` (m, > 0).
inline BondChange updateBond(float length, float& rest, float formed, float yieldStrain,
                             float breakStrain) {
  if ((length - formed) / formed > breakStrain) return BondChange::Broken;
  const float strain = (length - rest) / rest;
  if (strain > yieldStrain) {
    rest = length / (1.0f + yieldStrain);
    return BondChange::Yielded;
  }
  return BondChange::Elastic;
}

}  // namespace floptle::matter
