#include "floptle/drift/drift_json.h"

#include "floptle/core/scene/component_values.h"

namespace floptle::drift {

namespace {

using nlohmann::json;

Error issueToError(const TuningIssue& issue, const std::string& where) {
  return Error{where + "/" + issue.field, issue.problem};
}

// Reads an optional [x, z] pair; absent keeps `value`.
Expected<void> readPair(const scene::ComponentReader& in, const char* key, Vec2d& value) {
  double xz[2] = {value.x, value.z};
  if (auto r = in.vector(key, xz); !r) return r;
  value = {xz[0], xz[1]};
  return {};
}

// The keys present replace those of `t`; ranges from the "drift" rows of the component
// table, then the relations between fields (validateTuning).
Expected<void> readTuning(const scene::ComponentReader& in, const std::string& where, Tuning& t) {
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
    if (auto r = in.number(n.key, *n.value); !r) return r;
  }
  if (auto r = readPair(in, "water_velocity", t.waterVelocity); !r) return r;
  if (TuningIssue issue = validateTuning(t); !issue.ok()) return issueToError(issue, where);
  return {};
}

Expected<Tuning> readTuningComponent(const nlohmann::ordered_json& component,
                                     const std::string& where, const Tuning& base) {
  const auto in = scene::ComponentReader::open(component, "drift", where);
  if (!in) return in.error();
  Tuning tuning = base;
  if (auto r = readTuning(*in, where, tuning); !r) return r.error();
  return tuning;
}

Expected<DriftSetup> readSetupComponent(const nlohmann::ordered_json& component,
                                        const std::string& where) {
  const auto in = scene::ComponentReader::open(component, "drift", where);
  if (!in) return in.error();
  DriftSetup setup;
  if (auto r = readTuning(*in, where, setup.tuning); !r) return r.error();
  if (auto r = readPair(*in, "boat_position", setup.start.position); !r) return r.error();
  if (auto r = readPair(*in, "boat_velocity", setup.start.velocity); !r) return r.error();
  if (TuningIssue issue = validateBoatStart(setup.start); !issue.ok()) {
    return issueToError(issue, where);
  }
  return setup;
}

nlohmann::ordered_json pair(Vec2d v) {
  return nlohmann::ordered_json::array({v.x, v.z});
}

}  // namespace

Expected<Tuning> tuningFromJson(const json& component, const std::string& where,
                                const Tuning& base) {
  return readTuningComponent(nlohmann::ordered_json(component), where, base);
}
Expected<Tuning> tuningFromJson(const nlohmann::ordered_json& component, const std::string& where,
                                const Tuning& base) {
  return readTuningComponent(component, where, base);
}
Expected<DriftSetup> driftSetupFromJson(const json& component, const std::string& where) {
  return readSetupComponent(nlohmann::ordered_json(component), where);
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
