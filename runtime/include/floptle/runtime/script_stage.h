#pragma once
// ScriptStage: a scene's Lua scripts as the simulation's script stage (Simulation runs it
// after the tick's inputs, before gravity is sampled and the controllers move; see
// physics/simulation.h). Scripts are the scene-level "scripts" array, then each node's
// "script" component in scene node order; files are relative to the scene's folder. A script
// may define on_start() (run once, before its first on_tick), on_tick(tick, dt) and
// on_contact(node, other, contact) (a pair that began touching in the last tick: characters
// on their ground, rigid bodies on whatever they touch); `self` is its node's handle for a
// node script. The API (gravity, matter, scene, world, input, log, vec3) is in
// runtime/README.md.
//
// Errors: a script error stops all scripts (the simulation itself runs on) and is kept as
// failure(): "file:line: message" and the tick. The instruction budget and the memory cap
// (ScriptLimits) end a runaway script the same way, naming its line.
//
// Save / restore and the state hash: the stage's own state (whether on_start ran, the
// contact pairs, the failure, what the scripts set of gravity) is saved, restored and
// hashed. The colliders the scripts rebuilt stay as they are across a restore. The Lua state
// of the scripts (their globals and upvalues) is NOT part of a snapshot: after a restore the
// scripts keep the values they have now. A replay from the start is deterministic.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/physics/simulation.h"

namespace floptle::scene {
struct Scene;
}

namespace floptle::runtime {

namespace script {
class LuaVm;
struct ScriptContext;
}  // namespace script

/// One `log(...)` line of a script.
struct ScriptLog {
  std::uint64_t tick = 0;  ///< the tick it was logged in (-)
  std::string node;        ///< its script's node ("" for a scene-level script)
  std::string text;
};

/// A script error: "file:line: message", at `tick`, in the script of `node`.
struct ScriptFailure {
  std::uint64_t tick = 0;
  std::string node;
  std::string file;
  std::string message;
};

struct ScriptStageLimits {
  /// Lua VM instructions all scripts together may run in one tick (-).
  std::int64_t instructionsPerTick = 5'000'000;
  /// Bytes the Lua state may hold (B).
  std::size_t memoryBytes = std::size_t(64) << 20;
};

class ScriptStage final : public physics::SimulationStage {
 public:
  /// Null when the scene has no scripts. Compiles every script (a syntax error, a missing
  /// file or a path outside the scene folder is an error naming its JSON pointer); runs
  /// nothing yet. `seed` seeds math.random (the scene's).
  /// `sceneScripts`: the document's "scripts" array (an empty array for none).
  static Expected<std::unique_ptr<ScriptStage>> build(const scene::Scene& scene,
                                                      const nlohmann::ordered_json& sceneScripts,
                                                      const std::filesystem::path& sceneDir,
                                                      std::uint64_t seed,
                                                      const ScriptStageLimits& limits = {});
  ~ScriptStage() override;

  void step(physics::Simulation& simulation, double tEnd, float dt) override;
  std::shared_ptr<const physics::SimulationStageSnapshot> save() const override;
  void restore(const physics::SimulationStageSnapshot& snapshot) override;
  std::uint64_t stateHash() const override;

  /// The error that stopped the scripts, if any.
  const std::optional<ScriptFailure>& failure() const { return failure_; }
  /// The log lines since the last take, in order.
  std::vector<ScriptLog> takeLogs();
  /// Reads `file` (as named in the scene) again before the next tick: its chunk runs again
  /// (redefining its functions), its on_start does not. A compile error is answered here and
  /// the old code keeps running. A successful reload clears failure(): the scripts run on.
  Expected<void> reload(const std::string& file);
  /// The script files, in run order (as named in the scene).
  std::vector<std::string> files() const;
  /// The scene as the scripts changed it: node transforms (a kinematic node's position),
  /// shapes (set_parameter) and interactions (blend_into); the same nodes, in the same
  /// order, as the scene the stage was built from.
  const scene::Scene& scene() const;
  /// The nodes whose transform, shape or blend the scripts changed (sorted indices into
  /// scene().nodes), and a count of the changes so far (0: none). Not part of a snapshot:
  /// like the colliders the scripts rebuilt, they stay as they are across a restore.
  const std::vector<int>& changedNodes() const;
  std::uint64_t sceneRevision() const;

 private:
  struct Script {
    std::string file;     ///< as named in the scene
    std::string node;     ///< "" for a scene-level script
    int nodeIndex = -1;   ///< index into the scene's nodes, -1 for a scene-level script
    std::string pointer;  ///< its JSON pointer
    int environment = 0;  ///< registry reference of its globals table
    int chunk = 0;        ///< registry reference of its compiled chunk (run on the first tick)
  };
  struct Snapshot;
  ScriptStage();
  Expected<void> compile(Script& script);
  /// Calls global `function` of `script` (when defined) with the arguments pushed by `push`;
  /// records a failure and answers false on error.
  template <typename Push>
  bool callFunction(const Script& script, const char* function, Push&& push);
  void fail(const Script& script, const std::string& message);
  void runContacts(physics::Simulation& simulation);

  std::unique_ptr<script::LuaVm> vm_;
  std::unique_ptr<script::ScriptContext> context_;
  std::vector<Script> scripts_;
  bool started_ = false;
  std::optional<ScriptFailure> failure_;
  /// Touching pairs (names, the smaller first) of the last tick, sorted.
  std::vector<std::pair<std::string, std::string>> touching_;
};

/// The script stage of a simulation runtime built (null: the scene has no scripts).
ScriptStage* scriptStageOf(physics::Simulation& simulation);
const ScriptStage* scriptStageOf(const physics::Simulation& simulation);

/// The seed of a scene's math.random: FNV-1a 64 of its node names and script files, in
/// order (the same scene draws the same numbers; never the clock).
std::uint64_t scriptSeed(const scene::Scene& scene, const nlohmann::ordered_json& sceneScripts);

/// "file:line: message (tick N, node 'name')": how a failure is reported.
std::string describeFailure(const ScriptFailure& failure);

}  // namespace floptle::runtime
