#pragma once
// Ids of a simulation's rigid bodies, characters and vehicles (Box2D v3's habit): the object's
// index and the generation of the simulation that issued it; the zero generation is null. An
// id kept past its simulation (the editor holding it across a Stop and the next Play) is
// caught by Simulation::valid, never dereferenced.
#include <cstdint>

namespace floptle::physics {

template <class Tag>
struct SimulationId {
  std::uint32_t index = 0;       ///< position in the simulation's list of that kind
  std::uint32_t generation = 0;  ///< the issuing simulation's generation; 0 = null

  bool isNull() const { return generation == 0; }
  friend bool operator==(SimulationId, SimulationId) = default;
};

using BodyId = SimulationId<struct BodyTag>;
using CharacterId = SimulationId<struct CharacterTag>;
using VehicleId = SimulationId<struct VehicleTag>;

}  // namespace floptle::physics
