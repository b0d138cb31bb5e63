// SoftBodyStage: stepping, snapshots, the state hash and the per-node results.
#include "floptle/matter/soft_body_stage.h"

#include "floptle/core/fnv_hash.h"

namespace floptle::matter {
namespace {

struct Snapshot : physics::SimulationStageSnapshot {
  std::vector<SoftBody::State> states;
};

nlohmann::ordered_json vec3Json(Vec3 v) {
  return nlohmann::ordered_json::array({v.x, v.y, v.z});
}

}  // namespace

const SoftBody* SoftBodyStage::find(std::string_view name) const {
  for (const SoftBody& b : bodies_)
    if (b.name() == name) return &b;
  return nullptr;
}

void SoftBodyStage::step(physics::Simulation& simulation, double tEnd, float dt) {
  for (SoftBody& b : bodies_)
    b.step(simulation.world(), simulation.gravityAt(b.centroid(), tEnd - double(dt)), tEnd, dt);
}

std::shared_ptr<const physics::SimulationStageSnapshot> SoftBodyStage::save() const {
  auto s = std::make_shared<Snapshot>();
  for (const SoftBody& b : bodies_) s->states.push_back(b.state());
  return s;
}

void SoftBodyStage::restore(const physics::SimulationStageSnapshot& snapshot) {
  const auto& s = static_cast<const Snapshot&>(snapshot);
  for (std::size_t i = 0; i < bodies_.size() && i < s.states.size(); ++i)
    bodies_[i].state() = s.states[i];
}

std::uint64_t SoftBodyStage::stateHash() const {
  Fnv1a64 h;
  for (const SoftBody& b : bodies_) {
    const SoftBody::State& s = b.state();
    for (Vec3 p : s.position) h.vec(p);
    for (Vec3 v : s.velocity) h.vec(v);
    h.quat(s.rotation), h.f32(s.stillTime), h.u64(s.asleep), h.vec(s.sleepGravity);
    for (std::uint32_t c : s.sleepContacts) h.u64(c);
    for (float d : s.sleepDistances) h.f32(d);
  }
  return h.value();
}

void SoftBodyStage::writeResults(nlohmann::ordered_json& nodes) const {
  for (const SoftBody& b : bodies_) {
    nlohmann::ordered_json n;
    const float volume = b.volume();
    const Aabb box = b.bounds();
    n["centroid"] = vec3Json(b.centroid());
    n["volume"] = volume;
    n["rest_volume"] = b.restVolume();
    n["density"] = volume > 0.0f ? b.mass() / volume : 0.0f;
    n["aabb"] = nlohmann::ordered_json::array({vec3Json(box.min), vec3Json(box.max)});
    n["particles"] = b.particleCount();
    n["bonds"] = 0;
    n["components"] = 1;
    n["asleep"] = b.state().asleep;
    nodes[b.name()] = n;
  }
}

void SoftBodyStage::writeCounters(nlohmann::ordered_json& counters) const {
  std::uint64_t solved = 0, contacts = 0, queries = 0, asleep = 0;
  for (const SoftBody& b : bodies_) {
    solved += b.counters().particlesSolved;
    contacts += b.counters().contacts;
    queries += b.counters().distanceQueries;
    asleep += b.state().asleep ? 1 : 0;
  }
  counters["matter_particles_solved"] = solved;
  counters["matter_contacts"] = contacts;
  counters["matter_distance_queries"] = queries;
  counters["matter_sleeping_bodies"] = asleep;
}

}  // namespace floptle::matter
