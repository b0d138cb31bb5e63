#pragma once
// The mesh BVH's arrays on transparent huge pages: the allocator lives in core (the brickmap
// pool uses it too), see floptle/core/huge_page_vector.h.
#include "floptle/core/huge_page_vector.h"

namespace floptle::physics::mesh {

using floptle::HugePageAllocator;
using floptle::HugePageVector;
using floptle::kHugePage;
using floptle::kHugeThreshold;
using floptle::toHugePages;

}  // namespace floptle::physics::mesh
