// SoftBody::step: the XPBD substeps (soft_body.h states the scheme), contacts and sleep.
#include <algorithm>
#include <cmath>

#include "floptle/matter/soft_body.h"
#include "soft_body_particles.h"
#include "soft_body_sweep.h"

namespace floptle::matter {
Vec3 SoftBody::centroid() const {
  // Summed in double: a float sum of thousands of positions far from the origin is biased.
  glm::dvec3 sum(0.0);
  for (Vec3 p : state_.position) sum += glm::dvec3(p);
  return Vec3(sum / double(state_.position.size()));
}

float SoftBody::sumTetVolumes(std::vector<Packed>& scratch) const {
  // In the volume sweep's batches (their order is tets_'s), kLanes tetrahedra side by side and
  // added one by one: the bits of the plain loop over tets_.
  const std::size_t n = state_.position.size();
  if (scratch.size() != n + 1) scratch.assign(n + 1, Packed{});
  particles::pack(n, state_.position.data(), nullptr, scratch.data());
  sweep::VolumeSum args;
  args.x = scratch.data();
  args.ends = tetEnds_.data();
  args.mask = tetMask_.data();
  args.batches = tetMask_.size();
  return sweep::kernels().volumeSum(args);
}

float SoftBody::tetVolume() const {
  std::vector<Packed> scratch;
  return sumTetVolumes(scratch);
}

float SoftBody::volume() const {
  return volumeOf(tetVolume());
}

float SoftBody::volumeOf(float tetVolume) const {
  return tetRestVolume_ > 0.0f ? restVolume_ * (tetVolume / tetRestVolume_) : restVolume_;
}

float SoftBody::density() const {
  const float v = volume();
  return v > 0.0f ? mass_ / v : 0.0f;
}

Aabb SoftBody::bounds() const {
  Aabb box;
  for (Vec3 p : state_.position) box.min = glm::min(box.min, p), box.max = glm::max(box.max, p);
  box.min -= Vec3(radius_);
  box.max += Vec3(radius_);
  return box;
}

void SoftBody::predict(Vec3 gravity, float h) {
  const std::size_t n = state_.position.size();
  // The predicted positions go to the sweeps' packed copy only: solveSubstep writes them back
  // to state_.position at its end (unpackPositions); a measuring substep's virials ride along.
  if (packed_.size() != n + 1) packed_.assign(n + 1, Packed{});
  particles::predict(n, state_.position.data(), state_.velocity.data(), previous_.data(),
                     predicted_.data(), packed_.data(), measuring_ ? virial_.data() : nullptr,
                     gravity * h, h);
}

void SoftBody::stick(std::uint32_t particle, Vec3 surfacePoint) {
  if (!(desc_.viscoKnobs.stickiness > 0.0f) || anchorsThisStep_ >= bondBudget_) return;
  const std::vector<std::uint32_t>& bonded = state_.anchorParticle;
  if (std::find(bonded.begin(), bonded.end(), particle) != bonded.end()) return;
  const float rest = glm::length(state_.position[particle] - surfacePoint);
  if (!(rest > 1e-6f)) return;
  state_.anchorParticle.push_back(particle);
  state_.anchorPoint.push_back(surfacePoint);
  state_.anchorRest.push_back(rest);
  state_.anchorFormed.push_back(rest);
  ++anchorsThisStep_;
  ++counters_.bondsCreated;
}

std::uint32_t SoftBody::collide(const physics::CollisionWorld& world, double t) {
  std::uint32_t contacts = 0;
  const float mu = desc_.friction;
  std::vector<Vec3>& x = state_.position;
  const float band = desc_.visco ? desc_.viscoKnobs.contactBand : 0.0f;
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    const std::uint32_t i = candidates_[k];
    ++counters_.distanceQueries;
    // The distance alone first (no normal) unless the particle was within reach in the last
    // substep: then it most likely is again and closest's distance (the same number) decides.
    if (!candidateNear_[k] && world.distance(x[i], t) >= radius_ + band) continue;
    auto hit = world.closest(x[i], t);
    candidateNear_[k] = hit && hit.value() && hit.value()->distance < radius_ + band;
    if (!candidateNear_[k]) continue;
    const physics::Hit& c = *hit.value();
    const float depth = radius_ - c.distance;
    if (depth <= 0.0f) {
      if (desc_.visco && c.distance < radius_ + band) stick(i, c.point);  // within the band
      continue;
    }
    ++contacts;
    x[i] += depth * c.normal;
    if (measuring_) {
      // The contact force m depth / dt_sub^2 along n acting r from the centre (the dt_sub^2
      // and m = 1/w are applied in finishStress).
      const float along = loadAxis_ == Vec3(0.0f)
                              ? 1.0f / 3.0f
                              : glm::dot(c.normal, loadAxis_) * glm::dot(c.normal, loadAxis_);
      virial_[i] += radius_ * depth * along / invMass_;
    }
    if (desc_.visco) stick(i, c.point);
    // Position-level Coulomb friction against this substep's tangential motion.
    const Vec3 moved = x[i] - previous_[i];
    const Vec3 tangential = moved - glm::dot(moved, c.normal) * c.normal;
    const float slide = glm::length(tangential);
    const float limit = mu * depth;
    x[i] -= slide <= limit ? tangential : tangential * (limit / slide);
  }
  return contacts;
}

