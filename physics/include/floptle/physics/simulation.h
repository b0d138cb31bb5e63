#pragma once
// Simulation: the stepping of a running simulation (its assembly from a scene is runtime/'s
// buildSimulation, which the editor's play mode, `floptle simulate` and the tests all call).
// One tick, as named stages, in ARCHITECTURE.md's data flow order:
//
//   applyInputs(tick)         tick-addressed controls
//   runScripts                the script stage (a SimulationStage from above physics:
//                             runtime's Lua scripts), after the inputs, before gravity and
//                             the controllers
//   sampleGravity(t_start)    the sampler's beginTick, then each character and body's own
//                             gravity vector (GravitySampler)
//   refitWorld(t_end)         the broadphase boxes of the fields that change with time
//   stepCharacters            controllers: move-and-slide in each character's own up
//   applyVehicleForces        controllers: wheels, suspension, tyres on the chassis bodies
//   stepBodies                rigid bodies, each under its own gravity
//   stepMatter                the matter stage (a SimulationStage from above physics) writes
//                             the shared field
//   tick + 1
//   updateColliders(t_end')   the brick re-bake budget, spent for the next tick's end time
//                             t_end' at the bodies' new positions (run once before the first
//                             tick too)
//
// Fixed step from settings.fixed_dt (1/60 s by default); real-time use goes through
// advance(frameDelta), which runs the whole ticks a core FixedStepClock hands out and leaves
// alpha() for the viewport to interpolate by. Gravity: what the GravitySampler says at each
// body (gravity/ fills it); without one, settings.gravity everywhere.
//
// Determinism (what the simulation may not use; see physics/README.md): the state after tick
// N depends only on the scene and on the inputs addressed to ticks < N, bit for bit on a
// build: never on the frame rate, wall clock, thread count, pointer order, std::hash or
// unordered containers' iteration; floating point without FMA contraction
// (-ffp-contract=off); every loop runs in a fixed order (scene node order, body index,
// sample index); every sort has a total order.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/fixed_step_clock.h"
#include "floptle/core/math.h"
#include "floptle/physics/character_controller.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/gravity_sampler.h"
#include "floptle/physics/node_sample.h"
#include "floptle/physics/rigid_body_system.h"
#include "floptle/physics/simulation_ids.h"
#include "floptle/physics/vehicle.h"

namespace floptle::physics {

struct SimulationSettings {
  /// Fixed step (s), > 0.
  double fixedDt = 1.0 / 60.0;
  /// Uniform gravity (m/s^2): what every body obeys when no GravitySampler is set.
  Vec3 gravity{0.0f, -9.81f, 0.0f};
  /// Steepest surface that counts as ground and carries weight (rad).
  float slopeLimit = 1.0471976f;
  /// Rigid-body solver tuning (its slopeLimit is overwritten by the one above).
  SolverSettings solver;
};

/// One tick-addressed control change (holds until changed). Fields left empty keep their
/// current value; `jump` is an edge, consumed by the next step.
struct InputEvent {
  std::uint64_t tick = 0;
  std::string node;
  std::optional<Vec2> move;       ///< character: [x, z] in its move frame, |move| <= 1
  bool jump = false;              ///< character: jump once
  std::optional<float> throttle;  ///< vehicle [-1, 1]
  std::optional<float> brake;     ///< vehicle [0, 1]
  std::optional<float> steer;     ///< vehicle [-1, 1]
};

/// Reads the `--inputs` JSON: an array of {"tick": n, "node": "...", "move": [x, z],
/// "jump": true} / {"tick": n, "node": "...", "throttle": t, "brake": b, "steer": s}.
/// Errors name the element ("/3/move: ...").
Expected<std::vector<InputEvent>> parseInputEvents(const nlohmann::json& document);

/// A stage's saved state; each stage downcasts its own.
class SimulationStageSnapshot {
 public:
  virtual ~SimulationStageSnapshot() = default;
};

/// Everything that changes while the simulation runs (save / restore, lockstep, hashes).
struct SimulationState {
  std::uint64_t tick = 0;
  RigidBodySystem::Snapshot bodies;
  std::vector<CharacterState> characters;
  std::vector<CharacterInput> characterInputs;
  std::vector<std::vector<WheelState>> wheels;
  std::vector<VehicleInput> vehicleInputs;
  /// What each character / rigid body obeyed last tick (m/s^2).
  std::vector<Vec3> characterGravity;
  std::vector<Vec3> bodyGravity;
  /// The colliders were updated for this tick (updateColliders ran at the end of the last).
  bool collidersCurrent = false;
  /// The step state of each collider that updates each step (re-baked bricks), in the
  /// simulation's order of them; shared, copy on write (CollisionShape::saveStepState).
  std::vector<std::shared_ptr<const CollisionShape::StepState>> colliders;
  /// The matter stage's state (null without one).
  std::shared_ptr<const SimulationStageSnapshot> matter;
  /// The script stage's state (null without one).
  std::shared_ptr<const SimulationStageSnapshot> scripts;
};

class Simulation;

/// A system from a layer above physics that joins the fixed step at its named stage (the
/// matter stage). It must be deterministic and keep its own state in the snapshot it owns.
class SimulationStage {
 public:
  virtual ~SimulationStage() = default;
  /// One tick of dt (s) ending at tEnd (s).
  virtual void step(Simulation& simulation, double tEnd, float dt) = 0;
  /// Everything the stage changes while it runs (null: it keeps nothing); restore takes
  /// back what save gave.
  virtual std::shared_ptr<const SimulationStageSnapshot> save() const { return nullptr; }
  virtual void restore(const SimulationStageSnapshot& /*snapshot*/) {}
  /// FNV-1a 64 over the bit patterns of the stage's state (part of Simulation::stateHash).
  virtual std::uint64_t stateHash() const { return 0; }
  /// Adds the stage's nodes to resultJson's "nodes" object.
  virtual void writeResults(nlohmann::ordered_json& /*nodes*/) const {}
  /// Adds the stage's counters to countersJson's object.
  virtual void writeCounters(nlohmann::ordered_json& /*counters*/) const {}
};

class Simulation {
 public:
  /// Assembles from parts (runtime::buildSimulation, tests, benchmarks). `worldMaterials[i]`
  /// is the surface of the collider of index i.
  Simulation(SimulationSettings settings, CollisionWorld world,
             std::vector<SurfaceMaterial> worldMaterials);

