#pragma once
// SoftBody: the SoftBody tier of seed 002, an XPBD particle cage (Macklin et al.).
//
// The cage: particles on a cubic lattice of spacing h at the points inside the node's shape
// (f < 0), about `particles` of them; each lattice cube whose 8 corners are all particles is
// split into 5 tetrahedra (the split alternates with the cube's parity so faces agree); the
// tetrahedra's edges are the distance constraints. Particles are spheres of radius h/2, so
// the cage's outer layer touches what the shape's surface would.
//
// One fixed step of dt runs `substeps` substeps of dt_sub = dt / substeps; each substep:
//   v += g dt_sub; x_prev = x; x += v dt_sub                     (symplectic Euler predict)
//   distance constraints C = |x_i - x_j| - l0   (Gauss-Seidel, colour by colour: no two
//                                                 constraints of a colour share a particle)
//   volume constraints C = V(tet) - V0
//   shape matching: (R, c) the best rigid fit of the rest shape q_i = x0_i - c0 (R the polar
//   rotation of A = sum (x_i - c) q_i^T, Mueller's iterative extraction warm-started from last
//   substep); x_i += beta (R q_i + c - x_i), beta = 1 - (1 - shape_match)^(1/substeps), so
//   one whole step closes `shape_match` of the gap
//   world contacts: f = world.distance(x, t) < r pushes x out by (r - f) along closest's
//   normal; position-level Coulomb friction removes the tangential motion of the substep up
//   to mu (r - f)
//   v = (x - x_prev) / dt_sub (as v_pred + (x - x_pred) / dt_sub, exact in free flight); damping:
//   v_i = v_c + (v_i - v_c) max(0, 1 - damping dt_sub) with v_c the mean velocity (free flight and
//   rigid motion as a whole are not damped)
// The XPBD update for each constraint, exactly as the seed writes it (lambda starts at 0 each
// substep, one sweep each):
//   alpha~ = alpha / dt_sub^2;  dlambda = (-C - alpha~ lambda) / (sum w_i |grad_i C|^2 + alpha~)
//   dx_i = w_i grad_i C dlambda
// Compliance mapping (all particles have the same inverse mass w = 1 / m_particle):
//   distance: alpha = (1/stiffness - 1) dt_sub^2 w          (m/N; stiffness 1 is hard)
//   volume:   alpha = (1/volume_preserve - 1) dt_sub^2 w h^4 (1/(N m^2)... scaled so that
//             volume_preserve means the same fraction as stiffness; 0 turns it off) in series
//             with the material's alpha_K = V0 / K for C = V - V0 (the elastic energy
//             K V0 eps^2 / 2 of the volumetric strain eps = (V - V0) / V0, K = bulk_modulus):
//             with volume_preserve 1 the tetrahedra resist exactly as the bulk modulus says
// Integrator error: in free flight the centroid follows the symplectic Euler sum
// y_n = g dt_sub^2 n (n + 1) / 2, i.e. g t^2 / 2 + g t dt_sub / 2.
//
// Mass = density x the shape's volume (gravity::massOf), the volume estimated as the count of
// inside lattice points x h^3; spread evenly over the particles. Gravity: one vector per body
// and step, the simulation's gravity at the centroid at the step's start.
//
// Compaction (seed 001 section 5): on each step's last two substeps (averaged: one sweep each
// way, as a sweep's split of a load between constraints leans on its order) every particle's
// compressive stress along the body's gravity direction g^ (the mean of the three normal stresses
// without gravity) is measured from the forces the solver applied, as the virial of its cell
// over its volume V_i = volume / particles:
//   s_i V_i dt_sub^2 = sum over its edges 1/2 |x_a - x_b| dlambda (n . g^)^2
//                    + sum over its tetrahedra 1/4 6V dlambda6        (isotropic: tr / 3 = 1)
//                    + sum over its world contacts r m depth (n . g^)^2
// (dlambda > 0 compresses; shape matching's and friction's shares are not counted). A column
// at rest carries its weight through every horizontal section, so its base feels about
// rho |g| h. A tetrahedron's pressure P is the mean over the 8 corners of its lattice cube
// (the cube's diagonals join its even corners only, so single particles' stresses alternate
// with parity; the cube's mean does not). After the step, a
// tetrahedron whose P passes its yield pressure P_y (the material's yield_strength at first)
// compacts for good: V0 <- V0 (1 - (P - P_y) / K) (at most halving a step), and its yield
// pressure becomes P (it is consolidated to the load, as soils are: a steady load compacts
// once and stops; only a larger one compacts further). Below the yield nothing changes and
// the strain is elastic. The compacted rest shape: each particle's length scale
// s_i = cbrt(mean over its tetrahedra of V0 / V0_initial), an edge's rest length times
// (s_a + s_b) / 2 (the scale's change since the last compaction), shape matching's goal scaled
// by the body's cbrt(sum V0 / sum V0_initial). The mass never changes, so the density
// (mass / volume) rises.
//
// Sleep: when every particle is slower than kSleepSpeed for kSleepTime the body sleeps (no
// solving); it wakes when its gravity changes or the world's distance at any particle that
// touched it when it fell asleep changes by more than kWakeDistance.
//
// Known limit: the Gauss-Seidel sweeps are not exact in angular momentum; a strongly squashed
// body (a 0.5 x 1.4 x 1.4 squash of a cube, no gravity) turns by about 0.6 rad while it
// recovers its shape. The edge sweep alternates direction each substep to halve it.
//
// Visco (desc.visco): every cage edge is a bond, and within `contact_band` of the world a
// touching particle bonds to the surface point it touches (an anchor: a distance constraint to
// a fixed point, compliance (1/stickiness - 1) dt_sub^2 w, at most the bond budget's new ones a
// step). After each substep every bond takes bond.h's elastoplastic rule (plastic rest growth
// past yield_strain, snap past break_strain); a snapped edge takes the tetrahedra it bounds with
// it. The body's parts are the connected components of its surviving edges: split() turns them
// into bodies of their own (the matter stage does, at the end of the step). Bonds between two
// matter bodies are the matter stage's (soft_body_stage.h).
//
// Particles are a structure of arrays (position, previous position, velocity); constraints
// too (index pairs, rest values). Deterministic: fixed loop orders, no FMA contraction.
// Speed (soft_body_solve.cpp): inside a substep the sweeps and shape matching's pull work on a
// packed copy of the positions (x, y, z and the compaction's virial), kLanes constraints or
// particles side by side (AVX2 or AVX-512 where the CPU has it), in batches of consecutive
// constraints that share no particle, so they give the bits of the one-at-a-time sweep; the passes
// over all particles (predict, velocities, damping, shape matching's sums) take four particles at
// a time with the bits of the plain loops (soft_body_particles.h); world contacts ask only the
// step's candidates, found block by block (a block of particles far from the world is not
// asked about particle by particle: soft_body_candidates.cpp), and no particle when the body's
// box misses every collider's box.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/matter/matter_model.h"
#include "floptle/physics/collision_world.h"

