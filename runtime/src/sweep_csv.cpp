// SweepCsvWriter: the sweep's header and rows.
#include "floptle/runtime/sweep_csv.h"

#include "floptle/core/csv.h"

namespace floptle::runtime {
namespace {

/// A number read from the result JSON: as a float when it is one (the simulation's state is
/// float), otherwise as a double (Drift's state).
std::string numberText(double value) {
  const auto f = static_cast<float>(value);
  return double(f) == value ? csv::number(f) : csv::number(value);
}

std::string valueText(const nlohmann::ordered_json& value) {
  if (value.is_string()) return csv::field(value.get<std::string>());
  if (value.is_number_float()) return csv::number(value.get<double>());
  return value.dump();  // integers, booleans
}

std::string namesText(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
  return "[" + text + "]";
}

}  // namespace

Expected<std::string> SweepCsvWriter::text(const SweepRow& row) {
  std::vector<std::string> names;
  for (const SweepNode& n : row.nodes) names.push_back(n.name);
  std::string out;
  if (first_) {
    first_ = false;
    firstRun_ = row.run;
    nodes_ = names;
    if (writeHeader_) {
      out = "run";
      for (const SweepParameter& p : plan_.parameters()) out += "," + csv::field(p.pointer);
      for (const std::string& n : nodes_) {
        for (const char* column : {".x", ".y", ".z", ".vx", ".vy", ".vz"})
          out += "," + csv::field(n + column);
      }
      out += ",hash,step_ms\n";
    }
  } else if (names != nodes_) {
    return Error{"run " + std::to_string(row.run) + " (" + describeRun(plan_, row.run) + ")",
                 "its scene reports the nodes " + namesText(names) + ", run " +
                     std::to_string(firstRun_) + " reported " + namesText(nodes_) +
                     ": a sweep may not change which nodes are dynamic"};
  }
  out += std::to_string(row.run);
  for (const nlohmann::ordered_json& v : row.values) out += "," + valueText(v);
  for (const SweepNode& n : row.nodes) {
    for (double c : n.position) out += "," + numberText(c);
    for (int i = 0; i < 3; ++i)
      out += "," + (n.velocity ? numberText((*n.velocity)[i]) : std::string());
  }
  out += "," + row.hash + "," + csv::number(row.meanStepMs) + "\n";
  return out;
}

}  // namespace floptle::runtime
