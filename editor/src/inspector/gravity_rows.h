#pragma once
// The value rows of a gravity table of core's component table (gravity_field, gravity_sdf,
// gravity_sdf_epsilon, gravity_sdf_baked, gravity_density, the regions' and sources' tables),
// as the Gravity section lays them out.
#include <span>
#include <string_view>

#include "floptle/core/scene/component_values.h"

namespace floptle::editor {

/// The rows of table `table`; empty when core has no table of that name.
std::span<const scene::ValueSpec> gravityRows(std::string_view table);

}  // namespace floptle::editor
