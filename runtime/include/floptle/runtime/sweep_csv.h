#pragma once
// The CSV of a sweep, one row per run (core/csv.h's quoting and numbers):
//   run, one column per --set (headed by its pointer), per node NAME.x, NAME.y, NAME.z,
//   NAME.vx, NAME.vy, NAME.vz (SweepNode; velocity cells empty where the node has none),
//   hash, step_ms.
// step_ms, the only column that is not deterministic, is last: everything before it is the
// same text for the same runs. Values read from the simulation's floats are written as floats
// (shortest text), so "0.1" and not "0.10000000149011612".
//
// Header once: only the writer of the shard that starts the run list (K = 0, and an unsharded
// sweep) writes the header line, so the shards' files concatenated in K order are the
// unsharded file.
#include <string>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/runtime/sweep_plan.h"
#include "floptle/runtime/sweep_run.h"

namespace floptle::runtime {

class SweepCsvWriter {
 public:
  SweepCsvWriter(const SweepPlan& plan, bool writeHeader)
      : plan_(plan), writeHeader_(writeHeader) {}

  /// The text of `row` (a line ending in '\n'), the header line before it on the first row
  /// when this writer writes the header. A row whose nodes differ from the first row's (a
  /// swept value that made a node static, say) is an error naming the run.
  Expected<std::string> text(const SweepRow& row);

 private:
  const SweepPlan& plan_;  ///< not owned; outlives the writer
  bool writeHeader_ = false;
  bool first_ = true;
  std::uint64_t firstRun_ = 0;
  std::vector<std::string> nodes_;  ///< the first row's node names
};

}  // namespace floptle::runtime
