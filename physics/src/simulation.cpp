// Simulation: assembly from parts, inputs and the stages of one tick.
#include "floptle/physics/simulation.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "body_collider.h"

namespace floptle::physics {
namespace {

/// A new generation for each simulation, never 0 (ids only; never part of the state).
std::uint32_t nextGeneration() {
  static std::atomic<std::uint32_t> last{0};
  std::uint32_t g = ++last;
  while (g == 0) g = ++last;
  return g;
}

}  // namespace

Simulation::Simulation(SimulationSettings settings, CollisionWorld world,
                       std::vector<SurfaceMaterial> worldMaterials)
    : settings_(settings),
      generation_(nextGeneration()),
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

BodyId Simulation::addBody(const RigidBodyDesc& desc) {
  const std::uint32_t i = bodies_.add(desc);
  freeBodies_.push_back(i);
  bodyGravity_.push_back(desc.gravityResponse * gravityAt(desc.position, time()));
  collidersCurrent_ = false;  // a new active body for the near field and the re-bake
  return bodyId(i);
}

CharacterId Simulation::addCharacter(const CharacterDesc& desc) {
  const Vec3 g = desc.gravityResponse * gravityAt(desc.position, time());
  characters_.emplace_back(desc);
  characters_.back().placeOnGround(*world_, time(), g);
  characterInputs_.emplace_back();
  characterGravity_.push_back(g);
  collidersCurrent_ = false;
  return characterId(static_cast<std::uint32_t>(characters_.size() - 1));
}

VehicleId Simulation::addVehicle(const VehicleDesc& desc) {
  vehicles_.emplace_back(desc, bodies_);
  vehicleInputs_.emplace_back();
  while (bodyGravity_.size() < bodies_.size())  // the chassis
    bodyGravity_.push_back(desc.gravityResponse * gravityAt(desc.position, time()));
  collidersCurrent_ = false;
  return vehicleId(static_cast<std::uint32_t>(vehicles_.size() - 1));
}

void Simulation::setInputEvents(std::vector<InputEvent> events) {
  std::stable_sort(events.begin(), events.end(),
                   [](const InputEvent& a, const InputEvent& b) { return a.tick < b.tick; });
  events_ = std::move(events);
  nextEvent_ = 0;
  while (nextEvent_ < events_.size() && events_[nextEvent_].tick < tick_) ++nextEvent_;
}

std::optional<CharacterId> Simulation::findCharacter(std::string_view name) const {
  for (std::size_t i = 0; i < characters_.size(); ++i)
    if (characters_[i].desc().name == name) return characterId(static_cast<std::uint32_t>(i));
  return std::nullopt;
}

std::optional<VehicleId> Simulation::findVehicle(std::string_view name) const {
  for (std::size_t i = 0; i < vehicles_.size(); ++i)
    if (vehicles_[i].desc().name == name) return vehicleId(static_cast<std::uint32_t>(i));
  return std::nullopt;
}

std::optional<BodyId> Simulation::findBody(std::string_view name) const {
  for (std::uint32_t i : freeBodies_)
    if (bodies_.desc(i).name == name) return bodyId(i);
  return std::nullopt;
}

int Simulation::advance(double frameDelta) {
  const int ticks = clock_.advance(frameDelta);
  for (int i = 0; i < ticks; ++i) step();
  return ticks;
}

// The order of the stages: see the header comment.
void Simulation::step() {
  const float dt = static_cast<float>(settings_.fixedDt);
  const double tStart = double(tick_) * settings_.fixedDt;
  const double tEnd = double(tick_ + 1) * settings_.fixedDt;
  if (!collidersCurrent_) updateColliders(tEnd);  // the first tick, or bodies added since
  applyInputs();
  if (scripts_) scripts_->step(*this, tEnd, dt);
  sampleGravity(tStart);
  refitWorld(tEnd);
  stepCharacters(tEnd, dt);
  applyVehicleForces(tEnd, dt);
  stepBodies(tEnd, dt);
  stepMatter(tEnd, dt);
  ++tick_;
  updateColliders(double(tick_ + 1) * settings_.fixedDt);
}

void Simulation::sampleGravity(double tStart) {
  if (gravity_) gravity_->beginTick(*this, tStart);
  // Eased fields (an EMA rate) move each body's vector 1 - exp(-rate dt) of the way a tick.
  const float dt = static_cast<float>(settings_.fixedDt);
  const float rate = gravity_ ? gravity_->easingRate() : 0.0f;
  const float blend = rate > 0.0f ? 1.0f - std::exp(-rate * dt) : 1.0f;
  auto eased = [blend](Vec3 last, Vec3 sampled) {
    return blend < 1.0f ? last + (sampled - last) * blend : sampled;
  };
  auto gravityOf = [&](GravityReceiver::Kind kind, std::size_t i, Vec3 p) {
    return gravity_ ? gravity_->sampleFor({kind, std::uint32_t(i)}, p, tStart) : settings_.gravity;
  };
  for (std::size_t i = 0; i < characters_.size(); ++i)
    characterGravity_[i] =
        eased(characterGravity_[i],
              characters_[i].desc().gravityResponse *
                  gravityOf(GravityReceiver::Kind::Character, i, characters_[i].state().position));
  // A body's free flight is velocity Verlet across ticks: the last tick kicked it by its old
  // gravity for the whole step; half the change to the new one completes the kick (exactly
  // nothing where gravity is uniform), and the step's trapezoid drifts it by the new one.
  // Before the first tick nothing kicked it: a change there (a script's, at tick 0) is taken
  // as it is.
  const float halfDt = 0.5f * dt;
  for (std::uint32_t i = 0; i < bodies_.size(); ++i) {
    BodyState& s = bodies_.state(i);
    const Vec3 g =
        eased(bodyGravity_[i], bodies_.desc(i).gravityResponse *
                                   gravityOf(GravityReceiver::Kind::Body, i, s.position));
    if (tick_ > 0 && g != bodyGravity_[i] && bodies_.desc(i).motion == BodyMotion::Dynamic &&
        !s.asleep)
      s.linearVelocity += (g - bodyGravity_[i]) * halfDt;
    bodyGravity_[i] = g;
  }
}

void Simulation::stepMatter(double tEnd, float dt) {
  if (matter_) matter_->step(*this, tEnd, dt);
}

void Simulation::applyInputs() {
  while (nextEvent_ < events_.size() && events_[nextEvent_].tick <= tick_) {
    const InputEvent& e = events_[nextEvent_++];
    if (e.tick < tick_) continue;
    if (auto c = findCharacter(e.node)) {
      CharacterInput& in = characterInputs_[c->index];
      if (e.move) in.move = *e.move;
      if (e.jump) in.jump = true;
    }
    if (auto v = findVehicle(e.node)) {
      VehicleInput& in = vehicleInputs_[v->index];
      if (e.throttle) in.throttle = *e.throttle;
      if (e.brake) in.brake = *e.brake;
      if (e.steer) in.steer = *e.steer;
      bodies_.wake(vehicles_[v->index].chassis());
    }
  }
}

void Simulation::refitWorld(double tEnd) {
  // Static colliders' boxes only change when the field morphs.
  if (worldMorphs_ || tick_ == 0) world_->refit(tEnd);
}

void Simulation::updateColliders(double tEnd) {
  collidersCurrent_ = true;
  // Colliders may be swapped while the simulation runs (a script's swap, the interaction rules
  // re-composed): a removed collider's id is no longer valid, and its replacement is read anew.
  if (!std::all_of(updatedColliders_.begin(), updatedColliders_.end(),
                   [this](ColliderId id) { return world_->valid(id); })) {
    updatedColliders_.clear();
    for (ColliderId id : world_->ids())
      if (world_->shape(id).updatesEachStep()) updatedColliders_.push_back(id);
  }
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
    characters_[i].step(*world_, tEnd, dt, characterGravity_[i], characterInputs_[i]);
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
    return !collider.null() && collider.index < bodyOfCollider_.size()
               ? bodyOfCollider_[collider.index]
               : -1;
  };
  for (std::size_t k = 0; k < characters_.size(); ++k) {
    CharacterController& c = characters_[k];
    const float m = c.desc().mass;
    // Weight on the body under the feet (N), at the contact; the body's whole velocity
    // there (not only its df/dt part along the normal) carries the character next step,
    // so it rides a sliding crate rather than being left behind.
    const std::int32_t under = bodyOf(c.state().groundCollider);
    if (c.state().grounded && under >= 0) {
      const auto i = static_cast<std::uint32_t>(under);
      const Vec3 weight = characterGravity_[k] * m;
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
  bodies_.step(*world_, tEnd, dt, bodyGravity_);
}

}  // namespace floptle::physics
