#pragma once
// runSweep: the runs of a SweepPlan, each one replay() of the edited scene (what `floptle
// simulate` runs), on worker threads. Runs are independent (each builds its own simulation
// and its own mesh collider cache), so a row depends only on its run; rows are handed back in
// run order whatever the thread count, and the output is the same for any number of jobs.
#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/runtime/sweep_plan.h"

namespace floptle::runtime {

/// A node's final state in one run: what the result object lists for it.
struct SweepNode {
  std::string name;
  /// Position (m): a body's centre of mass, a character's capsule centre, a soft body's
  /// centroid.
  std::array<double, 3> position{};
  /// Linear velocity (m/s); empty for nodes the result gives none (soft bodies).
  std::optional<std::array<double, 3>> velocity;
};

/// One run's result.
struct SweepRow {
  /// Index in the whole sweep's run list (a shard's rows keep theirs).
  std::uint64_t run = 0;
  /// The value of each parameter, in the plan's order.
  std::vector<nlohmann::ordered_json> values;
  /// Every node of the result object, in its order.
  std::vector<SweepNode> nodes;
  /// The state hash after the last tick, as `floptle simulate` prints it.
  std::string hash;
  /// Wall time of the ticks / ticks (ms); 0 for 0 ticks. The only value that is not
  /// deterministic.
  double meanStepMs = 0.0;
};

struct SweepOptions {
  std::uint64_t ticks = 0;
  /// The inputs document for every run (null: none), and its name for errors. Not owned.
  const nlohmann::json* inputs = nullptr;
  std::string inputsName;
  /// The scene's file name (for errors) and folder (for its assets).
  std::string sceneName;
  std::filesystem::path sceneDir;
  /// Worker threads (>= 1; more than the runs is the runs).
  unsigned jobs = 1;
  /// The runs to do (a shard of the plan, or all of it).
  SweepShard runs;
  /// Called on the calling thread after each row is handed back: rows done, rows in all.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  /// When set and true, no further run starts, runs under way stop at their next tick, and
  /// runSweep returns the error kSweepCancelled (rows before it were handed back). Not owned.
  const std::atomic<bool>* cancel = nullptr;
};

/// The `what` of the error a cancelled sweep returns.
inline constexpr const char* kSweepCancelled = "cancelled";

/// Runs options.runs of `plan` over `document` (a checked scene document) and hands each row
/// to `onRow`, in run order, on the calling thread. Stops at the first error, of a run (named
/// "run R (POINTER=VALUE ...)") or of onRow, and returns it; rows before it were handed back.
Expected<void> runSweep(const SweepPlan& plan, const nlohmann::ordered_json& document,
                        const SweepOptions& options,
                        const std::function<Expected<void>(const SweepRow&)>& onRow);

/// "POINTER=VALUE POINTER=VALUE": a run's values, as errors name the run.
std::string describeRun(const SweepPlan& plan, std::uint64_t run);

}  // namespace floptle::runtime
