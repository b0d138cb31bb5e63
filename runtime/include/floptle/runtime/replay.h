#pragma once
// Headless replay of a scene for N ticks with tick-addressed inputs: what `floptle simulate`
// runs. The Drift-or-physics choice is SceneRuntime's; the inputs are read in the format of
// the simulation the scene runs (physics::parseInputEvents or drift::replayInputsFromJson).
// The command only parses its arguments, reads the files and prints.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"

namespace floptle::physics {
class MeshColliderCache;
class Simulation;
}  // namespace floptle::physics

namespace floptle::scene {
struct Scene;
}  // namespace floptle::scene

namespace floptle::runtime {

class SceneRuntime;

struct ReplayOptions {
  std::uint64_t ticks = 0;
  /// The inputs document (a JSON array), or null for none.
  const nlohmann::json* inputs = nullptr;
  /// What errors call the scene and the inputs (their file names): every Error's `where`
  /// starts with one of them ("level.json: /nodes/2/character/radius").
  std::string sceneName;
  std::string inputsName;
  /// When set, the trace is appended: one JSON line per tick for physics scenes
  /// (physics::Simulation::resultJson after that tick), the event trace for Drift scenes.
  std::string* traceLines = nullptr;
  /// The document's typed Scene when the caller already has it (scene::loadScene builds it
  /// while checking the file); null: replay builds it from the document. Not owned.
  const scene::Scene* scene = nullptr;
  /// The mesh collider cache the build goes through (null: none). Not owned.
  physics::MeshColliderCache* meshCache = nullptr;
  /// When set, called after each tick with the simulation and the wall time that tick's step
  /// took (s). Physics scenes only: a Drift scene with afterTick set is an error.
  std::function<void(const physics::Simulation&, double stepSeconds)> afterTick;
  /// When set, called after each tick, for physics and Drift scenes alike, with the ticks run
  /// (-) and the state hash after them (Simulation::stateHash / drift::Sandbox::stateHash).
  std::function<void(std::uint64_t tick, std::uint64_t hash)> tickHash;
  /// When set, called before each tick with the running simulation (a recorded session's
  /// tuning edits go in here); an error stops the replay with it. Physics scenes only.
  std::function<Expected<void>(SceneRuntime&)> beforeTick;
  /// When set, receives the wall time of all the ticks together (s); for Drift scenes the
  /// whole replay's. A measurement only: nothing of the simulation reads the clock.
  double* stepSeconds = nullptr;
  /// When set and true, a physics replay stops before its next tick with the error
  /// "cancelled" (checked once a tick). Not owned.
  const std::atomic<bool>* cancel = nullptr;
};

/// Deepest nesting of arrays and objects an inputs file may have (the root is depth 1). Real
/// files need 3 (the event array, a tuning object, its vectors); the limit keeps the recursive
/// copies and dumps of the document off the end of the stack.
inline constexpr int kMaxInputsDepth = 64;

/// Parses the text of an inputs file (`floptle simulate --inputs`); `name` (its file name)
/// starts every error's `where` ("inputs.json: byte 12"). Refused: invalid JSON, a number
/// beyond double range, nesting deeper than kMaxInputsDepth. Only the JSON is checked here;
/// replay checks the content.
Expected<nlohmann::json> parseInputsText(std::string_view text, const std::string& name);
/// Reads and parses an inputs file as parseInputsText does; "cannot open file" names it.
Expected<nlohmann::json> readInputsFile(const std::string& path);

/// Builds the runtime of `document` (a checked scene document), applies the inputs (every
/// physics input must name a character or vehicle of the scene) and runs the ticks. Returns
/// the result object of the last tick ({"tick", "hash", "nodes", "counters"}).
Expected<nlohmann::ordered_json> replay(const nlohmann::ordered_json& document,
                                        const std::filesystem::path& sceneDir,
                                        const ReplayOptions& options);

}  // namespace floptle::runtime
