#pragma once
// DensityGravity: tier 3 as a simulation samples it (seed 001, "Calculated density-field
// gravity"): the sum of
//   - the density grid's g (DensityGrid): rho from the matter of the world's colliders (each
//     collider's material density, given by collider index; 0 leaves a collider out), solved
//     at build and, while that matter changes with time, re-solved at every tick that is a
//     multiple of `cadence`, from the matter at that tick's start; samples read the cache in
//     between;
//   - with bodiesAttract, the dynamic rigid bodies as point masses (their m = rho V) through a
//     Barnes-Hut tree rebuilt at the start of every tick (softening kSoftening); the pull at
//     each body's own position (where the simulation samples it) is found for all bodies at
//     once by the tree's grouped walk and read back by position, any other point walks alone.
// The cache is a function of the simulation's tick and state alone (a restored simulation
// re-solves for its own tick), so lockstep runs and save / restore stay bit-identical.
// beginTick mutates; it runs in the simulation's sampleGravity stage, never alongside
// sample().
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/scene/gravity_desc.h"
#include "floptle/gravity/barnes_hut.h"
#include "floptle/gravity/density_grid.h"

namespace floptle::physics {
class CollisionWorld;
class Simulation;
}  // namespace floptle::physics

namespace floptle::gravity {

class DensityGravity {
 public:
  /// Softening length of the bodies' mutual pull (m).
  static constexpr float kSoftening = 0.05f;

  /// From the field's desc (G, density, bodiesAttract, theta) over `world` (does not own it;
  /// it must outlive this, at the same address), densityOfCollider[i] the density (kg/m^3) of
  /// the collider of index i. `where` is the gravity object's JSON pointer. Without bounds in
  /// the desc the grid spans the matter's bounds at t = 0, padded by two cells and a tenth of
  /// their size on each side; unbounded matter then is an error naming density/bounds.
  static Expected<std::unique_ptr<DensityGravity>> create(const scene::GravityFieldDesc& desc,
                                                          const physics::CollisionWorld& world,
                                                          std::vector<float> densityOfCollider,
                                                          const std::string& where);

  /// g at p (m/s^2): the grid's plus the bodies'.
  Vec3 sample(Vec3 p) const;
  /// Brings the cache up to the simulation's current tick (tStart: its start time (s)).
  void beginTick(const physics::Simulation& simulation, double tStart);

  /// The grid (null without a density tier).
  const DensityGrid* grid() const { return grid_ ? &*grid_ : nullptr; }
  /// Whether the grid's matter changes with time (and so is re-solved at the cadence).
  bool matterChanges() const { return matterChanges_; }
  /// How many solves ran, and the tick the cache was solved for.
  std::uint64_t solveCount() const { return solveCount_; }
  std::uint64_t solvedTick() const { return solvedTick_; }

 private:
  DensityGravity() = default;
  /// A position's bit pattern (the key of bodyPull_).
  using Key = std::array<std::uint32_t, 3>;
  static Key keyOf(Vec3 p);
  /// The bodies' pull at p (m/s^2).
  Vec3 bodyPull(Vec3 p) const;
  /// rho from the world's matter at time t (s), then the solve.
  void solveAt(double t);

  const physics::CollisionWorld* world_ = nullptr;
  std::vector<float> densityOfCollider_;
  std::optional<DensityGrid> grid_;
  int cadence_ = 1;
  bool matterChanges_ = false;
  std::uint64_t solveCount_ = 0;
  std::uint64_t solvedTick_ = 0;
  float G_ = 1.0f;
  bool bodiesAttract_ = false;
  float theta_ = 0.5f;
  BarnesHutTree bodies_;
  std::vector<Vec3> bodyPositions_;                    ///< scratch (m)
  std::vector<float> bodyMasses_;                      ///< scratch (kg)
  std::vector<Vec3> bodyPull_;                         ///< the pull at each body this tick (m/s^2)
  std::vector<std::pair<Key, std::uint32_t>> atBody_;  ///< sorted: position bits -> body
};

}  // namespace floptle::gravity
