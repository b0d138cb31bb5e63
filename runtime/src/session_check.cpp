// checkRecording: a recorded session replayed headless, its hashes compared.
#include "floptle/runtime/session_check.h"

#include "floptle/drift/replay.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/replay.h"
#include "floptle/runtime/session_tuning.h"

namespace floptle::runtime {

Expected<SessionCheck> checkRecording(const nlohmann::ordered_json& document,
                                      const std::filesystem::path& sceneDir,
                                      const PlayRecording& recording,
                                      const SessionCheckOptions& options) {
  auto driftNode = drift::findDriftNode(document);
  if (!driftNode)
    return Error{options.sceneName + ": " + driftNode.error().where, driftNode.error().what};
  const SessionKind sceneKind = driftNode->component ? SessionKind::Drift : SessionKind::Physics;
  if (sceneKind != recording.simulation)
    return Error{options.sessionName + ": /simulation",
                 std::string("the session was recorded on a ") +
                     (recording.simulation == SessionKind::Drift ? "Drift" : "physics") +
                     " scene; " + options.sceneName + " runs " +
                     (sceneKind == SessionKind::Drift ? "the Drift sandbox" : "physics")};
  if (sceneKind == SessionKind::Drift && !recording.tuning.empty())
    return Error{options.sessionName + ": /tuning",
                 "must be empty in a Drift session (its tuning changes are inputs "
                 "{\"tick\", \"tuning\"})"};
  SessionCheck check;
  check.sceneMatches = sceneHash(document) == recording.sceneHash;
  TuningSchedule tuning(document, recording.tuning);
  ReplayOptions replayOptions;
  replayOptions.ticks = recording.ticks;
  replayOptions.inputs = &recording.inputs;
  replayOptions.sceneName = options.sceneName;
  replayOptions.inputsName = options.sessionName + ": /inputs";
  replayOptions.meshCache = options.meshCache;
  if (!tuning.empty())
    replayOptions.beforeTick = [&](SceneRuntime& runtime) -> Expected<void> {
      if (auto applied = tuning.applyDue(runtime); !applied)
        return Error{options.sessionName + ": " + applied.error().where, applied.error().what};
      return {};
    };
  replayOptions.afterTick = options.afterTick;
  replayOptions.tickHash = [&](std::uint64_t tick, std::uint64_t hash) {
    if (check.firstDifferingTick) return;
    const std::optional<std::uint64_t> recorded = recording.hashAfter(tick);
    if (recorded && *recorded != hash) check.firstDifferingTick = tick;
  };
  auto result = replay(document, sceneDir, replayOptions);
  if (!result) return result.error();
  check.result = std::move(*result);
  // The final hash as both simulations print it (16 lower-case hex digits).
  if (!check.firstDifferingTick && check.result.value("hash", std::string()) !=
                                       physics::Simulation::hashHex(recording.finalHash))
    check.firstDifferingTick = recording.ticks;
  return check;
}

std::string describeCheck(const SessionCheck& check, const PlayRecording& recording) {
  if (check.matches())
    return "the replay equals the recording: " + std::to_string(recording.ticks) +
           " ticks, final hash " + physics::Simulation::hashHex(recording.finalHash);
  return "the replay differs from the recording at tick " +
         std::to_string(*check.firstDifferingTick) +
         (check.sceneMatches ? " (the scene is the one recorded: the build or the inputs differ)"
                             : " (the scene changed since it was recorded)");
}

}  // namespace floptle::runtime
