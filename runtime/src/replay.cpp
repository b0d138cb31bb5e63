// replay: scene document -> SceneRuntime -> N ticks -> result JSON.
#include "floptle/runtime/replay.h"

#include <chrono>
#include <fstream>
#include <sstream>

#include "floptle/core/scene/scene.h"
#include "floptle/drift/replay.h"
#include "floptle/drift/sandbox.h"
#include "floptle/runtime/scene_runtime.h"
#include "floptle/runtime/script_stage.h"

namespace floptle::runtime {
namespace {

Error in(const std::string& file, const Error& e) {
  return Error{file + (e.where.empty() ? "" : ": " + e.where), e.what};
}

Expected<nlohmann::ordered_json> replayDrift(const drift::DriftNode& node,
                                             const ReplayOptions& options) {
  auto setup = drift::driftSetupFromJson(*node.component, node.pointer);
  if (!setup) return in(options.sceneName, setup.error());
  drift::ReplayOptions driftOptions;
  driftOptions.ticks = options.ticks;
  driftOptions.traceLines = options.traceLines;
  if (options.tickHash)
    driftOptions.afterTick = [&options](const drift::Sandbox& sandbox) {
      options.tickHash(sandbox.tickIndex(), sandbox.stateHash());
    };
  if (options.inputs) {
    // Its errors already name the inputs file.
    auto inputs = drift::replayInputsFromJson(*options.inputs, options.inputsName);
    if (!inputs) return inputs.error();
    driftOptions.inputs = std::move(*inputs);
  }
  return drift::replayDrift(*setup, node.name, driftOptions);
}

Expected<nlohmann::ordered_json> replayPhysics(const nlohmann::ordered_json& document,
                                               const std::filesystem::path& sceneDir,
                                               const ReplayOptions& options) {
  std::vector<physics::InputEvent> events;
  if (options.inputs) {
    auto parsed = physics::parseInputEvents(*options.inputs);
    if (!parsed) return in(options.inputsName, parsed.error());
    events = std::move(*parsed);
  }
  Expected<scene::Scene> built = scene::Scene{};
  if (!options.scene) {
    built = scene::buildScene(document);
    if (!built) return in(options.sceneName, built.error());
  }
  const scene::Scene& model = options.scene ? *options.scene : built.value();
  BuildOptions build;
  build.sceneDir = sceneDir;
  build.meshCache = options.meshCache;
  auto runtime = SceneRuntime::build(document, model, build);
  if (!runtime) return in(options.sceneName, runtime.error());
  physics::Simulation& sim = *runtime->physics();
  for (std::size_t i = 0; i < events.size(); ++i) {
    const physics::InputEvent& e = events[i];
    if (!sim.findCharacter(e.node) && !sim.findVehicle(e.node))
      return Error{options.inputsName + ": /" + std::to_string(i) + "/node",
                   "'" + e.node + "' is not a character or vehicle node of the scene"};
  }
  sim.setInputEvents(std::move(events));
  using Clock = std::chrono::steady_clock;
  double stepSeconds = 0.0;
  for (std::uint64_t i = 0; i < options.ticks; ++i) {
    if (options.cancel && options.cancel->load()) return Error{options.sceneName, "cancelled"};
    if (options.beforeTick)
      if (Expected<void> before = options.beforeTick(*runtime); !before) return before.error();
    const Clock::time_point start = Clock::now();
    runtime->step();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    stepSeconds += seconds;
    if (options.afterTick) options.afterTick(sim, seconds);
    if (options.tickHash) options.tickHash(sim.tick(), sim.stateHash());
    if (options.traceLines) {
      options.traceLines->append(sim.resultJson().dump());
      options.traceLines->push_back('\n');
    }
    if (ScriptStage* scripts = scriptStageOf(sim)) {
      for (const ScriptLog& log : scripts->takeLogs()) {
        if (!options.traceLines) continue;
        const nlohmann::ordered_json line{
            {"tick", log.tick}, {"node", log.node}, {"log", log.text}};
        options.traceLines->append(
            line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        options.traceLines->push_back('\n');
      }
      if (scripts->failure()) return Error{"", describeFailure(*scripts->failure())};
    }
  }
  if (options.stepSeconds) *options.stepSeconds = stepSeconds;
  return sim.resultJson();
}

}  // namespace

Expected<nlohmann::json> readInputsFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{path, "cannot open file"};
  std::stringstream text;
  text << file.rdbuf();
  return parseInputsText(text.str(), path);
}

Expected<nlohmann::json> parseInputsText(std::string_view text, const std::string& name) {
  using Json = nlohmann::json;
  // The parser reports its depth to this callback; nesting past the limit stops it there.
  struct TooDeep {};
  const Json::parser_callback_t limitDepth = [](int depth, Json::parse_event_t event, Json&) {
    if (event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) {
      if (depth >= kMaxInputsDepth) throw TooDeep{};
    }
    return true;
  };
  try {
    return Json::parse(text, limitDepth);
  } catch (const Json::parse_error& e) {
    return Error{name + ": byte " + std::to_string(e.byte),
                 "invalid JSON: " + std::string(e.what())};
  } catch (const Json::exception& e) {  // out_of_range: a number beyond double range
    return Error{name, "invalid JSON: " + std::string(e.what())};
  } catch (const TooDeep&) {
    return Error{name, "nesting deeper than " + std::to_string(kMaxInputsDepth) +
                           " arrays/objects (the limit of an inputs file)"};
  }
}

Expected<nlohmann::ordered_json> replay(const nlohmann::ordered_json& document,
                                        const std::filesystem::path& sceneDir,
                                        const ReplayOptions& options) {
  auto driftNode = drift::findDriftNode(document);
  if (!driftNode) return in(options.sceneName, driftNode.error());
  if (driftNode->component) {
    if (options.afterTick || options.beforeTick)
      return Error{options.sceneName,
                   "a per-tick series (the CSV trace) or a recorded session needs a physics scene; "
                   "this one runs the Drift sandbox (its trace is JSON)"};
    const auto start = std::chrono::steady_clock::now();
    auto result = replayDrift(*driftNode, options);
    if (options.stepSeconds)
      *options.stepSeconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }
  return replayPhysics(document, sceneDir, options);
}

}  // namespace floptle::runtime
