#pragma once
// Replacing world colliders while the simulation runs, for what scripts change in the scene
// copy (a kinematic node moved, a field parameter set, two nodes blended): the nodes' old
// colliders are removed and one new collider is built from the scene copy, the way the scene
// build makes it (a FieldCollider for one node, a ComposedFieldCollider for nodes the
// interaction matrix blends); the bodies' per-collider surfaces are re-read.
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/physics/simulation.h"
#include "script/script_context.h"

namespace floptle::runtime::script {

/// `nodes`: indices into ctx.scene.nodes, each with a shape. The new collider is named after
/// the first node.
Expected<physics::ColliderId> replaceColliders(ScriptContext& ctx, physics::Simulation& sim,
                                               const std::vector<int>& nodes);

}  // namespace floptle::runtime::script
