// The over-yielded bonds of the matter stage as strands (soft_body_surface_strands.h).
#include "floptle/matter/soft_body_surface_strands.h"

namespace floptle::matter {

std::vector<Strand> yieldedStrands(const SoftBodyStage& stage) {
  std::vector<Strand> out;
  const std::vector<SoftBody>& bodies = stage.bodies();
  for (const SoftBody& body : bodies) {
    if (!body.desc().visco) continue;  // a plain soft body's edges never yield
    const SoftBody::State& s = body.state();
    for (std::size_t e = 0; e < body.edgeCount(); ++e) {
      if (s.edgeBroken[e] || s.edgeRest[e] <= body.edgeFormed(e)) continue;
      const auto [i, j] = body.edge(e);
      out.push_back({s.position[i], s.position[j], s.edgeRest[e] / body.edgeFormed(e) - 1.0f});
    }
    for (std::size_t k = 0; k < s.anchorParticle.size(); ++k)
      if (s.anchorRest[k] > s.anchorFormed[k])
        out.push_back({s.position[s.anchorParticle[k]], s.anchorPoint[k],
                       s.anchorRest[k] / s.anchorFormed[k] - 1.0f});
  }
  for (const BodyBond& bond : stage.bodyBonds())
    if (bond.rest > bond.formed && bond.bodyA < bodies.size() && bond.bodyB < bodies.size())
      out.push_back({bodies[bond.bodyA].state().position[bond.particleA],
                     bodies[bond.bodyB].state().position[bond.particleB],
                     bond.rest / bond.formed - 1.0f});
  return out;
}

}  // namespace floptle::matter
