#pragma once
// Headless replay of a scene's simulation for N ticks with tick-addressed inputs: what
// `floptle simulate` runs for scenes without a "drift" component (characters, vehicles,
// rigid bodies). The command only parses arguments and prints.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/physics/simulation.h"

namespace floptle::physics {

struct ReplayOptions {
  std::uint64_t ticks = 0;
  std::vector<InputEvent> inputs;
  /// When set, one JSON line per tick (Simulation::resultJson after that tick) is appended.
  std::string* traceLines = nullptr;
};

/// Which document a failed replay's Error points into: the scene, or the inputs list (then
/// `where` is a pointer into it, "/3/node").
enum class ReplayErrorSource { Scene, Inputs };

/// Builds the simulation of `document` (a checked scene document), applies the inputs
/// (every input must name a character or vehicle of the scene) and runs the ticks.
/// Returns Simulation::resultJson() of the last tick; on failure, `errorSource` (when given)
/// says which document the error is about.
Expected<nlohmann::ordered_json> replayScene(const nlohmann::ordered_json& document,
                                             const std::filesystem::path& sceneDir,
                                             const ReplayOptions& options,
                                             ReplayErrorSource* errorSource = nullptr);

}  // namespace floptle::physics
