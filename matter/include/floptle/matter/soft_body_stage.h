#pragma once
// SoftBodyStage: the simulation's matter stage (Simulation::stepMatter) for the SoftBody tier.
// Each step, in order:
//   1. each soft body begins its step (SoftBody::beginStep; scene node order, starting at the
//      body the particle budget deferred last), each under the simulation's gravity at its
//      centroid at the step's start; with a particle budget (Budget::particles > 0) a body
//      whose particles x substeps would pass what is left of it is deferred: it does not move
//      this step and goes first next step (the first body considered always steps, so every
//      body advances); a sleeping body that nothing wakes does not step either;
//   2. the bodies advance together, substep by substep: with S the most substeps of the
//      stepping bodies, global substep s = 0..S-1 runs substep floor(s k / S) of each stepping
//      body with k substeps whose substep index changes there (floor((s+1) k / S) >
//      floor(s k / S): a body with k = S takes every global substep, one with fewer spreads
//      its k evenly and always takes the last). In each global substep, in this order:
//      a. each open body (one taking this global substep) solves its own constraints
//         (SoftBody::solveSubstep), in body order;
//      b. contacts between bodies (soft_body_contacts.cpp): two particles of different bodies
//         closer than the sum of their radii are pushed apart along the line between them,
//         each by its share of inverse mass (a position correction inside the substep, so the
//         velocities follow from the positions like every other constraint's); a stepping
//         body between its own substeps takes its share as a correction of its last substep
//         (SoftBody::shove); a body that does not step (asleep, deferred) takes no share: it is
//         immovable this step; a sleeping body pushed deeper than SoftBody::kWakeDistance wakes (it
//         steps from the next step on); Coulomb friction (the mean of the two materials'
//         coefficients) removes up to mu depth of the pair's relative tangential motion in
//         the substep;
//      c. bonds between bodies (a particle of a Visco body with stickiness > 0 whose sphere
//         comes within its contact_band of another body's particle bonds to the nearest one,
//         at most the bond budget's new bonds a step, shared in body order with the bodies' own
//         sticky contacts) are solved as distance constraints with compliance
//         (1/stickiness - 1) dt_sub^2 w of its sticky body (the one with the larger
//         stickiness, dt_sub its substep);
//      d. each open body ends its substep (SoftBody::endSubstep: world contacts, velocities);
//      so a heavy body rests on a soft one: each substep's contacts carry its weight, as the
//      world's contacts do. Known limit: two bodies in contact with different substep counts
//      do not share every substep; in a global substep where only one is open, the other
//      takes its share as a correction of its last substep (SoftBody::shove: x and v), so
//      it rests, but the corrections it gathers between its substeps reach the open one
//      lumped, which makes the open body's measured stress (compaction) too high and keeps
//      the pair jittering (they do not sleep). Give bodies that rest on each other the same
//      substeps (scenes/matter.json does);
//   3. each stepping body ends its step (stresses, compaction, sleep); every bond between
//      bodies takes bond.h's rule with its sticky body's yield and break strains (it
//      stretches, yields and snaps like the others);
//   4. a Visco body whose bonds fall apart is replaced by one body per component
//      (SoftBody::split, same name) and the bonds follow their particles.
// It saves, restores and hashes all of it, and writes each node of resultJson: centroid,
// volume, rest_volume (m^3), density (kg/m^3, mass / volume now), aabb [[min], [max]],
// particles, bonds (its surviving edges and adhesion bonds, and the bonds to other bodies it
// holds), components, asleep. A node's entry sums its split pieces (centroid mass-weighted,
// aabb the union, components the pieces' count).
#include <cstdint>
#include <memory>
#include <utility>
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
  /// The shared brickmaps of the bodies' skinned surfaces (one per material, each over the
  /// bodies it names), updated at the end of every step() (soft_body_surface_map.h); none
  /// until they are set (only drawing reads them).
  void setSurfaceMaps(std::vector<std::shared_ptr<SoftBodySurfaceMap>> maps) {
    surfaces_ = std::move(maps);
  }
  const std::vector<std::shared_ptr<SoftBodySurfaceMap>>& surfaceMaps() const { return surfaces_; }

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
  bool beginBody(std::size_t i, const physics::CollisionWorld& world, Vec3 gravity, double tEnd,
                 float dt, std::uint64_t& particlesLeft, bool first);
  /// Step 2: the stepping bodies' substeps, interleaved, with the contacts and bonds between
  /// them.
  void substepBodies(const physics::CollisionWorld& world, int& bondsLeft);
  void collideBodies(int& bondsLeft);
  void collidePair(std::uint32_t i, std::uint32_t j, int& bondsLeft);
  void solveBodyBonds();
  /// Moves a particle of a body by dx (m) in the current global substep: inside its substep
  /// when it is open (SoftBody::push), between its substeps when it steps (SoftBody::shove),
  /// not at all when it does not step.
  static void move(SoftBody& body, bool open, bool moves, std::uint32_t particle, Vec3 dx);
  /// Step 3: bond.h's rule for the bonds between bodies.
  void ruleBodyBonds();
  void splitBodies();
  /// The sticky body of a bond between bodies: the one with the larger stickiness.
  const SoftBody& stickySide(const BodyBond& bond) const;

  std::vector<SoftBody> bodies_;
  std::vector<BodyBond> bonds_;
  Budget budget_;
  std::uint32_t next_ = 0;  ///< the body step 1 starts at
  Counters counters_;
  // Scratch of the current step (no allocation once sized):
  std::vector<std::uint8_t> active_;  ///< 1: the body steps this step
  std::vector<std::uint8_t> open_;    ///< 1: the body takes the current global substep
  std::vector<int> substep_;          ///< its substep index in the current global substep
  /// collidePair's scratch, kept so that a substep allocates nothing: the particle grid's
  /// (cell key, particle) entries and the sticky side's bonded flags.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> gridEntries_;
  std::vector<std::uint8_t> bonded_;
  std::vector<std::shared_ptr<SoftBodySurfaceMap>> surfaces_;
};

template <class GravityAt>
void SoftBodyStage::stepBodies(const physics::CollisionWorld& world, const GravityAt& gravityAt,
                               double tEnd, float dt) {
  counters_ = {};
  std::uint64_t particlesLeft = budget_.particles;
  const std::size_t n = bodies_.size();
  active_.assign(n, 0);
  std::int64_t firstDeferred = -1;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = (next_ + k) % n;
    const Vec3 g = gravityAt(bodies_[i].centroid());
    if (!beginBody(i, world, g, tEnd, dt, particlesLeft, k == 0) && firstDeferred < 0)
      firstDeferred = std::int64_t(i);
  }
  next_ = firstDeferred < 0 ? 0u : std::uint32_t(firstDeferred);
  int bondsLeft = budget_.bonds;
  substepBodies(world, bondsLeft);
  for (std::size_t i = 0; i < n; ++i) {
    if (!active_[i]) continue;
    bodies_[i].endStep(world);
    counters_.particlesSolved += bodies_[i].counters().particlesSolved;
  }
  ruleBodyBonds();
  splitBodies();
}

}  // namespace floptle::matter
