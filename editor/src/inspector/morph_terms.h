#pragma once
// The Morph tier's knobs in the Matter section: the displacement list (sine and noise terms,
// field/morph.h) and the physics bake's cell. Each term's rows come from core's node table of
// its field node (displace_sine, displace_noise: ranges, units, tooltips), so the inspector
// refuses exactly what reading the scene refuses; a typed value outside a row's range never
// validates, and a refused edit leaves the document as it was with the reason in the log.
// Adding, removing and editing a term are one undo step each.
#include <string>

class QFormLayout;

namespace floptle::editor {

struct InspectorContext;

/// Adds the morph rows of the "matter" component at `component` (a JSON pointer) to `form`.
/// Widgets: "morph:add_sine", "morph:add_noise", per term j a group "morph:term:j" with a
/// "morph:remove" button and its parameter rows (named by their JSON pointers), and the bake
/// cell "morph:bake_cell".
void addMorphRows(InspectorContext& context, QFormLayout* form, const std::string& component);

}  // namespace floptle::editor
