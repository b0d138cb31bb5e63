// The editor's rows of the gravity keys core's component table does not describe yet.
#include "inspector/gravity_rows.h"

namespace floptle::editor {
namespace {

using scene::ValueKind;
using scene::ValueSpec;

constexpr double kBig = 1e6;

// Tier 3, density-field gravity: rho on a grid of `cell` over `bounds` (absent: the
// collidable field's bounds, padded), Poisson-solved every `cadence` ticks; dynamic bodies
// add their masses through a Barnes-Hut tree of opening angle `theta` when bodies_attract.
constexpr ValueSpec kDensityRows[] = {
    {.key = "cell",
     .kind = ValueKind::Number,
     .min = 0,
     .max = kBig,
     .minExclusive = true,
     .defaultValue = {1},
     .unit = "m",
     .help = "Edge of a cell of the density grid",
     .required = true},
    {.key = "cadence",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 100000,
     .defaultValue = {10},
     .unit = "-",
     .help = "Ticks between two solves of the field while matter changes"},
    {.key = "bodies_attract",
     .kind = ValueKind::Bool,
     .defaultValue = {0},
     .unit = "-",
     .help = "Dynamic bodies pull each other as point masses (Barnes-Hut tree)"},
    {.key = "theta",
     .kind = ValueKind::Number,
     .min = 0,
     .max = 2,
     .defaultValue = {0.5},
     .unit = "-",
     .help = "Opening angle of the Barnes-Hut tree: 0 = the exact sum"},
};

// Tier 2's gradient from the baked distance field of cell `cell`, blurred over `blur`.
constexpr ValueSpec kSdfBakedRows[] = {
    {.key = "cell",
     .kind = ValueKind::Number,
     .min = 0,
     .max = kBig,
     .minExclusive = true,
     .defaultValue = {0.25},
     .unit = "m",
     .help = "Cell of the baked distance field",
     .required = true},
    {.key = "blur",
     .kind = ValueKind::Number,
     .min = 0,
     .max = kBig,
     .defaultValue = {0.5},
     .unit = "m",
     .help = "Width of the blur the gradient is taken from"},
};

}  // namespace

std::span<const scene::ValueSpec> gravityRows(std::string_view table) {
  if (const scene::ComponentSpec* core = scene::componentSpec(table)) return core->values;
  if (table == "gravity_density") return kDensityRows;
  if (table == "gravity_sdf_baked") return kSdfBakedRows;
  return {};
}

}  // namespace floptle::editor
