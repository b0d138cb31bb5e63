#include "play/play_matter_counts.h"

#include "floptle/matter/soft_body_stage.h"

namespace floptle::editor {

std::optional<MatterCounts> matterCounts(const physics::Simulation& simulation) {
  const auto* stage = dynamic_cast<const matter::SoftBodyStage*>(simulation.matterStage());
  if (!stage) return std::nullopt;
  MatterCounts counts;
  for (const matter::SoftBody& body : stage->bodies()) {
    ++counts.bodies;
    counts.particles += body.particleCount();
    counts.bonds += body.bondCount();
    counts.sleeping += body.state().asleep ? 1u : 0u;
  }
  return counts;
}

}  // namespace floptle::editor
