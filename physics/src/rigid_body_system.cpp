// RigidBodySystem: body bookkeeping, the step's order of stages, gravity, integration, sleep.
// Contacts: contact_generation.cpp; impulses and position correction: contact_solver.cpp.
#include "floptle/physics/rigid_body_system.h"

#include <cassert>
#include <cmath>

namespace floptle::physics {

std::uint32_t RigidBodySystem::add(const RigidBodyDesc& desc) {
  const auto index = static_cast<std::uint32_t>(descs_.size());
  descs_.push_back(desc);
  BodyState s;
  s.position = desc.position;
  s.rotation = glm::normalize(desc.rotation);
  s.linearVelocity = desc.linearVelocity;
  s.angularVelocity = desc.angularVelocity;
  states_.push_back(s);
  masses_.emplace_back();
  forces_.emplace_back(0.0f);
  torques_.emplace_back(0.0f);
  refreshMass(index);
  return index;
}

void RigidBodySystem::refreshMass(std::uint32_t i) {
  const RigidBodyDesc& d = descs_[i];
  BodyMass m;
  if (d.motion == BodyMotion::Dynamic && d.mass > 0.0f && std::isfinite(d.mass)) {
    m.inverseMass = 1.0f / d.mass;
    Vec3 inertia = d.shape.unitInertia() * d.mass;  // (kg m^2)
    m.inverseInertia =
        Vec3(inertia.x > 0 ? 1.0f / inertia.x : 0.0f, inertia.y > 0 ? 1.0f / inertia.y : 0.0f,
             inertia.z > 0 ? 1.0f / inertia.z : 0.0f);
  }
  masses_[i] = m;
}

void RigidBodySystem::wake(std::uint32_t i) {
  states_[i].asleep = 0;
  states_[i].stillTime = 0.0f;
}

void RigidBodySystem::addForce(std::uint32_t i, Vec3 force, Vec3 torque) {
  if (!isFinite(force) || !isFinite(torque)) return;
  forces_[i] += force;
  torques_[i] += torque;
  if (glm::dot(force, force) > 0.0f || glm::dot(torque, torque) > 0.0f) wake(i);
}

float RigidBodySystem::effectiveMassAt(std::uint32_t i, Vec3 point, Vec3 dir) const {
  if (descs_[i].motion != BodyMotion::Dynamic || masses_[i].inverseMass <= 0.0f) return 0.0f;
  const Vec3 r = point - states_[i].position;
  const Vec3 rxd = glm::cross(r, dir);
  const Mat3 inverseInertia = worldInverseInertia(masses_[i], states_[i].rotation);
  return 1.0f / (masses_[i].inverseMass + glm::dot(rxd, inverseInertia * rxd));
}

Vec3 RigidBodySystem::velocityAtPoint(std::uint32_t i, Vec3 point) const {
  const BodyState& s = states_[i];
  return s.linearVelocity + glm::cross(s.angularVelocity, point - s.position);
}

void RigidBodySystem::applyImpulseAt(std::uint32_t i, Vec3 point, Vec3 impulse) {
  if (descs_[i].motion != BodyMotion::Dynamic || !isFinite(point) || !isFinite(impulse)) return;
  wake(i);
  BodyState& s = states_[i];
  s.linearVelocity += impulse * masses_[i].inverseMass;
  s.angularVelocity +=
      worldInverseInertia(masses_[i], s.rotation) * glm::cross(point - s.position, impulse);
}

bool RigidBodySystem::isDynamicAwake(std::int32_t body) const {
  if (body < 0) return false;
  const auto i = static_cast<std::size_t>(body);
  return descs_[i].motion == BodyMotion::Dynamic && !states_[i].asleep;
}

void RigidBodySystem::step(const CollisionWorld& world, double t, float dt,
                           std::span<const Vec3> gravity) {
  if (!(dt > 0.0f)) return;
  const std::size_t n = descs_.size();
  assert(gravity.size() == n);
  gravity_.assign(gravity.begin(), gravity.end());
  inverseInertiaWorld_.resize(n);
  pushed_.assign(n, 0);
  moving_.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    moving_[i] = isDynamicAwake(static_cast<std::int32_t>(i)) ? 1 : 0;
  bounceFix_.assign(n, 0.0f);
  bounceNormal_.assign(n, Vec3(0.0f));
  contacts_.clear();
  patches_.clear();
  counters_ = {};

  startStates_ = states_;
  applyGravity(dt);
  findWorldContacts(world, t, dt);
  findBodyContacts(dt);
  buildPatches();
  prepareContacts(dt);
  solveVelocities();
  integratePositions(dt);
  correctPositions();
  updateSleep(dt);
  keepImpulses();
  for (std::uint32_t i : wakeNextStep_) wake(i);
  wakeNextStep_.clear();
}

void RigidBodySystem::applyGravity(float dt) {
  for (std::size_t i = 0; i < descs_.size(); ++i) {
    BodyState& s = states_[i];
    inverseInertiaWorld_[i] = worldInverseInertia(masses_[i], s.rotation);
    if (!isDynamicAwake(static_cast<std::int32_t>(i))) {
      forces_[i] = Vec3(0.0f);
      torques_[i] = Vec3(0.0f);
      continue;
    }
    s.linearVelocity += (gravity_[i] + forces_[i] * masses_[i].inverseMass) * dt;
    s.angularVelocity += inverseInertiaWorld_[i] * torques_[i] * dt;
    forces_[i] = Vec3(0.0f);
    torques_[i] = Vec3(0.0f);
  }
}

namespace {
Quat integrateRotation(Quat q, Vec3 omega, float dt) {
  Quat spin(0.0f, omega.x, omega.y, omega.z);
  Quat next = q + (spin * q) * (0.5f * dt);
  return glm::normalize(next);
}
}  // namespace

void RigidBodySystem::integratePositions(float dt) {
  for (std::size_t i = 0; i < descs_.size(); ++i) {
    BodyState& s = states_[i];
    const BodyState& s0 = startStates_[i];
    if (descs_[i].motion == BodyMotion::Kinematic) {
      s.position += s.linearVelocity * dt;
      s.rotation = integrateRotation(s.rotation, s.angularVelocity, dt);
      continue;
    }
    if (s.asleep) continue;
    if (!pushed_[i]) {
      // Nothing pushed it: the acceleration was constant over the step, and the trapezoid
      // is its exact displacement (free flight is exact at any dt).
      s.position = s0.position + 0.5f * (s0.linearVelocity + s.linearVelocity) * dt;
    } else {
      s.position += s.linearVelocity * dt;
      if (bounceFix_[i] != 0.0f) s.position += bounceNormal_[i] * bounceFix_[i];
    }
    s.rotation = integrateRotation(s.rotation, s.angularVelocity, dt);
  }
}

void RigidBodySystem::updateSleep(float dt) {
  const std::size_t n = descs_.size();
  std::vector<std::uint8_t> canSleep(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    BodyState& s = states_[i];
    if (descs_[i].motion != BodyMotion::Dynamic || s.asleep) continue;
    const bool still = glm::length(s.linearVelocity) < settings_.sleepLinearSpeed &&
                       glm::length(s.angularVelocity) < settings_.sleepAngularSpeed && pushed_[i];
    s.stillTime = still ? s.stillTime + dt : 0.0f;
    canSleep[i] = s.stillTime >= settings_.sleepTime ? 1 : 0;
  }
  // Islands sleep together: a body touching an awake body that cannot sleep stays awake
  // (else a stack's bottom box falls asleep under moving boxes, becomes fixed, is woken
  // with no warm start and jolts the stack). Propagated to a fixed point, in contact order.
  for (bool changed = true; changed;) {
    changed = false;
    for (const Contact& c : contacts_) {
      if (c.bodyB < 0) continue;
      const std::size_t a = c.bodyA, b = std::size_t(c.bodyB);
      const bool aBlocks = isDynamicAwake(std::int32_t(a)) && !canSleep[a];
      const bool bBlocks = isDynamicAwake(c.bodyB) && !canSleep[b];
      if (aBlocks && canSleep[b]) canSleep[b] = 0, changed = true;
      if (bBlocks && canSleep[a]) canSleep[a] = 0, changed = true;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    BodyState& s = states_[i];
    if (descs_[i].motion != BodyMotion::Dynamic) continue;
    if (canSleep[i]) {
      s.asleep = 1;
      s.linearVelocity = Vec3(0.0f);
      s.angularVelocity = Vec3(0.0f);
    }
    if (s.asleep)
      ++counters_.sleepingBodies;
    else
      ++counters_.awakeBodies;
  }
}

}  // namespace floptle::physics
