#pragma once
// What the play HUD counts of the simulated matter: particles, bonds and sleeping bodies,
// summed over the simulation's soft bodies (a split Visco body counts each piece).
#include <cstddef>
#include <optional>

namespace floptle::physics {
class Simulation;
}

namespace floptle::editor {

struct MatterCounts {
  std::size_t bodies = 0;
  std::size_t particles = 0;
  /// Visco bonds holding now (surviving edges and adhesion bonds); a plain soft body has none.
  std::size_t bonds = 0;
  std::size_t sleeping = 0;
};

/// The counts of `simulation`'s matter stage, or nothing when it simulates no matter.
std::optional<MatterCounts> matterCounts(const physics::Simulation& simulation);

}  // namespace floptle::editor
