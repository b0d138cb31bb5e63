#pragma once
// The Morph tier's description (seed 002, tier 1): the "matter" component
//   {"tier": "morph", "displacement": [terms...], "bake": {"cell": h}}
// with each term
//   {"type": "sine", "amplitude": [x, y, z], "wave": [kx, ky, kz], "speed": w, "phase": f}
//       d += amplitude sin(wave . p + w t + f)                      (m, rad/m, rad/s, rad)
//   {"type": "noise", "amplitude": a, "frequency": hz_per_m, "speed": s, "seed": n}
//       d += a (N0, N1, N2)(frequency (p - (0, s t, 0)))              (m, 1/m, m/s, -)
// summed into one d(p, t), p in the node's space; f_morph(p, t) = f_rest(p + d(p, t)). The
// terms become a chain of displace_sine / displace_noise field nodes around the node's shape
// (field_node.h), so every reader of the one composition sees the warp. Physics collides with
// a bake of cell h instead of the warp itself (physics/morph_collider.h).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_node.h"

namespace floptle::field {

struct MorphDesc {
  /// One displace_sine / displace_noise node per term, in document order, without children.
  std::vector<FieldNode> terms;
  /// Edge of the physics bake's cells (m), > 0.
  float bakeCell = 0.1f;
};

/// The morph knobs of a "matter" component at JSON pointer `pointer` (its "tier" is morph;
/// other keys are the caller's). Errors name the offending key, e.g.
/// "/nodes/2/matter/displacement/1/frequency".
Expected<MorphDesc> readMorph(const nlohmann::ordered_json& matter, const std::string& pointer);

/// `shape` displaced by the terms (shape itself when there are none).
FieldNode applyMorph(const MorphDesc& morph, FieldNode shape);

/// The morph of a node's "matter" component when its tier is morph, else nothing (a component
/// that does not read is nothing too: the scene's validation reports it).
std::optional<MorphDesc> morphOf(const nlohmann::ordered_json& matter);

}  // namespace floptle::field
