#pragma once
// The controller descriptions of a scene node's "character" / "vehicle" component, checked:
// every value in range, errors naming the JSON pointer ("/nodes/2/character/radius: ...").
// The simulation is built with these, and play mode's live tuning re-reads them.
#include "floptle/core/expected.h"
#include "floptle/physics/character_controller.h"
#include "floptle/physics/vehicle.h"

namespace floptle::scene {
struct Scene;
struct SceneNode;
}  // namespace floptle::scene

namespace floptle::runtime {

Expected<physics::CharacterDesc> characterFromNode(const scene::SceneNode& node,
                                                   const scene::Scene& scene);
Expected<physics::VehicleDesc> vehicleFromNode(const scene::SceneNode& node,
                                               const scene::Scene& scene);

}  // namespace floptle::runtime
