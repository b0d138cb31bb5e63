#pragma once
// NodeSample: one reported node's state at the end of the last tick, as Simulation::nodeSamples
// gives it. The one reading of the nodes that both the result JSON (Simulation::resultJson,
// what `floptle simulate` prints and its JSON trace holds) and the per-tick series (speed,
// height, energies, the CSV trace and the play plots) are made from, so they agree.
#include <cstdint>
#include <string_view>

#include "floptle/core/math.h"

namespace floptle::physics {

struct NodeSample {
  enum class Kind : std::uint8_t { Body, Character, Vehicle };
  Kind kind = Kind::Body;
  /// Index in the simulation's bodies / characters / vehicles (by kind).
  std::uint32_t index = 0;
  /// The node's name; points into the simulation's descs (valid while it is not changed).
  std::string_view name;
  Vec3 position{0.0f};  ///< centre of mass, capsule centre or chassis (m)
  Vec3 velocity{0.0f};  ///< linear (m/s)
  Vec3 gravity{0.0f};   ///< what it obeyed last tick (m/s^2)
  float mass = 0.0f;    ///< (kg)
  /// Surfaces touched this tick (-): a body's solver contacts (world and body); a character's
  /// ground and wall (0 to 2); a vehicle's chassis contacts plus its wheels on the ground.
  std::uint32_t contacts = 0;
};

}  // namespace floptle::physics
