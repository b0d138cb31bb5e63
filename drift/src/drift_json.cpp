#include "floptle/drift/drift_json.h"

namespace floptle::drift {

namespace {

using nlohmann::json;

// Reads an optional number under `key`; absent keeps `value`.
template <class Json>
Expected<void> readNumber(const Json& object, const char* key, const std::string& where,
                          double& value) {
  const auto it = object.find(key);
  if (it == object.end()) return {};
  if (!it->is_number()) return Error{where + "/" + key, "must be a number"};
  value = it->template get<double>();
  return {};
}

// Reads an optional [x, z] pair under `key`.
template <class Json>
Expected<void> readPair(const Json& object, const char* key, const std::string& where,
                        Vec2d& value) {
  const auto it = object.find(key);
  if (it == object.end()) return {};
  if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number() || !(*it)[1].is_number()) {
    return Error{where + "/" + key, "must be an array of two numbers [x, z]"};
  }
  value = {(*it)[0].template get<double>(), (*it)[1].template get<double>()};
  return {};
}

Error issueToError(const TuningIssue& issue, const std::string& where) {
  return Error{where + "/" + issue.field, issue.problem};
}

template <class Json>
Expected<void> readTuning(const Json& c, const std::string& where, Tuning& t) {
  struct NumberKey {
    const char* key;
    double* value;
  };
  const NumberKey numbers[] = {
      {"boat_radius", &t.boatRadius},
      {"drag_rate", &t.dragRate},
      {"speed_cap", &t.speedCap},
      {"ripple_start_radius", &t.rippleStartRadius},
      {"ripple_growth", &t.rippleGrowth},
      {"ripple_half_width", &t.rippleHalfWidth},
      {"ripple_lifetime", &t.rippleLifetime},
      {"ripple_impulse", &t.rippleImpulse},
      {"ripple_attenuation", &t.rippleAttenuation},
      {"placement_cooldown", &t.placementCooldown},
  };
  for (const NumberKey& n : numbers) {
    if (auto r = readNumber(c, n.key, where, *n.value); !r) return r;
  }
  if (auto r = readPair(c, "water_velocity", where, t.waterVelocity); !r) return r;
  if (TuningIssue issue = validateTuning(t); !issue.ok()) return issueToError(issue, where);
  return {};
}

nlohmann::ordered_json pair(Vec2d v) { return nlohmann::ordered_json::array({v.x, v.z}); }

template <class Json>
Expected<Tuning> readTuningComponent(const Json& component, const std::string& where,
                                     const Tuning& base) {
  if (!component.is_object()) return Error{where, "the drift component must be an object"};
  Tuning tuning = base;
  if (auto r = readTuning(component, where, tuning); !r) return r.error();
  return tuning;
}

template <class Json>
Expected<DriftSetup> readSetupComponent(const Json& component, const std::string& where) {
  if (!component.is_object()) return Error{where, "the drift component must be an object"};
  DriftSetup setup;
  if (auto r = readTuning(component, where, setup.tuning); !r) return r.error();
  if (auto r = readPair(component, "boat_position", where, setup.start.position); !r) {
    return r.error();
  }
  if (auto r = readPair(component, "boat_velocity", where, setup.start.velocity); !r) {
    return r.error();
  }
  if (TuningIssue issue = validateBoatStart(setup.start); !issue.ok()) {
    return issueToError(issue, where);
  }
  return setup;
}

}  // namespace

Expected<Tuning> tuningFromJson(const json& component, const std::string& where,
                                const Tuning& base) {
  return readTuningComponent(component, where, base);
}
Expected<Tuning> tuningFromJson(const nlohmann::ordered_json& component, const std::string& where,
                                const Tuning& base) {
  return readTuningComponent(component, where, base);
}
Expected<DriftSetup> driftSetupFromJson(const json& component, const std::string& where) {
  return readSetupComponent(component, where);
}
Expected<DriftSetup> driftSetupFromJson(const nlohmann::ordered_json& component,
                                        const std::string& where) {
  return readSetupComponent(component, where);
}

nlohmann::ordered_json driftSetupToJson(const DriftSetup& s) {
  const Tuning& t = s.tuning;
  return nlohmann::ordered_json{{"boat_radius", t.boatRadius},
              {"boat_position", pair(s.start.position)},
              {"boat_velocity", pair(s.start.velocity)},
              {"drag_rate", t.dragRate},
              {"water_velocity", pair(t.waterVelocity)},
              {"speed_cap", t.speedCap},
              {"ripple_start_radius", t.rippleStartRadius},
              {"ripple_growth", t.rippleGrowth},
              {"ripple_half_width", t.rippleHalfWidth},
              {"ripple_lifetime", t.rippleLifetime},
              {"ripple_impulse", t.rippleImpulse},
              {"ripple_attenuation", t.rippleAttenuation},
              {"placement_cooldown", t.placementCooldown}};
}

nlohmann::ordered_json eventToJson(const Event& e) {
  nlohmann::ordered_json line;
  line["tick"] = e.tick;
  line["event"] = eventKindName(e.kind);
  switch (e.kind) {
    case EventKind::placement:
      line["ripple"] = e.ripple;
      line["position"] = {e.position.x, e.position.z};
      break;
    case EventKind::rejectedPlacement:
      line["reason"] = rejectReasonName(e.reason);
      line["position"] = {e.position.x, e.position.z};
      break;
    case EventKind::contact:
      line["ripple"] = e.ripple;
      line["fraction"] = e.fraction;
      line["normal"] = {e.normal.x, e.normal.z};
      line["position"] = {e.position.x, e.position.z};
      line["impulse"] = e.impulse;
      break;
    case EventKind::expiry:
      line["ripple"] = e.ripple;
      break;
    case EventKind::retry:
    case EventKind::tuningChange:
      break;
  }
  return line;
}

}  // namespace floptle::drift
