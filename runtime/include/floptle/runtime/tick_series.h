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

/// The quantities of a SeriesSample, in the CSV trace's column order, and the step time.
enum class SeriesQuantity { Speed, Height, Gravity, Kinetic, Potential, Contacts, StepTime };
inline constexpr int kSeriesQuantities = 7;
/// "speed", "height", "g", "kinetic", "potential", "contacts", "step_ms": the CSV column's
/// suffix (step_ms is a column of its own).
const char* seriesColumn(SeriesQuantity quantity);

/// The series of a whole recording, one row per tick, as the CSV trace would write them:
/// what the editor's Session panel plots. Rows are addressed by tick (row i: after tick
/// i + 1), so going back and stepping again rewrites a row rather than appending one.
class SeriesTable {
 public:
  /// After a tick of `simulation`: its row (the names come from the first row recorded).
  /// A row past the next one (a gap) is not kept.
  void record(const physics::Simulation& simulation, double stepSeconds);
  /// Keeps the rows of ticks <= `tick` (a branch starts there).
  void truncate(std::uint64_t tick);
  void clear();
  const std::vector<std::string>& names() const { return names_; }
  /// Rows kept: ticks 1 .. ticks().
  std::uint64_t ticks() const { return times_.size(); }
  /// The value after tick `tick` (1 .. ticks()) of `node` (index into names()); NaN for an
  /// empty potential (gravity is a field). StepTime: the tick's wall time (ms).
  double value(std::size_t node, SeriesQuantity quantity, std::uint64_t tick) const;
  double time(std::uint64_t tick) const { return times_[tick - 1]; }

 private:
  std::vector<std::string> names_;
  std::vector<double> times_;   ///< simulation time after the tick (s)
  std::vector<double> stepMs_;  ///< wall time of the tick (ms)
  /// Per tick: names_.size() x 6 values (speed, height, g, kinetic, potential, contacts).
  std::vector<double> values_;
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