void SoftBody::finishSubstep(float h) {
  const std::size_t n = state_.position.size();
  Vec3* v = state_.velocity.data();
  // v = (x - x_prev) / h written as the predicted velocity plus the constraints' share:
  // in free flight the corrections are exactly zero, so the velocity keeps full precision
  // however far from the origin the body is (x - x_prev loses bits to |x|).
  Vec3 mean =
      particles::correctVelocities(n, state_.position.data(), predicted_.data(), v, 1.0f / h);
  mean /= float(n);
  particles::damp(n, v, mean, std::max(0.0f, 1.0f - desc_.knobs.damping * h));
}

bool SoftBody::wakes(const physics::CollisionWorld& world, Vec3 gravity, double t) const {
  if (gravity != state_.sleepGravity) return true;
  for (std::size_t c = 0; c < state_.sleepContacts.size(); ++c) {
    const float d = world.distance(state_.position[state_.sleepContacts[c]], t);
    if (std::fabs(d - state_.sleepDistances[c]) > kWakeDistance) return true;
  }
  return false;
}

void SoftBody::updateSleep(const physics::CollisionWorld& world, Vec3 gravity, double t, float dt) {
  float fastest = 0.0f;
  for (Vec3 v : state_.velocity) fastest = std::max(fastest, glm::dot(v, v));
  if (fastest >= kSleepSpeed * kSleepSpeed) {
    state_.stillTime = 0.0f;
    return;
  }
  state_.stillTime += dt;
  if (state_.stillTime < kSleepTime) return;
  state_.asleep = true;
  state_.sleepGravity = gravity;
  state_.sleepContacts.clear();
  state_.sleepDistances.clear();
  for (std::uint32_t i = 0; i < state_.position.size(); ++i) {
    const float d = world.distance(state_.position[i], t);
    if (d < 2.0f * radius_) state_.sleepContacts.push_back(i), state_.sleepDistances.push_back(d);
  }
  for (Vec3& v : state_.velocity) v = Vec3(0.0f);
}

void SoftBody::step(const physics::CollisionWorld& world, Vec3 gravity, double tEnd, float dt) {
  if (!beginStep(world, gravity, tEnd, dt)) return;
  for (int s = 0; s < substepCount(); ++s) {
    solveSubstep(s);
    endSubstep(world, s);
  }
  endStep(world);
}

bool SoftBody::beginStep(const physics::CollisionWorld& world, Vec3 gravity, double tEnd,
                         float dt) {
  counters_ = {};
  anchorsThisStep_ = 0;
  stepping_ = false;
  if (state_.asleep) {
    if (!wakes(world, gravity, tEnd)) return false;
    wake();
  }
  const int substeps = substepCount();
  stepGravity_ = gravity;
  stepEnd_ = tEnd;
  stepDt_ = dt;
  subH_ = dt / float(substeps);
  beta_ = 1.0f - std::pow(1.0f - desc_.knobs.shapeMatch, 1.0f / float(substeps));
  stepContacts_ = 0;
  previous_.resize(state_.position.size());
  predicted_.resize(state_.position.size());

  // Contact candidates for the whole step: particles that could reach the world within it.
  findCandidates(world, tEnd - dt, glm::length(gravity) * dt * dt);
  candidateNear_.assign(candidates_.size(), 0);

  const float g = glm::length(gravity);
  loadAxis_ = g > 0.0f ? gravity / g : Vec3(0.0f);
  stepping_ = true;
  return true;
}

void SoftBody::solveSubstep(int s) {
  const int substeps = substepCount();
  backward_ = (s & 1) != 0;
  // The last two substeps (one sweep each way: a Gauss-Seidel sweep's split of a load
  // between constraints leans on its order) measure; a single substep measures alone.
  measuring_ = s + 2 >= substeps;
  if (s == std::max(0, substeps - 2)) virial_.assign(state_.position.size(), 0.0f);
  predict(stepGravity_, subH_);
  if (measuring_) {
    solveDistances<true>();
    solveVolumes<true>(subH_);
  } else {
    solveDistances<false>();
    solveVolumes<false>(subH_);
  }
  if (desc_.visco && !state_.anchorParticle.empty()) {
    unpackPositions();
    solveAnchors();
    packPositions();
  }
  shapeMatch(beta_);
  unpackPositions();
}

void SoftBody::push(std::uint32_t i, Vec3 dx) {
  state_.position[i] += dx;
  if (!measuring_) return;
  // As a world contact's: the force m |dx| / dt_sub^2 along dx acting r from the centre.
  const float depth = glm::length(dx);
  if (!(depth > 0.0f)) return;
  const Vec3 n = dx / depth;
  const float along =
      loadAxis_ == Vec3(0.0f) ? 1.0f / 3.0f : glm::dot(n, loadAxis_) * glm::dot(n, loadAxis_);
  virial_[i] += radius_ * depth * along / invMass_;
}

double SoftBody::substepTime(int s) const {
  return stepEnd_ - double(stepDt_) + double(subH_) * double(s + 1);
}

void SoftBody::endSubstep(const physics::CollisionWorld& world, int s) {
  stepContacts_ += collide(world, substepTime(s));
  if (desc_.visco) applyBondRules();
  finishSubstep(subH_);
}

void SoftBody::endStep(const physics::CollisionWorld& world) {
  const int substeps = substepCount();
  measuring_ = false;
  stepping_ = false;
  finishStress(subH_, std::min(2, substeps));
  compact();
  counters_.contacts = stepContacts_;
  counters_.particlesSolved = state_.position.size() * std::uint64_t(substeps);
  updateSleep(world, stepGravity_, stepEnd_, stepDt_);
}

}  // namespace floptle::matter
