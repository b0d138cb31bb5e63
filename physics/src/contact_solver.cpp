// Sequential impulses over SDF contacts: bounce targets and warm start, the velocity
// iterations (normal impulses, then each patch's Coulomb friction), the energy-free position
// correction and the warm-start cache.
#include <algorithm>
#include <cmath>

#include "floptle/physics/rigid_body_system.h"

namespace floptle::physics {

Vec3 RigidBodySystem::velocityAt(std::int32_t body, Vec3 r) const {
  if (body < 0) return Vec3(0.0f);
  const BodyState& s = states_[std::size_t(body)];
  if (s.asleep) return Vec3(0.0f);
  return s.linearVelocity + glm::cross(s.angularVelocity, r);
}

float RigidBodySystem::effectiveMass(std::uint32_t a, std::int32_t b, Vec3 rA, Vec3 rB,
                                     Vec3 dir) const {
  float k = 0.0f;
  if (movesNow(std::int32_t(a))) {
    const Vec3 ra = glm::cross(rA, dir);
    k += masses_[a].inverseMass + glm::dot(ra, inverseInertiaWorld_[a] * ra);
  }
  if (movesNow(b)) {
    const Vec3 rb = glm::cross(rB, dir);
    k += masses_[std::size_t(b)].inverseMass +
         glm::dot(rb, inverseInertiaWorld_[std::size_t(b)] * rb);
  }
  return k > 0.0f ? 1.0f / k : 0.0f;
}

void RigidBodySystem::applyImpulse(std::uint32_t a, std::int32_t b, Vec3 rA, Vec3 rB,
                                   Vec3 impulse) {
  if (movesNow(std::int32_t(a))) {
    BodyState& s = states_[a];
    s.linearVelocity += impulse * masses_[a].inverseMass;
    s.angularVelocity += inverseInertiaWorld_[a] * glm::cross(rA, impulse);
  }
  if (movesNow(b)) {
    BodyState& s = states_[std::size_t(b)];
    s.linearVelocity -= impulse * masses_[std::size_t(b)].inverseMass;
    s.angularVelocity -= inverseInertiaWorld_[std::size_t(b)] * glm::cross(rB, impulse);
  }
}

void RigidBodySystem::applyAngularImpulse(std::uint32_t a, std::int32_t b, Vec3 angular) {
  if (movesNow(std::int32_t(a))) states_[a].angularVelocity += inverseInertiaWorld_[a] * angular;
  if (movesNow(b))
    states_[std::size_t(b)].angularVelocity -= inverseInertiaWorld_[std::size_t(b)] * angular;
}

Vec3 RigidBodySystem::angularVelocityOf(std::int32_t body) const {
  if (!movesNow(body)) return Vec3(0.0f);
  return states_[std::size_t(body)].angularVelocity;
}

float RigidBodySystem::twistMass(std::uint32_t a, std::int32_t b, Vec3 axis) const {
  float k = 0.0f;
  if (movesNow(std::int32_t(a))) k += glm::dot(axis, inverseInertiaWorld_[a] * axis);
  if (movesNow(b)) k += glm::dot(axis, inverseInertiaWorld_[std::size_t(b)] * axis);
  return k > 0.0f ? 1.0f / k : 0.0f;
}

namespace {
const WarmStartEntry* findEntry(const std::vector<WarmStartEntry>& cache, std::uint64_t key) {
  auto it = std::lower_bound(cache.begin(), cache.end(), key,
                             [](const WarmStartEntry& e, std::uint64_t k) { return e.key < k; });
  return (it != cache.end() && it->key == key) ? &*it : nullptr;
}
}  // namespace

void RigidBodySystem::prepareContacts(float dt) {
  const float threshold = settings_.restitutionThreshold;
  for (Contact& c : contacts_) {
    const BodyState& sa = states_[c.bodyA];
    c.rA = c.point - sa.position;
    c.localA = glm::conjugate(sa.rotation) * c.rA;
    if (c.bodyB >= 0) {
      const BodyState& sb = states_[std::size_t(c.bodyB)];
      c.rB = c.point - sb.position;
      c.localB = glm::conjugate(sb.rotation) * c.rB;
    }
    c.normalMass = effectiveMass(c.bodyA, c.bodyB, c.rA, c.rB, c.normal);
    // Approach speed u (after gravity) and the rate gravity closes the gap at, a (m/s^2):
    // only a body falling onto something fixed accelerates towards it.
    const Vec3 vRel =
        velocityAt(std::int32_t(c.bodyA), c.rA) - velocityAt(c.bodyB, c.rB) - c.surfaceVelocity;
    const float u = -glm::dot(vRel, c.normal);
    const float a = movesNow(c.bodyB) ? 0.0f : -glm::dot(gravity_[c.bodyA], c.normal);
    const float sep = c.separation;
    c.targetVelocity = sep > 0.0f ? -sep / dt : 0.0f;
    c.bounces = false;
    c.bounceFix = 0.0f;
    if (c.restitution > 0.0f && u * dt > sep) {
      // Where inside the step the gap closes, and how fast (constant acceleration a).
      const float u0 = u - a * dt;
      const float d = std::max(sep, 0.0f);
      const float impact = std::sqrt(std::max(u0 * u0 + 2.0f * a * d, 0.0f));
      float tau = 0.0f;
      if (std::fabs(a) > 1e-6f)
        tau = (impact - u0) / a;
      else if (u0 > 1e-9f)
        tau = d / u0;
      tau = std::clamp(tau, 0.0f, dt);
      if (impact > threshold) {
        const float rest = dt - tau;  // time left after the bounce (s)
        const float rebound = c.restitution * impact;
        c.bounces = true;
        c.targetVelocity = rebound - a * rest;
        const float gapAtEnd = rebound * rest - 0.5f * a * rest * rest;
        c.bounceFix = gapAtEnd - (sep + c.targetVelocity * dt);
      }
    }
    c.normalImpulse = 0.0f;
    if (const WarmStartEntry* e =
            findEntry(warmStart_, warmStartKey(c.bodyA, c.bodyB, c.worldCollider, c.feature))) {
      if (!c.bounces) {
        c.normalImpulse = e->normalImpulse;
        applyImpulse(c.bodyA, c.bodyB, c.rA, c.rB, c.normal * c.normalImpulse);
      }
    }
  }
  for (FrictionPatch& p : patches_) {
    p.impulse = Vec3(0.0f);
    p.twistImpulse = 0.0f;
    if (!p.carriesWeight || p.friction <= 0.0f) continue;
    const WarmStartEntry* e =
        findEntry(warmStart_, warmStartKey(p.bodyA, p.bodyB, p.worldCollider, kPatchFeature));
    if (!e) continue;
    float load = 0.0f;
    for (std::uint32_t k = 0; k < p.contactCount; ++k)
      load += contacts_[p.firstContact + k].normalImpulse;
    Vec3 j = e->frictionImpulse - p.normal * glm::dot(e->frictionImpulse, p.normal);
    const float budget = p.friction * load;
    const float len = glm::length(j);
    if (len > budget) j *= budget / std::max(len, 1e-20f);
    p.impulse = j;
    applyImpulse(p.bodyA, p.bodyB, p.rA, p.rB, j);
    const float twistBudget = budget * p.twistRadius;
    p.twistImpulse = std::clamp(e->normalImpulse, -twistBudget, twistBudget);
    applyAngularImpulse(p.bodyA, p.bodyB, p.normal * p.twistImpulse);
  }
}

void RigidBodySystem::solveVelocities() {
  const int iterations = std::max(1, settings_.velocityIterations);
  const std::size_t patchCount = patches_.size();
  for (int it = 0; it < iterations; ++it) {
    // Symmetric Gauss-Seidel: odd iterations run backwards, so a fixed processing order
    // leaves no bias (a bias would build up as a slow spin in stacks).
    const bool backwards = (it & 1) != 0;
    for (std::size_t pi = 0; pi < patchCount; ++pi) {
      FrictionPatch& p = patches_[backwards ? patchCount - 1 - pi : pi];
      float load = 0.0f;
      for (std::uint32_t kk = 0; kk < p.contactCount; ++kk) {
        const std::uint32_t k = backwards ? p.contactCount - 1 - kk : kk;
        Contact& c = contacts_[p.firstContact + k];
        const Vec3 vRel =
            velocityAt(std::int32_t(c.bodyA), c.rA) - velocityAt(c.bodyB, c.rB) - c.surfaceVelocity;
        const float vn = glm::dot(vRel, c.normal);
        const float lambda = -c.normalMass * (vn - c.targetVelocity);
        const float total = std::max(c.normalImpulse + lambda, 0.0f);
        const float applied = total - c.normalImpulse;
        c.normalImpulse = total;
        if (applied != 0.0f) applyImpulse(c.bodyA, c.bodyB, c.rA, c.rB, c.normal * applied);
        load += c.normalImpulse;
      }
      // Coulomb: the tangential impulse at the patch anchor may not exceed mu x its load.
      if (!p.carriesWeight || p.friction <= 0.0f) continue;
      const Vec3 vRel =
          velocityAt(std::int32_t(p.bodyA), p.rA) - velocityAt(p.bodyB, p.rB) - p.surfaceVelocity;
      const Vec3 lambda = -p.mass1 * glm::dot(vRel, p.tangent1) * p.tangent1 -
                          p.mass2 * glm::dot(vRel, p.tangent2) * p.tangent2;
      Vec3 total = p.impulse + lambda;
      const float budget = p.friction * load;
      const float len = glm::length(total);
      if (len > budget) total *= budget / std::max(len, 1e-20f);
      const Vec3 applied = total - p.impulse;
      p.impulse = total;
      applyImpulse(p.bodyA, p.bodyB, p.rA, p.rB, applied);
      // Twist about the normal, within mu x load x the contacts' mean lever.
      if (p.twistMass > 0.0f && p.twistRadius > 0.0f) {
        const float spin = glm::dot(
            angularVelocityOf(std::int32_t(p.bodyA)) - angularVelocityOf(p.bodyB), p.normal);
        const float twistBudget = budget * p.twistRadius;
        const float twist =
            std::clamp(p.twistImpulse - p.twistMass * spin, -twistBudget, twistBudget);
        applyAngularImpulse(p.bodyA, p.bodyB, p.normal * (twist - p.twistImpulse));
        p.twistImpulse = twist;
      }
    }
  }
  for (const Contact& c : contacts_) {
    if (c.normalImpulse <= 0.0f) continue;
    pushed_[c.bodyA] = 1;
    if (c.bodyB >= 0) pushed_[std::size_t(c.bodyB)] = 1;
    if (c.bounces && std::fabs(c.bounceFix) > std::fabs(bounceFix_[c.bodyA])) {
      bounceFix_[c.bodyA] = c.bounceFix;
      bounceNormal_[c.bodyA] = c.normal;
    }
  }
}

void RigidBodySystem::correctPositions() {
  // Pseudo-impulses on positions only (no velocity changes: no energy, no friction budget).
  const float slop = settings_.penetrationSlop;
  const float beta = settings_.positionCorrection;
  for (int it = 0; it < settings_.positionIterations; ++it) {
    for (const Contact& c : contacts_) {
      const bool aMoves = movesNow(std::int32_t(c.bodyA));
      const bool bMoves = movesNow(c.bodyB);
      if (!aMoves && !bMoves) continue;
      BodyState& sa = states_[c.bodyA];
      const Vec3 pa = sa.position + sa.rotation * c.localA;
      float separation = c.separation + glm::dot(pa - c.point, c.normal);
      Vec3 rb(0.0f);
      if (c.bodyB >= 0) {
        const BodyState& sb = states_[std::size_t(c.bodyB)];
        const Vec3 pb = sb.position + sb.rotation * c.localB;
        separation -= glm::dot(pb - c.point, c.normal);
        rb = pb - sb.position;
      }
      const float error = separation + slop;
      if (error >= 0.0f) continue;
      const Vec3 ra = pa - sa.position;
      const float mass = effectiveMass(c.bodyA, c.bodyB, ra, rb, c.normal);
      const Vec3 push = c.normal * (-beta * error * mass);
      if (aMoves) {
        sa.position += push * masses_[c.bodyA].inverseMass;
        const Vec3 dtheta = inverseInertiaWorld_[c.bodyA] * glm::cross(ra, push);
        sa.rotation = glm::normalize(sa.rotation +
                                     Quat(0.0f, dtheta.x, dtheta.y, dtheta.z) * sa.rotation * 0.5f);
      }
      if (bMoves) {
        BodyState& sb = states_[std::size_t(c.bodyB)];
        sb.position -= push * masses_[std::size_t(c.bodyB)].inverseMass;
        const Vec3 dtheta = inverseInertiaWorld_[std::size_t(c.bodyB)] * glm::cross(rb, -push);
        sb.rotation = glm::normalize(sb.rotation +
                                     Quat(0.0f, dtheta.x, dtheta.y, dtheta.z) * sb.rotation * 0.5f);
      }
    }
  }
}

void RigidBodySystem::keepImpulses() {
  std::vector<WarmStartEntry> next;
  next.reserve(contacts_.size() + patches_.size());
  for (const Contact& c : contacts_)
    if (c.normalImpulse > 0.0f)
      next.push_back({warmStartKey(c.bodyA, c.bodyB, c.worldCollider, c.feature), c.normalImpulse,
                      Vec3(0.0f)});
  for (const FrictionPatch& p : patches_)
    if (glm::dot(p.impulse, p.impulse) > 0.0f || p.twistImpulse != 0.0f)
      next.push_back({warmStartKey(p.bodyA, p.bodyB, p.worldCollider, kPatchFeature),
                      p.twistImpulse, p.impulse});
  // A sleeper makes no contacts of its own: keep its impulses for when it wakes.
  for (const WarmStartEntry& e : warmStart_) {
    const std::uint64_t bodyA = e.key >> 42;
    if (bodyA < states_.size() && states_[bodyA].asleep) next.push_back(e);
  }
  std::sort(next.begin(), next.end(),
            [](const WarmStartEntry& x, const WarmStartEntry& y) { return x.key < y.key; });
  next.erase(
      std::unique(next.begin(), next.end(),
                  [](const WarmStartEntry& x, const WarmStartEntry& y) { return x.key == y.key; }),
      next.end());
  warmStart_ = std::move(next);
}

}  // namespace floptle::physics