namespace floptle::matter {

struct SoftBodyDesc {
  std::string name;
  /// The node's material id ("" for none): drawing groups the bodies' surfaces by it.
  std::string material;
  SoftBodyKnobs knobs;
  float density = 1000.0f;  ///< kg/m^3
  float friction = 0.5f;    ///< Coulomb coefficient against the world (-)
  Vec3 velocity{0.0f};      ///< at the start (m/s)
  /// The Visco tier: bonds that yield and break, sticky contacts.
  bool visco = false;
  ViscoKnobs viscoKnobs;
  /// 0 for a node's body; k > 0 for the k-th piece a split left (SoftBody::split).
  int piece = 0;
  /// The material's bulk modulus K (Pa, > 0): the volume constraint's compliance and the
  /// size of a plastic compaction.
  float bulkModulus = 1e9f;
  /// The material's yield strength (Pa): the pressure past which compaction is permanent.
  float yieldStrength = 1e6f;
};

/// Counters of the last step (wall-clock free).
struct SoftBodyCounters {
  std::uint64_t particlesSolved = 0;
  std::uint64_t contacts = 0;
  std::uint64_t distanceQueries = 0;
  std::uint64_t bondsCreated = 0;
  std::uint64_t bondsYielded = 0;
  std::uint64_t bondsBroken = 0;
  /// Tetrahedra whose rest volume shrank this step (compaction) (-).
  std::uint64_t tetsCompacted = 0;
};

class SoftBody {
 public:
  static constexpr float kSleepSpeed = 0.05f;    ///< m/s
  static constexpr float kSleepTime = 1.0f;      ///< s
  static constexpr float kWakeDistance = 1e-3f;  ///< m
  /// Visco: most adhesion bonds formed in one step (-).
  static constexpr int kAnchorsPerStep = 64;
  /// In worlds of at most this many colliders a step first tests the body's box, grown by
  /// the farthest a particle can reach in the step, against every collider's box: when it
  /// meets none, no particle asks the world for its distance (-).
  static constexpr std::size_t kBoxTestColliders = 256;
  /// Constraints the sweeps solve side by side (soft_body_solve.cpp) (-).
  static constexpr int kLanes = 8;
  /// One particle in the sweeps' working copy: its position x, y, z (m), and on the substeps
  /// that measure the compaction's stresses its virial so far (virial_'s, the units of
  /// finishStress), else 0.
  struct alignas(16) Packed {
    float x = 0.0f, y = 0.0f, z = 0.0f, virial = 0.0f;
  };