  Simulation(Simulation&&) noexcept = default;
  Simulation& operator=(Simulation&&) noexcept = default;

  /// Gravity per body from now on (shared, not owned alone; null: settings.gravity).
  void setGravitySampler(std::shared_ptr<const GravitySampler> sampler) {
    gravity_ = std::move(sampler);
  }
  const std::shared_ptr<const GravitySampler>& gravitySampler() const { return gravity_; }
  /// The matter stage (null: none). Owned.
  void setMatterStage(std::unique_ptr<SimulationStage> stage) { matter_ = std::move(stage); }
  const SimulationStage* matterStage() const { return matter_.get(); }
  SimulationStage* matterStage() { return matter_.get(); }
  /// The script stage (null: none), run after the inputs and before the controllers. Owned.
  void setScriptStage(std::unique_ptr<SimulationStage> stage) { scripts_ = std::move(stage); }
  const SimulationStage* scriptStage() const { return scripts_.get(); }
  SimulationStage* scriptStage() { return scripts_.get(); }
  /// The gravity at p at time t (m/s^2): the sampler's, or settings.gravity.
  Vec3 gravityAt(Vec3 p, double t) const {
    return gravity_ ? gravity_->sample(p, t) : settings_.gravity;
  }
  /// What character i / rigid body i obeyed in the last tick (m/s^2).
  Vec3 characterGravity(std::uint32_t i) const { return characterGravity_[i]; }
  Vec3 bodyGravity(std::uint32_t i) const { return bodyGravity_[i]; }

  BodyId addBody(const RigidBodyDesc& desc);
  CharacterId addCharacter(const CharacterDesc& desc);
  VehicleId addVehicle(const VehicleDesc& desc);
  /// Whether an id was issued by this simulation (false for null ids and ids of another).
  bool valid(BodyId id) const { return isOurs(id.generation) && id.index < bodies_.size(); }
  bool valid(CharacterId id) const {
    return isOurs(id.generation) && id.index < characters_.size();
  }
  bool valid(VehicleId id) const { return isOurs(id.generation) && id.index < vehicles_.size(); }
  /// The id of rigid body / character / vehicle i (i must exist).
  BodyId bodyId(std::uint32_t i) const { return {i, generation_}; }
  CharacterId characterId(std::uint32_t i) const { return {i, generation_}; }
  VehicleId vehicleId(std::uint32_t i) const { return {i, generation_}; }

  /// Inputs to apply at their ticks (sorted stably by tick; events for past ticks are
  /// dropped by the next step).
  void setInputEvents(std::vector<InputEvent> events);
  /// Direct controls (play mode): take effect on the next step.
  CharacterInput& characterInput(std::uint32_t i) { return characterInputs_[i]; }
  VehicleInput& vehicleInput(std::uint32_t i) { return vehicleInputs_[i]; }

  /// One fixed step.
  void step();
  /// Real time: runs the whole ticks the clock hands out for this frame (s); returns them.
  int advance(double frameDelta);
  /// Interpolation factor for rendering between the last two ticks, in [0, 1).
  double alpha() const { return clock_.alpha(); }
  FixedStepClock& clock() { return clock_; }

