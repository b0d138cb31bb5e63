#pragma once
// Editing the "drift" component (issue 5, "In the editor"): the keys the inspector's Drift
// section shows, and the one write path that validates the whole tuning before the document
// takes a value. The same path serves the editor document and, while playing, the play copy
// (whose change then installs the tuning in the running sandbox: Sandbox::setTuning).
#include <string>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/editor/editor_document.h"

namespace floptle::editor {

struct DriftKeySpec {
  /// JSON key of the component ("drag_rate").
  const char* key;
  /// Unit as the project spells it ("m", "1/s", "m/s", "s", "-").
  const char* unit;
  const char* label;
  const char* help;
  /// 1 for a number, 2 for an [x, z] pair.
  int components;
  /// Value shown when the key is absent (the sandbox's default; x of a pair).
  double fallback;
  /// True for a look-only key the physics never reads (the ocean's pattern velocity).
  bool presentation;
};

/// Every key of the Drift section, in display order.
const std::vector<DriftKeySpec>& driftKeySpecs();

/// The ocean pattern's scroll velocity key (m/s, [x, z]): presentation only, never the
/// physical water_velocity.
inline constexpr const char* kOceanPatternVelocityKey = "ocean_pattern_velocity";

/// Sets `key` (or one component of a pair: `component` 0 = x, 1 = z; -1 = the whole value)
/// of the "drift" component at `componentPointer` to `value`, after validating the whole
/// component as the sandbox would (drift::driftSetupFromJson). A refused value leaves the
/// document unchanged and the error names the key ("/nodes/1/drift/boat_radius: ...").
Expected<void> setDriftValue(EditorDocument& document, const std::string& componentPointer,
                             const std::string& key, double value, int component = -1,
                             int mergeId = kNoMerge);

/// The number shown for `key` (component of a pair), the fallback when absent.
double driftValue(const EditorDocument& document, const std::string& componentPointer,
                  const DriftKeySpec& spec, int component);

}  // namespace floptle::editor