  /// Everything that changes while it runs.
  struct State {
    std::vector<Vec3> position;             ///< m
    std::vector<Vec3> velocity;             ///< m/s
    Quat rotation{1.0f, 0.0f, 0.0f, 0.0f};  ///< shape-match rotation of the last substep
    float stillTime = 0.0f;                 ///< s every particle has been slower than kSleepSpeed
    bool asleep = false;
    Vec3 sleepGravity{0.0f};                   ///< the gravity it fell asleep under (m/s^2)
    std::vector<std::uint32_t> sleepContacts;  ///< particles touching the world then
    std::vector<float> sleepDistances;         ///< their world distance then (m)
    // Compaction:
    std::vector<float> tetRest;        ///< each tetrahedron's rest volume V0 now (m^3)
    std::vector<float> tetYield;       ///< its yield pressure now (Pa)
    std::vector<float> edgeRest;       ///< each edge's rest length now (compaction, yield) (m)
    std::vector<float> particleScale;  ///< s_i, each particle's compaction length scale (-)
    /// Last measured compressive stress of each particle along the load (Pa).
    std::vector<float> particleStress;
    float restRatio = 1.0f;  ///< sum V0 now / sum V0 at first rest (-)
    // Visco only (empty otherwise):
    std::vector<std::uint8_t> edgeBroken;       ///< 1 once the edge has snapped
    std::vector<std::uint8_t> tetBroken;        ///< 1 once one of its edges has snapped
    std::vector<std::uint32_t> anchorParticle;  ///< adhesion bonds: the particle,
    std::vector<Vec3> anchorPoint;              ///< the surface point it is bonded to (m),
    std::vector<float> anchorRest;              ///< the bond's rest length (m),
    std::vector<float> anchorFormed;            ///< and its length when it formed (m)
  };

  /// The cage filling {p : inside(p) < 0} within `bounds` (world space, m). Errors name
  /// `pointer`.
  static Expected<SoftBody> build(const SoftBodyDesc& desc, const std::function<float(Vec3)>& field,
                                  Aabb bounds, const std::string& pointer);

