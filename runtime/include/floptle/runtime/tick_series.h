#pragma once
// The per-tick series of a physics simulation's nodes: speed, height, |g|, kinetic and
// potential energy and contacts, for each node the result JSON reports
// (physics::Simulation::nodeSamples: free dynamic bodies, characters, vehicles). What
// `floptle simulate --trace FILE.csv` writes, one row per tick, and what play-mode plots draw.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floptle::physics {
class Simulation;
}

namespace floptle::runtime {

struct SeriesSample {
  /// The node's name (points into the simulation; valid while it lives unchanged).
  std::string_view name;
  double speed = 0.0;    ///< |v| (m/s)
  double height = 0.0;   ///< position y (m)
  double gravity = 0.0;  ///< |g| it obeyed this tick (m/s^2)
  double kinetic = 0.0;  ///< 0.5 m |v|^2, translation only (J)
  /// -m g . x, the potential of uniform gravity (zero at the origin) (J); empty where gravity
  /// is a field (sources, regions): there it has no one potential the simulation keeps.
  std::optional<double> potential;
  std::uint32_t contacts = 0;  ///< surfaces touched this tick (-), physics::NodeSample's
};

/// The series of each reported node after the last tick, in nodeSamples order.
std::vector<SeriesSample> tickSeries(const physics::Simulation& simulation);

/// The CSV trace's header line (with '\n'): "tick,t", then per node "NAME.speed,NAME.height,
/// NAME.g,NAME.kinetic,NAME.potential,NAME.contacts", then "step_ms" (the only column that
/// is not deterministic, last so the others can be compared as text).
std::string traceCsvHeader(const physics::Simulation& simulation);

/// One CSV trace row (with '\n') after a tick: ticks completed, time (s), the series, the
/// wall time of the tick's step (ms).
std::string traceCsvRow(const physics::Simulation& simulation, double stepSeconds);

}  // namespace floptle::runtime
