// Simulation state: save / restore and the state hash.
#include <cstdio>
#include <cstring>

#include "floptle/physics/simulation.h"

namespace floptle::physics {
namespace {

/// FNV-1a 64 over bit patterns, fed field by field (never struct padding).
class StateHasher {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      hash_ ^= p[i];
      hash_ *= 0x100000001b3ull;
    }
  }
  void u64(std::uint64_t v) { bytes(&v, sizeof v); }
  void f32(float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    bytes(&bits, sizeof bits);
  }
  void vec(Vec3 v) { f32(v.x), f32(v.y), f32(v.z); }
  void quat(Quat q) { f32(q.x), f32(q.y), f32(q.z), f32(q.w); }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

SimulationState Simulation::save() const {
  SimulationState s;
  s.tick = tick_;
  s.bodies = bodies_.save();
  for (const CharacterController& c : characters_) s.characters.push_back(c.state());
  s.characterInputs = characterInputs_;
  for (const Vehicle& v : vehicles_) s.wheels.push_back(v.wheels());
  s.vehicleInputs = vehicleInputs_;
  return s;
}

void Simulation::restore(const SimulationState& s) {
  tick_ = s.tick;
  bodies_.restore(s.bodies);
  for (std::size_t i = 0; i < characters_.size() && i < s.characters.size(); ++i)
    characters_[i].state() = s.characters[i];
  characterInputs_ = s.characterInputs;
  characterInputs_.resize(characters_.size());
  for (std::size_t i = 0; i < vehicles_.size() && i < s.wheels.size(); ++i) vehicles_[i].wheels() = s.wheels[i];
  vehicleInputs_ = s.vehicleInputs;
  vehicleInputs_.resize(vehicles_.size());
  nextEvent_ = 0;
  while (nextEvent_ < events_.size() && events_[nextEvent_].tick < tick_) ++nextEvent_;
  clock_.reset();
  world_->refit(time());
}

std::uint64_t Simulation::stateHash() const {
  StateHasher h;
  h.u64(tick_);
  const RigidBodySystem::Snapshot b = bodies_.save();
  for (const BodyState& s : b.states) {
    h.vec(s.position), h.quat(s.rotation), h.vec(s.linearVelocity), h.vec(s.angularVelocity);
    h.f32(s.stillTime), h.u64(s.asleep);
  }
  for (const WarmStartEntry& e : b.warmStart) h.u64(e.key), h.f32(e.normalImpulse), h.vec(e.frictionImpulse);
  for (const CharacterController& c : characters_) {
    const CharacterState& s = c.state();
    h.vec(s.position), h.vec(s.velocity), h.vec(s.surfaceVelocity), h.vec(s.groundNormal);
    h.vec(s.wallNormal), h.u64(s.grounded), h.u64(s.touchingWall), h.u64(s.onFeet);
    // The index, -1 for none (the pinned hashes predate generations).
    const std::int64_t ground = s.groundCollider.null() ? -1 : std::int64_t(s.groundCollider.index);
    h.u64(static_cast<std::uint64_t>(ground)), h.vec(s.groundPoint);
  }
  for (const CharacterInput& in : characterInputs_) h.f32(in.move.x), h.f32(in.move.y), h.u64(in.jump);
  for (const Vehicle& v : vehicles_)
    for (const WheelState& w : v.wheels()) h.f32(w.compression), h.f32(w.load), h.u64(w.contact), h.u64(w.hadContact);
  for (const VehicleInput& in : vehicleInputs_) h.f32(in.throttle), h.f32(in.brake), h.f32(in.steer);
  return h.value();
}

std::string Simulation::hashHex(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace floptle::physics