  /// One fixed step of dt (s) ending at tEnd (s) under gravity g (m/s^2): beginStep, then for
  /// each substep s solveSubstep(s) and endSubstep(world, s), then endStep.
  void step(const physics::CollisionWorld& world, Vec3 gravity, double tEnd, float dt);

  // The step in pieces, so that the matter stage can advance several bodies substep by
  // substep and solve the contacts between them inside each substep (soft_body_stage.h).
  /// Starts a step (counters, the world contact candidates); false when it stays asleep (then
  /// nothing else of the step runs).
  bool beginStep(const physics::CollisionWorld& world, Vec3 gravity, double tEnd, float dt);
  /// Substep s (0-based): predict, the distance, volume and anchor constraints, shape
  /// matching. Between this and endSubstep the positions may be corrected (push).
  void solveSubstep(int s);
  /// Substep s's end: world contacts, the bonds' rule, velocities from the positions.
  void endSubstep(const physics::CollisionWorld& world, int s);
  /// The step's end: stresses, compaction, counters, sleep.
  void endStep(const physics::CollisionWorld& world);
  /// Inside a substep: moves particle i by dx (m), a contact with another body, which the
  /// compaction's stress measurement counts as a contact force like the world's.
  void push(std::uint32_t i, Vec3 dx);
  /// Between two of its substeps: moves particle i by dx (m) as a correction of its last
  /// substep would (x += dx, v += dx / dt_sub), a contact with a body taking more substeps.
  void shove(std::uint32_t i, Vec3 dx) {
    state_.position[i] += dx;
    state_.velocity[i] += dx / subH_;
  }
  /// Between beginStep and endStep (true when it did not stay asleep).
  bool stepping() const { return stepping_; }
  int substepCount() const { return int(desc_.knobs.substeps); }
  /// The time at the end of substep s of the current step (s).
  double substepTime(int s) const;
  /// The positions at the current substep's start (m).
  const std::vector<Vec3>& substepStart() const { return previous_; }

  const std::string& name() const { return desc_.name; }
  const SoftBodyDesc& desc() const { return desc_; }
  /// Most adhesion bonds it may form in its next step (the stage's bond budget; default
  /// kAnchorsPerStep).
  void setBondBudget(int bonds) { bondBudget_ = bonds; }
  /// Wakes it (a contact from another matter body; scripts' matter.wake): it steps from the
  /// next step on and must be still for kSleepTime again to sleep.
  void wake() {
    state_.asleep = false;
    state_.stillTime = 0.0f;
  }
  float inverseParticleMass() const { return invMass_; }
  /// Visco: new bond knobs from the next step on (scripts' matter.set_sticky); the bonds that
  /// hold keep their rest lengths.
  void setViscoKnobs(const ViscoKnobs& knobs) { desc_.viscoKnobs = knobs; }
  const State& state() const { return state_; }
  State& state() { return state_; }
  const SoftBodyCounters& counters() const { return counters_; }
  /// Zeroes the counters (a step the stage's budget deferred counts nothing).
  void clearCounters() { counters_ = {}; }

  std::size_t particleCount() const { return state_.position.size(); }
  std::size_t edgeCount() const { return edgeRest_.size(); }
  /// Edge e's two particles, and its length when it formed (its rest length at build) (m).
  std::array<std::uint32_t, 2> edge(std::size_t e) const { return {edgeA_[e], edgeB_[e]}; }
  float edgeFormed(std::size_t e) const { return edgeRest_[e]; }
  std::size_t tetCount() const { return tetRest_.size(); }
  float spacing() const { return h_; }
  float radius() const { return radius_; }
  float mass() const { return mass_; }
  const std::vector<Vec3>& restPositions() const { return rest_; }

