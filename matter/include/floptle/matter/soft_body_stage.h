#pragma once
// SoftBodyStage: the simulation's matter stage (Simulation::stepMatter) for the SoftBody tier.
// It steps each soft body in scene node order, each under the simulation's gravity at its
// centroid at the step's start; it saves, restores and hashes their state, and writes each as
// a node of resultJson: centroid, volume, rest_volume (m^3), density (kg/m^3, mass / volume
// now), aabb [[min], [max]], particles, bonds (its surviving edges and adhesion bonds),
// components, asleep. A Visco body whose bonds fall apart is replaced, at the end of the step,
// by one body per component (SoftBody::split, same name): a node's entry sums its pieces
// (centroid mass-weighted, aabb the union, components the pieces' count).
#include <vector>

#include "floptle/matter/soft_body.h"
#include "floptle/physics/simulation.h"

namespace floptle::matter {

class SoftBodyStage : public physics::SimulationStage {
 public:
  void add(SoftBody body) { bodies_.push_back(std::move(body)); }
  const std::vector<SoftBody>& bodies() const { return bodies_; }
  std::vector<SoftBody>& bodies() { return bodies_; }
  /// The soft body called `name`, or null.
  const SoftBody* find(std::string_view name) const;

  void step(physics::Simulation& simulation, double tEnd, float dt) override;
  std::shared_ptr<const physics::SimulationStageSnapshot> save() const override;
  void restore(const physics::SimulationStageSnapshot& snapshot) override;
  std::uint64_t stateHash() const override;
  void writeResults(nlohmann::ordered_json& nodes) const override;
  void writeCounters(nlohmann::ordered_json& counters) const override;

 private:
  std::vector<SoftBody> bodies_;
};

}  // namespace floptle::matter
