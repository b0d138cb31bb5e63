// Simulation state: save / restore and the state hash.
#include <cstdio>
#include <memory>

#include "floptle/core/fnv_hash.h"
#include "floptle/physics/simulation.h"

namespace floptle::physics {
namespace {

/// A collider's step state with the id of the collider that saved it: colliders may be swapped
/// while the simulation runs (a script's swap, the interaction rules re-composed), and a state
/// goes back only to the very collider it came from.
struct ColliderStepState final : CollisionShape::StepState {
  ColliderId id;
  std::shared_ptr<const CollisionShape::StepState> state;
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
  s.characterGravity = characterGravity_;
  s.bodyGravity = bodyGravity_;
  s.collidersCurrent = collidersCurrent_;
  // A collider swapped out since the last step (updateColliders reads the list anew) has none.
  for (ColliderId id : updatedColliders_) {
    if (!world_->valid(id)) continue;
    auto tagged = std::make_shared<ColliderStepState>();
    tagged->id = id;
    tagged->state = world_->shape(id).saveStepState();
    s.colliders.push_back(std::move(tagged));
  }
  if (matter_) s.matter = matter_->save();
  if (scripts_) s.scripts = scripts_->save();
  return s;
}

void Simulation::restore(const SimulationState& s) {
  tick_ = s.tick;
  bodies_.restore(s.bodies);
  for (std::size_t i = 0; i < characters_.size() && i < s.characters.size(); ++i)
    characters_[i].state() = s.characters[i];
  characterInputs_ = s.characterInputs;
  characterInputs_.resize(characters_.size());
  for (std::size_t i = 0; i < vehicles_.size() && i < s.wheels.size(); ++i)
    vehicles_[i].wheels() = s.wheels[i];
  vehicleInputs_ = s.vehicleInputs;
  vehicleInputs_.resize(vehicles_.size());
  characterGravity_ = s.characterGravity;
  characterGravity_.resize(characters_.size(), settings_.gravity);
  bodyGravity_ = s.bodyGravity;
  bodyGravity_.resize(bodies_.size(), settings_.gravity);
  collidersCurrent_ = s.collidersCurrent;
  for (const auto& saved : s.colliders) {
    const auto* tagged = dynamic_cast<const ColliderStepState*>(saved.get());
    if (tagged && tagged->state && world_->valid(tagged->id))
      world_->shape(tagged->id).restoreStepState(*tagged->state);
  }
  if (matter_ && s.matter) matter_->restore(*s.matter);
  if (scripts_ && s.scripts) scripts_->restore(*s.scripts);
  nextEvent_ = 0;
  while (nextEvent_ < events_.size() && events_[nextEvent_].tick < tick_) ++nextEvent_;
  clock_.reset();
  world_->refit(time());
}

std::uint64_t Simulation::stateHash() const {
  Fnv1a64 h;
  h.u64(tick_);
  const RigidBodySystem::Snapshot b = bodies_.save();
  for (const BodyState& s : b.states) {
    h.vec(s.position), h.quat(s.rotation), h.vec(s.linearVelocity), h.vec(s.angularVelocity);
    h.f32(s.stillTime), h.u64(s.asleep);
  }
  for (const WarmStartEntry& e : b.warmStart)
    h.u64(e.key), h.f32(e.normalImpulse), h.vec(e.frictionImpulse);
  for (const CharacterController& c : characters_) {
    const CharacterState& s = c.state();
    h.vec(s.position), h.vec(s.velocity), h.vec(s.surfaceVelocity), h.vec(s.groundNormal);
    h.vec(s.wallNormal), h.u64(s.grounded), h.u64(s.touchingWall), h.u64(s.onFeet);
    // The index, -1 for none (the pinned hashes predate generations).
    const std::int64_t ground = s.groundCollider.null() ? -1 : std::int64_t(s.groundCollider.index);
    h.u64(static_cast<std::uint64_t>(ground)), h.vec(s.groundPoint);
    h.vec(s.up), h.vec(s.forward);
  }
  for (Vec3 g : characterGravity_) h.vec(g);
  for (Vec3 g : bodyGravity_) h.vec(g);
  for (const CharacterInput& in : characterInputs_)
    h.f32(in.move.x), h.f32(in.move.y), h.u64(in.jump);
  for (const Vehicle& v : vehicles_)
    for (const WheelState& w : v.wheels())
      h.f32(w.compression), h.f32(w.load), h.u64(w.contact), h.u64(w.hadContact);
  for (const VehicleInput& in : vehicleInputs_)
    h.f32(in.throttle), h.f32(in.brake), h.f32(in.steer);
  // Only colliders that update each step have step state: other scenes hash as before.
  for (ColliderId id : updatedColliders_)
    if (world_->valid(id)) h.u64(world_->shape(id).stepStateHash());
  // Only simulations with a matter stage hash it: other scenes hash as before.
  if (matter_) h.u64(matter_->stateHash());
  // Likewise the script stage.
  if (scripts_) h.u64(scripts_->stateHash());
  return h.value();
}

std::string Simulation::hashHex(std::uint64_t hash) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

}  // namespace floptle::physics