  /// Mean particle position (m).
  Vec3 centroid() const;
  /// The shape's volume estimate at its first rest (m^3), now: rest x (tetrahedra now / at
  /// first rest), and at rest now, after compaction: rest x (sum V0 now / at first rest).
  float initialRestVolume() const { return restVolume_; }
  float restVolume() const { return restVolume_ * state_.restRatio; }
  float volume() const;
  /// Mass / volume now (kg/m^3).
  float density() const;
  /// Tetrahedron t's pressure at the last step's measurement (Pa, compression positive).
  float tetPressure(std::size_t t) const;
  const std::array<std::uint32_t, 4>& tet(std::size_t t) const { return tets_[t]; }
  /// The sum of the tetrahedra's signed volumes now / at rest (m^3).
  float tetVolume() const;
  float tetRestVolume() const { return tetRestVolume_; }
  /// Particle bounds grown by the radius (m).
  Aabb bounds() const;

  /// Visco bonds holding now: surviving edges and adhesion bonds; 0 for a plain soft body,
  /// whose edges never yield or break (-).
  std::size_t bondCount() const;
  /// Connected components of the particles over the surviving edges (-).
  std::size_t componentCount() const;
  /// The component of each particle, numbered from 0 in order of each's first particle.
  std::vector<std::uint32_t> components() const;
  /// Visco: applies bond.h's rule to every bond at the current positions.
  void applyBondRules();
  /// Visco: snaps every edge that crosses the plane through `point` with normal `normal`
  /// (its two particles on strictly opposite sides), as a cut through the body.
  void severBondsCrossing(Vec3 point, Vec3 normal);
  /// The components as bodies of their own (same name, desc().piece = k from 1, k in order of
  /// each component's first particle), each keeping its particles' state, surviving edges and
  /// whole tetrahedra; {*this} for one component.
  std::vector<SoftBody> split() const;

 private:
  void predict(Vec3 gravity, float h);
  /// tetVolume() with `scratch` as the packed copy of the positions it reads.
  float sumTetVolumes(std::vector<Packed>& scratch) const;
  /// volume() for the tetrahedra's volume sum `tetVolume` (m^3).
  float volumeOf(float tetVolume) const;
  /// Cuts the edges and tetrahedra into the sweeps' batches (soft_body_solve.cpp); after
  /// every change of the constraint lists (build, split).
  void prepareSolver();
  /// The sweeps' working copy (predict writes it) back to / from state_.position.
  void unpackPositions();
  void packPositions();
  template <bool kMeasure>
  void solveDistances();
  template <bool kMeasure>
  void solveVolumes(float h);
  /// Compaction: the particles' stresses from the measured virials (soft_body_compaction.cpp).
  /// `measured`: how many substeps added to virial_.
  void finishStress(float h, int measured);
  /// Compaction: the plastic rest-volume shrink of the tetrahedra past their yield.
  void compact();
  /// The body's uniform compaction length scale cbrt(restRatio) (-).
  float compactedScale() const;
  void shapeMatch(float beta);
  std::uint32_t collide(const physics::CollisionWorld& world, double t);
  /// beginStep: false when no particle can reach a collider's box in this step (the box test
  /// of kBoxTestColliders); `fall` = |g| dt^2 (m).
  bool mayTouch(const physics::CollisionWorld& world, float fall) const;
  /// beginStep: candidates_, the particles that could reach the world within the step, asked
  /// at time t (soft_body_candidates.cpp).
  void findCandidates(const physics::CollisionWorld& world, double t, float fall);
  /// blockFirst_ / blockMembers_ from the rest positions (prepareSolver).
  void groupParticles();
  void solveAnchors();
  /// Visco: bonds `particle` to the world's surface point it touches (budgeted, once each).
  void stick(std::uint32_t particle, Vec3 surfacePoint);
  void finishSubstep(float h);
  void updateSleep(const physics::CollisionWorld& world, Vec3 gravity, double t, float dt);
  bool wakes(const physics::CollisionWorld& world, Vec3 gravity, double t) const;

