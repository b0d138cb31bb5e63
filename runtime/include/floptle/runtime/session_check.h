#pragma once
// checkRecording: a recorded play session (play_recording.h) replayed headless against the
// scene it was recorded on: the same replay() `floptle simulate` runs, with the session's
// inputs and its tuning edits (TuningSchedule), each kept state hash compared with the
// recorded one. What `floptle simulate SCENE --session FILE` runs. Physics and Drift sessions
// alike: the scene must run the simulation the session names ("simulation"), else an error
// names both.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/runtime/play_recording.h"

namespace floptle::physics {
class MeshColliderCache;
class Simulation;
}  // namespace floptle::physics

namespace floptle::runtime {

struct SessionCheck {
  /// replay()'s result object after the session's ticks.
  nlohmann::ordered_json result;
  /// The scene document's hash equals the recorded "scene_hash".
  bool sceneMatches = false;
  /// The first tick whose state differs from the recording (its hash after that tick), or
  /// the last tick when only the final hash differs (hashes kept every n > 1 ticks: the
  /// difference lies after the last kept hash that agreed, at or before it); empty when all
  /// agree.
  std::optional<std::uint64_t> firstDifferingTick;
  bool matches() const { return !firstDifferingTick; }
};

struct SessionCheckOptions {
  std::string sceneName;                            ///< starts the scene's errors' `where`
  std::string sessionName;                          ///< starts the session's errors' `where`
  physics::MeshColliderCache* meshCache = nullptr;  ///< not owned
  /// Passed on to replay() (the CSV trace; physics scenes only).
  std::function<void(const physics::Simulation&, double stepSeconds)> afterTick;
};

Expected<SessionCheck> checkRecording(const nlohmann::ordered_json& document,
                                      const std::filesystem::path& sceneDir,
                                      const PlayRecording& recording,
                                      const SessionCheckOptions& options);

/// "the replay differs from the recording at tick N (the scene changed since it was
/// recorded)" / "the replay equals the recording: N ticks, final hash H".
std::string describeCheck(const SessionCheck& check, const PlayRecording& recording);

}  // namespace floptle::runtime