  std::uint64_t tick() const { return tick_; }
  /// Simulation time (s) = tick x fixedDt.
  double time() const { return double(tick_) * settings_.fixedDt; }
  const SimulationSettings& settings() const { return settings_; }
  SimulationSettings& settings() { return settings_; }

  const CollisionWorld& world() const { return *world_; }
  CollisionWorld& world() { return *world_; }
  const RigidBodySystem& bodies() const { return bodies_; }
  RigidBodySystem& bodies() { return bodies_; }
  const std::vector<CharacterController>& characters() const { return characters_; }
  std::vector<CharacterController>& characters() { return characters_; }
  const std::vector<Vehicle>& vehicles() const { return vehicles_; }
  std::vector<Vehicle>& vehicles() { return vehicles_; }
  /// The character / vehicle / free rigid body (not a vehicle chassis) called `name`, if any.
  std::optional<CharacterId> findCharacter(std::string_view name) const;
  std::optional<VehicleId> findVehicle(std::string_view name) const;
  std::optional<BodyId> findBody(std::string_view name) const;

  SimulationState save() const;
  void restore(const SimulationState& state);
  /// FNV-1a 64 over the bit patterns of the whole state (tick included).
  std::uint64_t stateHash() const;
  static std::string hashHex(std::uint64_t hash);

  /// {"tick": N, "hash": "<16 hex>", "nodes": {name: {"position", "rotation" [x,y,z,w],
  /// "velocity", "gravity" (what it obeyed last tick), characters also "up", "grounded" and
  /// "ground_normal" or "wall_normal", vehicles "wheels"}}, "counters": {...}}: dynamic
  /// bodies, then characters, then vehicles.
  nlohmann::ordered_json resultJson() const;

  /// The nodes resultJson reports, in its order: free dynamic bodies (not vehicle chassis),
  /// then characters, then vehicles (matter nodes are the matter stage's).
  std::vector<NodeSample> nodeSamples() const;
  /// Whether gravity is uniform: settings.gravity everywhere, no GravitySampler.
  bool gravityIsUniform() const { return gravity_ == nullptr; }

  /// Wall-clock-free counters of the last step (contacts, sweeps, ...).
  nlohmann::ordered_json countersJson() const;

 private:
  bool isOurs(std::uint32_t generation) const {
    return generation != 0 && generation == generation_;
  }

  // ---- stages ----------------------------------------------------------------------------
  void applyInputs();
  /// Each character's and body's gravity at its position at tStart.
  void sampleGravity(double tStart);
  void refitWorld(double tEnd);
  /// Colliders that update each step (re-baked brickmaps): hand them this tick's active
  /// bodies (characters and rigid bodies, vehicle chassis included) and tEnd; a baked field
  /// spends its rolling re-bake budget there, nearest those bodies first.
  void updateColliders(double tEnd);
  void stepCharacters(double tEnd, float dt);
  /// Characters see the dynamic bodies: each body has a world collider (made on first
  /// need) posed at the start of the tick, collidable only while the characters step.
  void showBodiesToCharacters(double tEnd);
  void hideBodiesFromCharacters();
  /// What the characters did to the bodies: their weight on the body under them, and an
  /// inelastic push of each body walked into.
  void applyCharacterContacts();
  void applyVehicleForces(double tEnd, float dt);
  void stepBodies(double tEnd, float dt);
  void stepMatter(double tEnd, float dt);

  SimulationSettings settings_;
  /// Stamped into every id this simulation issues; unique among the process's simulations.
  std::uint32_t generation_ = 0;
  std::unique_ptr<CollisionWorld> world_;  ///< own heap slot: moves keep its address
  std::shared_ptr<const GravitySampler> gravity_;
  std::unique_ptr<SimulationStage> matter_;
  std::unique_ptr<SimulationStage> scripts_;
  std::vector<Vec3> characterGravity_;  ///< per character, last tick (m/s^2)
  std::vector<Vec3> bodyGravity_;       ///< per rigid body, last tick (m/s^2)
  bool collidersCurrent_ = false;       ///< updateColliders ran for the coming tick
  RigidBodySystem bodies_;
  std::vector<std::uint32_t> freeBodies_;     ///< rigid bodies that are not vehicle chassis
  std::vector<ColliderId> bodyColliders_;     ///< world collider of each body (characters)
  std::vector<std::int32_t> bodyOfCollider_;  ///< by collider index: its body, or -1
  std::vector<CharacterController> characters_;
  std::vector<CharacterInput> characterInputs_;
  std::vector<Vehicle> vehicles_;
  std::vector<VehicleInput> vehicleInputs_;
  std::vector<InputEvent> events_;
  std::size_t nextEvent_ = 0;
  std::uint64_t tick_ = 0;
  FixedStepClock clock_;
  bool worldMorphs_ = false;
  std::vector<ColliderId> updatedColliders_;  ///< world colliders with updatesEachStep()
};

}  // namespace floptle::physics
