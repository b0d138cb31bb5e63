// Simulation: assembly from parts, inputs and the stages of one tick.
#include "floptle/physics/simulation.h"

#include <algorithm>

#include "body_collider.h"

namespace floptle::physics {

Simulation::Simulation(SimulationSettings settings, CollisionWorld world,
                       std::vector<SurfaceMaterial> worldMaterials)
    : settings_(settings),
      world_(std::make_unique<CollisionWorld>(std::move(world))),
      bodies_(settings.solver),
      clock_(FixedStepClock::Settings{settings.fixedDt, 0.1, 4}) {
  bodies_.settings().slopeLimit = settings_.slopeLimit;
  for (const SurfaceMaterial& m : worldMaterials) worldMorphs_ = worldMorphs_ || m.morphs;
  bodies_.setWorldMaterials(std::move(worldMaterials));
  world_->refit(0.0);
  for (ColliderId id : world_->ids())
    if (world_->shape(id).updatesEachStep()) updatedColliders_.push_back(id);
}

std::uint32_t Simulation::addBody(const RigidBodyDesc& desc) {
  const std::uint32_t i = bodies_.add(desc);
  freeBodies_.push_back(i);
  return i;
}

std::uint32_t Simulation::addCharacter(const CharacterDesc& desc) {
  characters_.emplace_back(desc);
  characters_.back().placeOnGround(*world_, time(), settings_.gravity);
  characterInputs_.emplace_back();
  return static_cast<std::uint32_t>(characters_.size() - 1);
}

std::uint32_t Simulation::addVehicle(const VehicleDesc& desc) {
  vehicles_.emplace_back(desc, bodies_);
  vehicleInputs_.emplace_back();
  return static_cast<std::uint32_t>(vehicles_.size() - 1);
}

void Simulation::setInputEvents(std::vector<InputEvent> events) {
  std::stable_sort(events.begin(), events.end(),
                   [](const InputEvent& a, const InputEvent& b) { return a.tick < b.tick; });
  events_ = std::move(events);
  nextEvent_ = 0;
  while (nextEvent_ < events_.size() && events_[nextEvent_].tick < tick_) ++nextEvent_;
}

std::optional<std::uint32_t> Simulation::findCharacter(std::string_view name) const {
  for (std::size_t i = 0; i < characters_.size(); ++i)
    if (characters_[i].desc().name == name) return static_cast<std::uint32_t>(i);
  return std::nullopt;
}

std::optional<std::uint32_t> Simulation::findVehicle(std::string_view name) const {
  for (std::size_t i = 0; i < vehicles_.size(); ++i)
    if (vehicles_[i].desc().name == name) return static_cast<std::uint32_t>(i);
  return std::nullopt;
}

std::optional<std::uint32_t> Simulation::findBody(std::string_view name) const {
  for (std::uint32_t i : freeBodies_)
    if (bodies_.desc(i).name == name) return i;
  return std::nullopt;
}

int Simulation::advance(double frameDelta) {
  const int ticks = clock_.advance(frameDelta);
  for (int i = 0; i < ticks; ++i) step();
  return ticks;
}

void Simulation::step() {
  const float dt = static_cast<float>(settings_.fixedDt);
  const double tEnd = double(tick_ + 1) * settings_.fixedDt;
  applyInputs();
  updateColliders(tEnd);
  refitWorld(tEnd);
  stepCharacters(tEnd, dt);
  applyVehicleForces(tEnd, dt);
  stepBodies(tEnd, dt);
  ++tick_;
}

void Simulation::applyInputs() {
  while (nextEvent_ < events_.size() && events_[nextEvent_].tick <= tick_) {
    const InputEvent& e = events_[nextEvent_++];
    if (e.tick < tick_) continue;
    if (auto c = findCharacter(e.node)) {
      CharacterInput& in = characterInputs_[*c];
      if (e.move) in.move = *e.move;
      if (e.jump) in.jump = true;
    }
    if (auto v = findVehicle(e.node)) {
      VehicleInput& in = vehicleInputs_[*v];
      if (e.throttle) in.throttle = *e.throttle;
      if (e.brake) in.brake = *e.brake;
      if (e.steer) in.steer = *e.steer;
      bodies_.wake(vehicles_[*v].chassis());
    }
  }
}

void Simulation::refitWorld(double tEnd) {
  // Static colliders' boxes only change when the field morphs.
  if (worldMorphs_ || tick_ == 0) world_->refit(tEnd);
}

void Simulation::updateColliders(double tEnd) {
  if (updatedColliders_.empty()) return;
  std::vector<Vec3> active;
  active.reserve(characters_.size() + bodies_.size());
  for (const CharacterController& c : characters_) active.push_back(c.state().position);
  for (std::uint32_t i = 0; i < bodies_.size(); ++i) active.push_back(bodies_.state(i).position);
  for (ColliderId id : updatedColliders_) world_->shape(id).updateForStep(active, tEnd);
}

void Simulation::stepCharacters(double tEnd, float dt) {
  if (characters_.empty()) return;
  showBodiesToCharacters(tEnd);
  for (std::size_t i = 0; i < characters_.size(); ++i)
    characters_[i].step(*world_, tEnd, dt, settings_.gravity, characterInputs_[i]);
  hideBodiesFromCharacters();
  applyCharacterContacts();
}

void Simulation::showBodiesToCharacters(double tEnd) {
  if (bodies_.size() == 0) return;
  const double tStart = tEnd - settings_.fixedDt;
  while (bodyColliders_.size() < bodies_.size()) {
    const auto i = static_cast<std::uint32_t>(bodyColliders_.size());
    const ColliderId id = world_->add(std::make_unique<BodyCollider>(bodies_.desc(i).shape),
                                      bodies_.desc(i).name, BodyKind::Dynamic, false);
    bodyColliders_.push_back(id);
    bodyOfCollider_.resize(world_->slotCount(), -1);
    bodyOfCollider_[id.index] = static_cast<std::int32_t>(i);
  }
  for (std::uint32_t i = 0; i < bodies_.size(); ++i) {
    auto& collider = static_cast<BodyCollider&>(world_->shape(bodyColliders_[i]));
    collider.setPose(bodies_.state(i), tStart);
    world_->setCollidable(bodyColliders_[i], true);
  }
  world_->refitColliders(bodyColliders_, tEnd);
}

void Simulation::hideBodiesFromCharacters() {
  for (ColliderId id : bodyColliders_) world_->setCollidable(id, false);
}

void Simulation::applyCharacterContacts() {
  if (bodyColliders_.empty()) return;
  auto bodyOf = [&](ColliderId collider) -> std::int32_t {
    return !collider.null() && collider.index < bodyOfCollider_.size() ? bodyOfCollider_[collider.index] : -1;
  };
  for (CharacterController& c : characters_) {
    const float m = c.desc().mass;
    // Weight on the body under the feet (N), at the contact; the body's whole velocity
    // there (not only its df/dt part along the normal) carries the character next step,
    // so it rides a sliding crate rather than being left behind.
    const std::int32_t under = bodyOf(c.state().groundCollider);
    if (c.state().grounded && under >= 0) {
      const auto i = static_cast<std::uint32_t>(under);
      const Vec3 weight = settings_.gravity * m;
      const Vec3 r = c.state().groundPoint - bodies_.state(i).position;
      bodies_.addForce(i, weight, glm::cross(r, weight));
      c.state().surfaceVelocity = bodies_.velocityAtPoint(i, c.state().groundPoint);
    }
    // Walking into a body: a perfectly inelastic impact of the character (mass m, speed
    // v_c into the body) with the body's effective mass m_e at the contact, which moves
    // at v_b: the body gains j = m m_e (v_c - v_b) / (m + m_e), momentum conserved. The
    // character walks on at its own speed next step, so it keeps pushing.
    for (const CharacterPush& p : c.pushes()) {
      const std::int32_t body = bodyOf(p.collider);
      if (body < 0) continue;
      const auto i = static_cast<std::uint32_t>(body);
      const Vec3 dir = -p.normal;
      const float vb = glm::dot(bodies_.velocityAtPoint(i, p.point), dir);
      const float me = bodies_.effectiveMassAt(i, p.point, dir);
      if (!(p.speed > vb) || !(me > 0.0f)) continue;
      bodies_.applyImpulseAt(i, p.point, dir * (m * me * (p.speed - vb) / (m + me)));
    }
  }
}

void Simulation::applyVehicleForces(double tEnd, float dt) {
  for (std::size_t i = 0; i < vehicles_.size(); ++i)
    vehicles_[i].applyForces(*world_, tEnd, dt, vehicleInputs_[i], bodies_);
}

void Simulation::stepBodies(double tEnd, float dt) {
  bodies_.step(*world_, tEnd, dt, settings_.gravity);
}

}  // namespace floptle::physics
