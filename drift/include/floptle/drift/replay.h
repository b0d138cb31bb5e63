#pragma once
// Headless replay of a Drift scene: the work behind `floptle simulate` for scenes with a
// "drift" component. Runs the sandbox tick by tick (no frame clock), feeding tick-addressed
// placement inputs, and reports the final state as one JSON object:
//   {"tick":N,"hash":"<16 hex>","nodes":{"<boat node>":{"position":[x,0,z],
//    "velocity":[vx,0,vz]}},"counters":{"ticks":..,"placements":..,"contacts":..,
//    "discarded_ticks":..,"rejected_placements":..}}
// Tick numbering: the first tick is tick 0; an input {"tick":n,...} applies to tick n;
// "tick" in the result is the number of ticks run.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/drift/drift_json.h"

namespace floptle::drift {

class Sandbox;

/// One tick-addressed replay command (seed 003: inputs and tuning changes are replay data):
///   {"tick":n,"place":[x,z]}   a placement, consumed by tick n;
///   {"tick":n,"tuning":{...}}  a tuning change installed before tick n runs: the keys given
///                              (as in the "drift" component) replace the current values and
///                              the whole result is validated.
struct ReplayInput {
  /// Tick it belongs to (-).
  std::uint64_t tick = 0;
  /// True for a tuning change, false for a placement.
  bool changesTuning = false;
  /// Ripple centre of a placement (m).
  Vec2d position{};
  /// The keys of a tuning change.
  nlohmann::json tuning;
  /// Where it came from ("inputs.json: /3"), for errors.
  std::string where;
};

/// Reads `[{"tick":n,"place":[x,z]} | {"tick":n,"tuning":{...}}, ...]`, ordered by tick with
/// the file order kept within one tick. `where` names the source (a file name) in errors.
Expected<std::vector<ReplayInput>> replayInputsFromJson(const nlohmann::json& inputs,
                                                        const std::string& where);

/// Gives one command to `sandbox` before the tick it names runs: a placement is scheduled
/// for input.tick; a tuning change is read over the sandbox's tuning and installed. The
/// error (a tuning refused, the placement queue full) names input.where.
Expected<void> applyReplayInput(Sandbox& sandbox, const ReplayInput& input);

/// A node of a scene document that carries a "drift" component.
struct DriftNode {
  /// The node's "name" (or its JSON pointer when unnamed).
  std::string name;
  /// JSON pointer of the component, e.g. "/nodes/1/drift".
  std::string pointer;
  /// The component itself (points into the scene JSON, which must outlive this).
  const nlohmann::ordered_json* component = nullptr;
};

/// Finds the first node (depth first through "nodes" and nested "children") with a "drift"
/// component. A scene without one gives a DriftNode with a null component, not an error.
Expected<DriftNode> findDriftNode(const nlohmann::ordered_json& scene);

struct ReplayOptions {
  /// Ticks to run (-).
  std::uint64_t ticks = 0;
  std::vector<ReplayInput> inputs;
  /// When set, receives the event trace, one JSON object per line.
  std::string* traceLines = nullptr;
  /// When set, called after each tick with the sandbox (a recorded session's hashes are
  /// compared here).
  std::function<void(const Sandbox&)> afterTick;
};

/// Replays `setup` and returns the result object described above. `nodeName` names the boat.
Expected<nlohmann::ordered_json> replayDrift(const DriftSetup& setup, const std::string& nodeName,
                                             const ReplayOptions& options);

}  // namespace floptle::drift
