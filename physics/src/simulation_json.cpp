// Simulation <-> JSON: the tick-addressed input events and the printed result.
#include <cmath>

#include "floptle/core/scene/component_values.h"
#include "floptle/physics/simulation.h"

namespace floptle::physics {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

OrderedJson vec3Json(Vec3 v) {
  return OrderedJson::array({v.x, v.y, v.z});
}
OrderedJson quatJson(Quat q) {
  return OrderedJson::array({q.x, q.y, q.z, q.w});
}

}  // namespace

Expected<std::vector<InputEvent>> parseInputEvents(const nlohmann::json& document) {
  if (!document.is_array()) return Error{"", "inputs must be a JSON array of events"};
  std::vector<InputEvent> events;
  for (std::size_t i = 0; i < document.size(); ++i) {
    const OrderedJson e = document[i];
    auto in = scene::ComponentReader::open(e, "input_event", "/" + std::to_string(i));
    if (!in) return in.error();
    InputEvent ev;
    std::int64_t tick = 0;
    double move[2] = {0.0, 0.0};
    float throttle = 0.0f, brake = 0.0f, steer = 0.0f;
    for (const Expected<void>& read :
         {in->onlyKnownKeys(), in->integer("tick", tick), in->string("node", ev.node),
          in->vector("move", move), in->boolean("jump", ev.jump), in->number("throttle", throttle),
          in->number("brake", brake), in->number("steer", steer)}) {
      if (!read) return read.error();
    }
    ev.tick = static_cast<std::uint64_t>(tick);
    if (in->has("move")) {
      Vec2 direction(static_cast<float>(move[0]), static_cast<float>(move[1]));
      const float len = glm::length(direction);
      if (!std::isfinite(len) || len > 1.0f + 1e-4f)
        return Error{in->pointer() + "/move", "length must be <= 1"};
      if (len > 1.0f) direction /= len;
      ev.move = direction;
    }
    if (in->has("throttle")) ev.throttle = throttle;
    if (in->has("brake")) ev.brake = brake;
    if (in->has("steer")) ev.steer = steer;
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
  if (matter_) matter_->writeCounters(j);
  return j;
}

std::vector<NodeSample> Simulation::nodeSamples() const {
  // Solver contacts per body this tick (each contact counts for both its bodies).
  std::vector<std::uint32_t> bodyContacts(bodies_.size(), 0);
  for (const Contact& c : bodies_.contacts()) {
    ++bodyContacts[c.bodyA];
    if (c.bodyB >= 0) ++bodyContacts[std::size_t(c.bodyB)];
  }
  std::vector<NodeSample> out;
  for (std::uint32_t i : freeBodies_) {
    const RigidBodyDesc& d = bodies_.desc(i);
    if (d.motion != BodyMotion::Dynamic) continue;
    const BodyState& s = bodies_.state(i);
    out.push_back({NodeSample::Kind::Body, i, d.name, s.position, s.linearVelocity, bodyGravity_[i],
                   d.mass, bodyContacts[i]});
  }
  for (std::uint32_t i = 0; i < characters_.size(); ++i) {
    const CharacterController& c = characters_[i];
    const CharacterState& s = c.state();
    out.push_back({NodeSample::Kind::Character, i, c.desc().name, s.position, s.velocity,
                   characterGravity_[i], c.desc().mass,
                   std::uint32_t(s.grounded != 0) + std::uint32_t(s.touchingWall != 0)});
  }
  for (std::uint32_t i = 0; i < vehicles_.size(); ++i) {
    const Vehicle& v = vehicles_[i];
    const BodyState& s = bodies_.state(v.chassis());
    std::uint32_t contacts = bodyContacts[v.chassis()];
    for (const WheelState& w : v.wheels()) contacts += w.contact != 0;
    out.push_back({NodeSample::Kind::Vehicle, i, v.desc().name, s.position, s.linearVelocity,
                   bodyGravity_[v.chassis()], bodies_.desc(v.chassis()).mass, contacts});
  }
  return out;
}

nlohmann::ordered_json Simulation::resultJson() const {
  OrderedJson out;
  out["tick"] = tick_;
  out["hash"] = hashHex(stateHash());
  OrderedJson nodes = OrderedJson::object();
  for (const NodeSample& sample : nodeSamples()) {
    OrderedJson n;
    n["position"] = vec3Json(sample.position);
    switch (sample.kind) {
      case NodeSample::Kind::Body: {
        const BodyState& s = bodies_.state(sample.index);
        n["rotation"] = quatJson(s.rotation);
        n["velocity"] = vec3Json(sample.velocity);
        n["angular_velocity"] = vec3Json(s.angularVelocity);
        n["asleep"] = s.asleep != 0;
        n["gravity"] = vec3Json(sample.gravity);
        break;
      }
      case NodeSample::Kind::Character: {
        const CharacterController& c = characters_[sample.index];
        const CharacterState& s = c.state();
        n["rotation"] = quatJson(c.orientation());
        n["velocity"] = vec3Json(sample.velocity);
        n["gravity"] = vec3Json(sample.gravity);
        n["up"] = vec3Json(s.up);
        n["grounded"] = s.grounded != 0;
        if (s.grounded) n["ground_normal"] = vec3Json(s.groundNormal);
        if (s.touchingWall) n["wall_normal"] = vec3Json(s.wallNormal);
        break;
      }
      case NodeSample::Kind::Vehicle: {
        const Vehicle& v = vehicles_[sample.index];
        const BodyState& s = bodies_.state(v.chassis());
        n["rotation"] = quatJson(s.rotation);
        n["velocity"] = vec3Json(sample.velocity);
        n["angular_velocity"] = vec3Json(s.angularVelocity);
        n["gravity"] = vec3Json(sample.gravity);
        OrderedJson wheels = OrderedJson::array();
        for (const WheelState& w : v.wheels())
          wheels.push_back(
              {{"contact", w.contact != 0}, {"compression", w.compression}, {"load", w.load}});
        n["wheels"] = wheels;
        break;
      }
    }
    nodes[std::string(sample.name)] = n;
  }
  if (matter_) matter_->writeResults(nodes);
  out["nodes"] = nodes;
  out["counters"] = countersJson();
  return out;
}

}  // namespace floptle::physics