  SoftBodyDesc desc_;
  float h_ = 0.0f;        ///< lattice spacing (m)
  float radius_ = 0.0f;   ///< particle radius h/2 (m)
  float mass_ = 0.0f;     ///< whole body (kg)
  float invMass_ = 0.0f;  ///< per particle (1/kg)
  float restVolume_ = 0.0f;
  float tetRestVolume_ = 0.0f;
  std::vector<Vec3> rest_;       ///< rest positions (m)
  std::vector<Vec3> restLocal_;  ///< rest positions about the rest centroid (m)
  std::vector<std::uint32_t> edgeA_, edgeB_;
  std::vector<float> edgeRest_;
  std::vector<std::array<std::uint32_t, 4>> tets_;
  std::vector<float> tetRest_;
  /// Each tetrahedron's 6 edges (indices into the edge arrays).
  std::vector<std::array<std::uint32_t, 6>> tetEdges_;
  /// Each tetrahedron's lattice cube: its 8 corner particles (compaction averages the
  /// stress over them: the cube's even and odd corners carry the load unevenly).
  std::vector<std::array<std::uint32_t, 8>> tetCube_;
  // The sweeps' batches (soft_body_solve.cpp), kLanes lanes each: batch b's first
  // constraint (lane l holds first + l), its particles (corner k of lane l at
  // [(b arity + k) kLanes + l], as byte offsets into packed_; padding lanes: the zero slot past
  // the last particle) and the bits of its real lanes (the first ones).
  std::vector<std::uint32_t> edgeFirst_, edgeEnds_;
  std::vector<std::uint8_t> edgeMask_;
  std::vector<std::uint32_t> tetFirst_, tetEnds_;
  std::vector<std::uint8_t> tetMask_;
  /// Positions during the sweeps and shape matching, one per particle and the zero slot
  /// (scratch).
  std::vector<Packed> packed_;
  /// restLocal_ packed the same way (shape matching's goal).
  std::vector<Packed> restPacked_;
  State state_;
  std::vector<Vec3> previous_;             ///< x at the substep's start (scratch)
  std::vector<Vec3> predicted_;            ///< x after the predict, before constraints
  std::vector<std::uint32_t> candidates_;  ///< particles near the world this step (scratch)
  /// The particles in blocks of 2 x 2 x 2 rest lattice neighbours: block b's members are
  /// blockMembers_[blockFirst_[b] .. blockFirst_[b + 1]) (findCandidates asks blocks first).
  std::vector<std::uint32_t> blockFirst_, blockMembers_;
  std::vector<float> reach_;           ///< findCandidates: each particle's reach (m) (scratch)
  std::vector<std::uint8_t> unasked_;  ///< findCandidates: 1 in blocks far from the world
  /// 1 where the candidate was within reach of the world at the last substep (scratch).
  std::vector<std::uint8_t> candidateNear_;
  std::vector<float> virial_;  ///< compaction: each particle's virial this substep (scratch)
  Vec3 loadAxis_{0.0f};        ///< g^ of this step, or 0 without gravity (scratch)
  bool measuring_ = false;     ///< this substep measures the stresses (scratch)
  bool backward_ = false;      ///< this substep sweeps the edges backwards (scratch)
  int anchorsThisStep_ = 0;    ///< adhesion bonds formed this step (scratch)
  // The current step (beginStep to endStep):
  Vec3 stepGravity_{0.0f};          ///< m/s^2
  double stepEnd_ = 0.0;            ///< s
  float stepDt_ = 0.0f;             ///< s
  float subH_ = 0.0f;               ///< dt_sub (s)
  float beta_ = 0.0f;               ///< shape matching's share per substep (-)
  std::uint64_t stepContacts_ = 0;  ///< world contacts so far
  bool stepping_ = false;
  int bondBudget_ = kAnchorsPerStep;  ///< most it may form this step
  SoftBodyCounters counters_;
};

}  // namespace floptle::matter
