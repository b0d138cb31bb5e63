// The Drift component's keys and its validated write path.
#include "floptle/editor/play_drift_edit.h"

#include <cmath>

#include "floptle/drift/drift_json.h"

namespace floptle::editor {

const std::vector<DriftKeySpec>& driftKeySpecs() {
  // Fallbacks are drift::Tuning{} / BoatStart{} (the sandbox's defaults when a key is absent).
  static const std::vector<DriftKeySpec> specs = {
      {"boat_radius", "m", "Boat radius", "Hull radius of the circular boat", 1, 0.5, false},
      {"boat_position", "m", "Boat start", "Boat centre at the start, [x, z] on the water", 2, 0.0,
       false},
      {"boat_velocity", "m/s", "Boat start velocity", "Boat velocity at the start, [x, z]", 2, 0.0,
       false},
      {"drag_rate", "1/s", "Drag rate", "Linear drag rate k toward the water velocity", 1, 0.7,
       false},
      {"water_velocity", "m/s", "Water velocity",
       "Constant current [x, z] (physical; not the ocean pattern's look)", 2, 0.0, false},
      {"speed_cap", "m/s", "Speed cap", "Largest boat speed, enforced every tick", 1, 7.0, false},
      {"ripple_start_radius", "m", "Ripple start radius", "Ring radius when placed", 1, 0.0, false},
      {"ripple_growth", "m/s", "Ripple growth", "Ring radius growth rate", 1, 4.0, false},
      {"ripple_half_width", "m", "Ripple half-width",
       "Half-width of the ring band WITHOUT the boat radius (contact band = this + boat radius)", 1,
       0.35, false},
      {"ripple_lifetime", "s", "Ripple lifetime", "How long a ripple lives", 1, 2.5, false},
      {"ripple_impulse", "m/s", "Ripple impulse", "Radial speed change a fresh ripple gives", 1,
       3.0, false},
      {"ripple_attenuation", "1/s", "Ripple attenuation",
       "Impulse decay with ripple age: impulse * exp(-attenuation * age)", 1, 0.5, false},
      {"placement_cooldown", "s", "Placement cooldown", "Shortest time between two placements", 1,
       0.25, false},
      {kOceanPatternVelocityKey, "m/s", "Ocean pattern velocity",
       "Scroll speed of the ocean's look [x, z]; presentation only, the physics never reads it", 2,
       0.5, true},
  };
  return specs;
}

namespace {

const DriftKeySpec* findSpec(const std::string& key) {
  for (const DriftKeySpec& spec : driftKeySpecs())
    if (key == spec.key) return &spec;
  return nullptr;
}

}  // namespace

double driftValue(const EditorDocument& document, const std::string& componentPointer,
                  const DriftKeySpec& spec, int component) {
  const std::optional<Json> value = document.valueAt(componentPointer + "/" + spec.key);
  if (!value) return spec.fallback;
  if (spec.components == 2) {
    if (value->is_array() && value->size() == 2 && (*value)[std::size_t(component)].is_number())
      return (*value)[std::size_t(component)].get<double>();
    return spec.fallback;
  }
  return value->is_number() ? value->get<double>() : spec.fallback;
}

Expected<void> setDriftValue(EditorDocument& document, const std::string& componentPointer,
                             const std::string& key, double value, int component, int mergeId) {
  const std::string where = componentPointer + "/" + key;
  const DriftKeySpec* spec = findSpec(key);
  if (!spec) return Error{where, "is not a key of the drift component"};
  if (!std::isfinite(value)) return Error{where, "must be finite"};
  const std::optional<Json> current = document.valueAt(componentPointer);
  if (!current || !current->is_object()) return Error{componentPointer, "no drift component here"};
  Json written;
  if (spec->components == 2) {
    if (component != 0 && component != 1)
      return Error{where, "a pair is edited one component at a time"};
    written = Json::array({driftValue(document, componentPointer, *spec, 0),
                           driftValue(document, componentPointer, *spec, 1)});
    written[std::size_t(component)] = value;
  } else {
    written = value;
  }
  // The whole component as it would be, validated as the sandbox validates a tuning.
  Json candidate = *current;
  candidate[key] = written;
  if (!spec->presentation) {
    Expected<drift::DriftSetup> checked = drift::driftSetupFromJson(candidate, componentPointer);
    if (!checked) return checked.error();
  }
  return document.setValue(where, written, mergeId);
}

}  // namespace floptle::editor
