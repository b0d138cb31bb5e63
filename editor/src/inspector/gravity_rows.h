#pragma once
// Value rows of the gravity keys core's component table does not have yet: the tier-3
// "density" object ({"cell", "cadence", "bounds", "bodies_attract", "theta"}) and the sdf
// tier's "baked" smoothing ({"cell", "blur"}). Same shape as the table's rows, so the
// inspector reads them the same way; once core's table has rows of these names
// (gravity_density, gravity_sdf_baked), gravityRows() returns those instead.
#include <span>
#include <string_view>

#include "floptle/core/scene/component_values.h"

namespace floptle::editor {

/// The rows of gravity table `table`: core's when it has one of that name, else the editor's
/// own for "gravity_density" and "gravity_sdf_baked"; empty otherwise.
std::span<const scene::ValueSpec> gravityRows(std::string_view table);

}  // namespace floptle::editor
