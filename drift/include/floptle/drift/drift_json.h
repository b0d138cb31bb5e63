#pragma once
// JSON form of the "drift" scene component and of trace events.
//
// The component sits on a scene node (e.g. {"name":"boat","drift":{...}}). Keys, on the XZ
// water plane, in meters, seconds and meters per second; every key is optional and defaults to
// Tuning{} / BoatStart{}:
//   boat_radius (m)             boat_position [x,z] (m)     boat_velocity [x,z] (m/s)
//   drag_rate (1/s)             water_velocity [x,z] (m/s)  speed_cap (m/s)
//   ripple_start_radius (m)     ripple_growth (m/s)
//   ripple_half_width (m)       band half-width WITHOUT the boat radius; the contact band used
//                               by the sweep is ripple_half_width + boat_radius
//   ripple_lifetime (s)         ripple_impulse (m/s)        placement_cooldown (s)
//   ripple_attenuation (1/s)    optional: impulse * exp(-ripple_attenuation * ripple age)
// Unknown keys are ignored (other tools may annotate the component).

#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/drift/event_trace.h"
#include "floptle/drift/tuning.h"

namespace floptle::drift {

/// What a "drift" component authors: the physical tuning and the boat's start state.
struct DriftSetup {
  Tuning tuning;
  BoatStart start;
};

/// Reads and validates a "drift" component. `where` is the component's JSON pointer
/// ("/nodes/1/drift"); errors name the offending key below it.
/// Overloads for both JSON flavours: scene documents are ordered_json.
Expected<DriftSetup> driftSetupFromJson(const nlohmann::json& component, const std::string& where);
Expected<DriftSetup> driftSetupFromJson(const nlohmann::ordered_json& component,
                                        const std::string& where);
/// The tuning part alone (boat_position / boat_velocity are ignored): the keys present replace
/// those of `base`, then the whole result is validated.
Expected<Tuning> tuningFromJson(const nlohmann::json& component, const std::string& where,
                                const Tuning& base = Tuning{});
Expected<Tuning> tuningFromJson(const nlohmann::ordered_json& component, const std::string& where,
                                const Tuning& base = Tuning{});
/// Writes every key (including the optional ones), so the result reads back identically.
nlohmann::ordered_json driftSetupToJson(const DriftSetup& setup);

/// One trace line, e.g. {"tick":12,"event":"contact","ripple":3,"fraction":0.25,"normal":[1,0]}.
nlohmann::ordered_json eventToJson(const Event& event);

}  // namespace floptle::drift
