// Per-tick series of a physics simulation's nodes, and their CSV trace rows.
#include "floptle/runtime/tick_series.h"

#include <cmath>
#include <limits>

#include "floptle/core/csv.h"
#include "floptle/physics/simulation.h"

namespace floptle::runtime {

std::vector<SeriesSample> tickSeries(const physics::Simulation& simulation) {
  const bool uniform = simulation.gravityIsUniform();
  std::vector<SeriesSample> out;
  for (const physics::NodeSample& n : simulation.nodeSamples()) {
    SeriesSample s;
    s.name = n.name;
    const double speed = glm::length(glm::dvec3(n.velocity));
    s.speed = speed;
    s.height = n.position.y;
    s.gravity = glm::length(glm::dvec3(n.gravity));
    s.kinetic = 0.5 * double(n.mass) * speed * speed;
    if (uniform)
      s.potential = -double(n.mass) * glm::dot(glm::dvec3(n.gravity), glm::dvec3(n.position));
    s.contacts = n.contacts;
    out.push_back(s);
  }
  return out;
}

std::string traceCsvHeader(const physics::Simulation& simulation) {
  std::string line = "tick,t";
  for (const SeriesSample& s : tickSeries(simulation)) {
    for (const char* column : {".speed", ".height", ".g", ".kinetic", ".potential", ".contacts"})
      line += "," + csv::field(std::string(s.name) + column);
  }
  line += ",step_ms\n";
  return line;
}

std::string traceCsvRow(const physics::Simulation& simulation, double stepSeconds) {
  std::string line =
      csv::number(std::uint64_t(simulation.tick())) + "," + csv::number(simulation.time());
  for (const SeriesSample& s : tickSeries(simulation)) {
    line += "," + csv::number(s.speed) + "," + csv::number(s.height) + "," +
            csv::number(s.gravity) + "," + csv::number(s.kinetic) + "," +
            (s.potential ? csv::number(*s.potential) : std::string()) + "," +
            csv::number(std::uint64_t(s.contacts));
  }
  line += "," + csv::number(stepSeconds * 1e3) + "\n";
  return line;
}

const char* seriesColumn(SeriesQuantity quantity) {
  static const char* const kColumns[kSeriesQuantities] = {
      "speed", "height", "g", "kinetic", "potential", "contacts", "step_ms"};
  return kColumns[int(quantity)];
}

namespace {
constexpr std::size_t kNodeValues = 6;  // the quantities before StepTime
}  // namespace

void SeriesTable::record(const physics::Simulation& simulation, double stepSeconds) {
  const std::uint64_t tick = simulation.tick();
  if (tick == 0 || tick > times_.size() + 1) return;
  const std::vector<SeriesSample> samples = tickSeries(simulation);
  if (times_.empty()) {
    names_.clear();
    for (const SeriesSample& s : samples) names_.emplace_back(s.name);
  }
  if (samples.size() != names_.size()) return;  // another simulation's: not this table's
  const std::size_t row = std::size_t(tick - 1);
  if (row == times_.size()) {
    times_.push_back(0.0);
    stepMs_.push_back(0.0);
    values_.resize(values_.size() + names_.size() * kNodeValues);
  }
  times_[row] = simulation.time();
  stepMs_[row] = stepSeconds * 1e3;
  double* out = values_.data() + row * names_.size() * kNodeValues;
  for (const SeriesSample& s : samples) {
    *out++ = s.speed, *out++ = s.height, *out++ = s.gravity, *out++ = s.kinetic;
    *out++ = s.potential ? *s.potential : std::numeric_limits<double>::quiet_NaN();
    *out++ = double(s.contacts);
  }
}

void SeriesTable::truncate(std::uint64_t tick) {
  if (tick >= times_.size()) return;
  times_.resize(std::size_t(tick));
  stepMs_.resize(std::size_t(tick));
  values_.resize(std::size_t(tick) * names_.size() * kNodeValues);
}

void SeriesTable::clear() {
  names_.clear(), times_.clear(), stepMs_.clear(), values_.clear();
}

double SeriesTable::value(std::size_t node, SeriesQuantity quantity, std::uint64_t tick) const {
  const std::size_t row = std::size_t(tick - 1);
  if (quantity == SeriesQuantity::StepTime) return stepMs_[row];
  return values_[(row * names_.size() + node) * kNodeValues + std::size_t(quantity)];
}

}  // namespace floptle::runtime
