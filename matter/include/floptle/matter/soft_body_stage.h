#pragma once
// SoftBodyStage: the simulation's matter stage (Simulation::stepMatter) for the SoftBody tier.
// Each step, in order:
//   1. each soft body steps (scene node order, starting at the body the particle budget
//      deferred last), each under the simulation's gravity at its centroid at the step's
//      start; with a particle budget (Budget::particles > 0) a body whose particles x substeps
//      would pass what is left of it is deferred: it does not move this step and goes first
//      next step (the first body considered always steps, so every body advances);
//   2. contacts between bodies (soft_body_contacts.cpp): two particles of different bodies
//      closer than the sum of their radii are pushed apart along the line between them, each
//      by its share of inverse mass (v += dx / dt); a sleeping body takes no share (it is
//      immovable) unless pushed deeper than SoftBody::kWakeDistance, which wakes it; Coulomb
//      friction (the mean of the two materials' coefficients) removes up to mu depth / dt of
//      the pair's relative tangential velocity;
//   3. bonds between bodies: a particle of a Visco body with stickiness > 0 whose sphere comes
//      within its contact_band of another body's particle bonds to the nearest one (at most
//      the bond budget's new bonds a step, shared with the bodies' own sticky contacts);
//      a bond is a distance constraint solved once a step with compliance
//      (1/stickiness - 1) dt_sub^2 w of its sticky body (the one with the larger stickiness),
//      and takes bond.h's rule with that body's yield and break strains (it stretches, yields
//      and snaps like the others);
//   4. a Visco body whose bonds fall apart is replaced by one body per component
//      (SoftBody::split, same name) and the bonds follow their particles.
// It saves, restores and hashes all of it, and writes each node of resultJson: centroid,
// volume, rest_volume (m^3), density (kg/m^3, mass / volume now), aabb [[min], [max]],
// particles, bonds (its surviving edges and adhesion bonds, and the bonds to other bodies it
// holds), components, asleep. A node's entry sums its split pieces (centroid mass-weighted,
// aabb the union, components the pieces' count).
#include <cstdint>
#include <memory>
#include <vector>

#include "floptle/matter/soft_body.h"
#include "floptle/physics/simulation.h"

namespace floptle::matter {

class SoftBodySurfaceMap;

/// A bond between particles of two bodies (indices into SoftBodyStage::bodies()).
struct BodyBond {
  std::uint32_t bodyA = 0, particleA = 0, bodyB = 0, particleB = 0;
  float rest = 0.0f;    ///< rest length, grown by yield (m)
  float formed = 0.0f;  ///< length when it formed (m)
};

/// What the HUD shows (and `simulate`'s counters hold).
struct MatterCounts {
  std::uint64_t bodies = 0, particles = 0, bonds = 0, sleepingBodies = 0;
};

class SoftBodyStage : public physics::SimulationStage {
 public:
  /// Per-step caps (seed 002 section 5).
  struct Budget {
    /// Particle updates (particles x substeps) solved a step; 0: no cap.
    std::uint64_t particles = 0;
    /// New bonds a step (sticky contacts with the world and between bodies) (-).
    int bonds = SoftBody::kAnchorsPerStep;
  };
  /// The last step's counters (wall-clock free).
  struct Counters {
    std::uint64_t particlesSolved = 0;
    std::uint64_t bodiesDeferred = 0;
    std::uint64_t bodyContacts = 0;
    std::uint64_t bodyBondsCreated = 0;
    std::uint64_t bodyBondsBroken = 0;
    std::uint64_t bodiesWoken = 0;
  };

  void add(SoftBody body) { bodies_.push_back(std::move(body)); }
  const std::vector<SoftBody>& bodies() const { return bodies_; }
  std::vector<SoftBody>& bodies() { return bodies_; }
  /// The soft body called `name`, or null.
  const SoftBody* find(std::string_view name) const;
  void setBudget(const Budget& budget) { budget_ = budget; }
  const Budget& budget() const { return budget_; }
  const Counters& counters() const { return counters_; }
  const std::vector<BodyBond>& bodyBonds() const { return bonds_; }
  MatterCounts counts() const;
  /// The shared brickmap of the bodies' skinned surface, updated at the end of every step()
  /// (soft_body_surface_map.h); null until one is set (only drawing reads it).
  void setSurfaceMap(std::shared_ptr<SoftBodySurfaceMap> map) { surface_ = std::move(map); }
  SoftBodySurfaceMap* surfaceMap() const { return surface_.get(); }

  void step(physics::Simulation& simulation, double tEnd, float dt) override;
  /// Steps 1 to 4 above against `world` with `gravityAt(centroid)` per body (tests, benches).
  template <class GravityAt>
  void stepBodies(const physics::CollisionWorld& world, const GravityAt& gravityAt, double tEnd,
                  float dt);
  std::shared_ptr<const physics::SimulationStageSnapshot> save() const override;
  void restore(const physics::SimulationStageSnapshot& snapshot) override;
  std::uint64_t stateHash() const override;
  void writeResults(nlohmann::ordered_json& nodes) const override;
  void writeCounters(nlohmann::ordered_json& counters) const override;

 private:
  /// Step 1 for one body (returns false when deferred).
  bool stepBody(std::size_t i, const physics::CollisionWorld& world, Vec3 gravity, double tEnd,
                float dt, std::uint64_t& particlesLeft, int& bondsLeft, bool first);
  void collideBodies(float dt, int& bondsLeft);
  void collidePair(std::uint32_t i, std::uint32_t j, float dt, int& bondsLeft);
  void solveBodyBonds(float dt);
  void splitBodies();

  std::vector<SoftBody> bodies_;
  std::vector<BodyBond> bonds_;
  Budget budget_;
  std::uint32_t next_ = 0;  ///< the body step 1 starts at
  Counters counters_;
  std::shared_ptr<SoftBodySurfaceMap> surface_;
};

template <class GravityAt>
void SoftBodyStage::stepBodies(const physics::CollisionWorld& world, const GravityAt& gravityAt,
                               double tEnd, float dt) {
  counters_ = {};
  std::uint64_t particlesLeft = budget_.particles;
  int bondsLeft = budget_.bonds;
  const std::size_t n = bodies_.size();
  std::int64_t firstDeferred = -1;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = (next_ + k) % n;
    const Vec3 g = gravityAt(bodies_[i].centroid());
    if (!stepBody(i, world, g, tEnd, dt, particlesLeft, bondsLeft, k == 0) && firstDeferred < 0)
      firstDeferred = std::int64_t(i);
  }
  next_ = firstDeferred < 0 ? 0u : std::uint32_t(firstDeferred);
  collideBodies(dt, bondsLeft);
  solveBodyBonds(dt);
  splitBodies();
}

}  // namespace floptle::matter
