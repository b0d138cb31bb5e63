// Simulation <-> JSON: the tick-addressed input events and the printed result.
#include <cmath>

#include "floptle/physics/simulation.h"

namespace floptle::physics {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

OrderedJson vec3Json(Vec3 v) { return OrderedJson::array({v.x, v.y, v.z}); }
OrderedJson quatJson(Quat q) { return OrderedJson::array({q.x, q.y, q.z, q.w}); }

Expected<float> readNumber(const Json& e, const char* key, const std::string& where, float lo, float hi) {
  const Json& v = e[key];
  if (!v.is_number()) return Error{where + "/" + key, "must be a number"};
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi)
    return Error{where + "/" + key, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
  return static_cast<float>(d);
}

}  // namespace

Expected<std::vector<InputEvent>> parseInputEvents(const nlohmann::json& document) {
  if (!document.is_array()) return Error{"", "inputs must be a JSON array of events"};
  std::vector<InputEvent> events;
  for (std::size_t i = 0; i < document.size(); ++i) {
    const Json& e = document[i];
    const std::string where = "/" + std::to_string(i);
    if (!e.is_object()) return Error{where, "an input event must be an object"};
    InputEvent ev;
    if (!e.contains("tick") || !e["tick"].is_number_integer() || e["tick"].get<std::int64_t>() < 0)
      return Error{where + "/tick", "must be a non-negative integer"};
    ev.tick = e["tick"].get<std::uint64_t>();
    if (!e.contains("node") || !e["node"].is_string() || e["node"].get<std::string>().empty())
      return Error{where + "/node", "must name a node"};
    ev.node = e["node"].get<std::string>();
    for (auto it = e.begin(); it != e.end(); ++it) {
      const std::string& key = it.key();
      if (key == "tick" || key == "node") continue;
      if (key == "move") {
        const Json& m = it.value();
        if (!m.is_array() || m.size() != 2 || !m[0].is_number() || !m[1].is_number())
          return Error{where + "/move", "must be [x, z]"};
        Vec2 move(m[0].get<float>(), m[1].get<float>());
        const float len = glm::length(move);
        if (!std::isfinite(len) || len > 1.0f + 1e-4f) return Error{where + "/move", "length must be <= 1"};
        if (len > 1.0f) move /= len;
        ev.move = move;
      } else if (key == "jump") {
        if (!it.value().is_boolean()) return Error{where + "/jump", "must be true or false"};
        ev.jump = it.value().get<bool>();
      } else if (key == "throttle" || key == "steer") {
        auto v = readNumber(e, key.c_str(), where, -1.0f, 1.0f);
        if (!v) return v.error();
        (key == "throttle" ? ev.throttle : ev.steer) = *v;
      } else if (key == "brake") {
        auto v = readNumber(e, "brake", where, 0.0f, 1.0f);
        if (!v) return v.error();
        ev.brake = *v;
      } else {
        return Error{where + "/" + key, "unknown control (move, jump, throttle, brake, steer)"};
      }
    }
    events.push_back(std::move(ev));
  }
  return events;
}

nlohmann::ordered_json Simulation::countersJson() const {
  const RigidBodyCounters& b = bodies_.counters();
  std::uint64_t sweeps = 0, slideHits = 0, steps = 0, depenetrations = 0, grounded = 0;
  for (const CharacterController& c : characters_) {
    sweeps += c.counters().sweeps;
    slideHits += c.counters().slideHits;
    steps += c.counters().steps;
    depenetrations += c.counters().depenetrations;
    grounded += c.state().grounded;
  }
  std::uint64_t wheelContacts = 0;
  for (const Vehicle& v : vehicles_)
    for (const WheelState& w : v.wheels()) wheelContacts += w.contact;
  OrderedJson j;
  j["bodies"] = bodies_.size();
  j["characters"] = characters_.size();
  j["vehicles"] = vehicles_.size();
  j["colliders"] = world_->size() - bodyColliders_.size();  // the scene's, not the bodies' own
  j["world_contacts"] = b.worldContacts;
  j["body_contacts"] = b.bodyContacts;
  j["friction_patches"] = b.patches;
  j["awake_bodies"] = b.awakeBodies;
  j["sleeping_bodies"] = b.sleepingBodies;
  j["character_sweeps"] = sweeps;
  j["character_slide_hits"] = slideHits;
  j["character_steps_climbed"] = steps;
  j["character_depenetrations"] = depenetrations;
  j["characters_grounded"] = grounded;
  j["wheel_contacts"] = wheelContacts;
  return j;
}

nlohmann::ordered_json Simulation::resultJson() const {
  OrderedJson out;
  out["tick"] = tick_;
  out["hash"] = hashHex(stateHash());
  OrderedJson nodes = OrderedJson::object();
  for (std::uint32_t i : freeBodies_) {
    const RigidBodyDesc& d = bodies_.desc(i);
    if (d.motion != BodyMotion::Dynamic) continue;
    const BodyState& s = bodies_.state(i);
    OrderedJson n;
    n["position"] = vec3Json(s.position);
    n["rotation"] = quatJson(s.rotation);
    n["velocity"] = vec3Json(s.linearVelocity);
    n["angular_velocity"] = vec3Json(s.angularVelocity);
    n["asleep"] = s.asleep != 0;
    n["gravity"] = vec3Json(bodyGravity_[i]);
    nodes[d.name] = n;
  }
  for (std::size_t i = 0; i < characters_.size(); ++i) {
    const CharacterController& c = characters_[i];
    const CharacterState& s = c.state();
    OrderedJson n;
    n["position"] = vec3Json(s.position);
    n["rotation"] = quatJson(c.orientation());
    n["velocity"] = vec3Json(s.velocity);
    n["gravity"] = vec3Json(characterGravity_[i]);
    n["up"] = vec3Json(s.up);
    n["grounded"] = s.grounded != 0;
    if (s.grounded) n["ground_normal"] = vec3Json(s.groundNormal);
    if (s.touchingWall) n["wall_normal"] = vec3Json(s.wallNormal);
    nodes[c.desc().name] = n;
  }
  for (const Vehicle& v : vehicles_) {
    const BodyState& s = bodies_.state(v.chassis());
    OrderedJson n;
    n["position"] = vec3Json(s.position);
    n["rotation"] = quatJson(s.rotation);
    n["velocity"] = vec3Json(s.linearVelocity);
    n["angular_velocity"] = vec3Json(s.angularVelocity);
    n["gravity"] = vec3Json(bodyGravity_[v.chassis()]);
    OrderedJson wheels = OrderedJson::array();
    for (const WheelState& w : v.wheels())
      wheels.push_back({{"contact", w.contact != 0}, {"compression", w.compression}, {"load", w.load}});
    n["wheels"] = wheels;
    nodes[v.desc().name] = n;
  }
  out["nodes"] = nodes;
  out["counters"] = countersJson();
  return out;
}

}  // namespace floptle::physics
