#pragma once
// The strands drawn over the matter's surface (issue 19, Visco: "over-yielded bonds are drawn as
// strands"): every holding bond whose rest length has grown past its length when it formed
// (it flowed plastically, bond.h), as a segment between what it joins now. Snapped bonds are
// gone from the list. Three kinds: a body's own cage edges, its adhesion bonds to the world
// (particle to surface point) and the stage's bonds between bodies.
#include <vector>

#include "floptle/core/math.h"
#include "floptle/matter/soft_body_stage.h"

namespace floptle::matter {

struct Strand {
  Vec3 a{0.0f}, b{0.0f};  ///< end points now (m)
  /// Plastic growth: rest / formed - 1 (-), > 0.
  float growth = 0.0f;
};

std::vector<Strand> yieldedStrands(const SoftBodyStage& stage);

}  // namespace floptle::matter
