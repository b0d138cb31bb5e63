// Per-tick series of a physics simulation's nodes, and their CSV trace rows.
#include "floptle/runtime/tick_series.h"

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

}  // namespace floptle::runtime
