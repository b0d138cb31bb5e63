// floptle simulate SCENE (--ticks N [--inputs FILE] | --session FILE) [--trace FILE ...]
// Runs a scene headless for N fixed ticks and prints one JSON object: runtime::replay, which
// chooses the simulation by the scene's content (runtime/scene_runtime.h). A trace file
// named *.csv gets the per-tick series (runtime/tick_series.h), any other the JSON trace.
// --session replays a recorded play session (runtime/session_check.h) and exits 1 when the
// replay differs from the recording, naming the first tick that differs.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "floptle/core/expected.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/runtime/play_recording.h"
#include "floptle/runtime/replay.h"
#include "floptle/runtime/session_check.h"
#include "floptle/runtime/tick_series.h"
#include "scene_argument.h"

namespace floptle::cli {

namespace {

constexpr const char* kUsage =
    "usage: floptle simulate SCENE --ticks N [--inputs FILE] [--trace FILE ...]\n"
    "       floptle simulate SCENE --session FILE.session.json [--trace FILE ...]\n"
    "  --session FILE    replay a play session recorded in the editor (its inputs, tuning\n"
    "                    edits and ticks); exit status 1 when a state hash differs from the\n"
    "                    recording, naming the first tick that differs\n"
    "  --trace FILE.csv  per tick: tick, t (s), and for each dynamic body, character and\n"
    "                    vehicle NAME.speed (m/s), NAME.height (y, m), NAME.g (|g|, m/s^2),\n"
    "                    NAME.kinetic (0.5 m v^2, J), NAME.potential (-m g.x, J; empty where\n"
    "                    gravity is a field), NAME.contacts (surfaces touched), then step_ms\n"
    "  --trace FILE      any other name: one JSON result object per tick (Drift scenes: the\n"
    "                    event trace); both kinds may be given\n";

struct SimulateArgs {
  std::string scene;
  std::uint64_t ticks = 0;
  std::optional<std::string> inputs;
  std::optional<std::string> session;
  std::optional<std::string> trace;     ///< the JSON trace
  std::optional<std::string> csvTrace;  ///< the per-tick series
};

bool endsWithCsv(std::string_view path) {
  return path.size() >= 4 && path.substr(path.size() - 4) == ".csv";
}

Expected<SimulateArgs> parseArgs(Args args) {
  SimulateArgs out;
  bool haveTicks = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool hasValue = i + 1 < args.size();
    if (arg == "--ticks" || arg == "--inputs" || arg == "--trace" || arg == "--session") {
      if (!hasValue) return Error{std::string(arg), "needs a value"};
      const std::string_view value = args[++i];
      if (arg == "--ticks") {
        const auto [end, ec] =
            std::from_chars(value.data(), value.data() + value.size(), out.ticks);
        if (ec != std::errc() || end != value.data() + value.size()) {
          return Error{"--ticks", "must be a whole number >= 0, got '" + std::string(value) + "'"};
        }
        haveTicks = true;
      } else if (arg == "--inputs") {
        out.inputs = std::string(value);
      } else if (arg == "--session") {
        out.session = std::string(value);
      } else {
        std::optional<std::string>& slot = endsWithCsv(value) ? out.csvTrace : out.trace;
        if (slot) return Error{"--trace", "given twice for the same kind (.csv or JSON)"};
        slot = std::string(value);
      }
    } else if (!arg.empty() && arg[0] == '-') {
      return Error{std::string(arg), "unknown option"};
    } else if (out.scene.empty()) {
      out.scene = std::string(arg);
    } else {
      return Error{std::string(arg), "unexpected argument (one SCENE only)"};
    }
  }
  if (out.scene.empty()) return Error{"SCENE", "missing scene file"};
  if (out.session) {
    if (haveTicks || out.inputs)
      return Error{"--session", "replays the session's own ticks and inputs: not with " +
                                    std::string(haveTicks ? "--ticks" : "--inputs")};
    return out;
  }
  if (!haveTicks) return Error{"--ticks", "missing (how many ticks to run)"};
  return out;
}

int fail(const Error& error) {
  std::fprintf(stderr, "floptle simulate: %s\n", error.message().c_str());
  return 1;
}

// Writes the trace file (when asked for) and prints the result object; the exit status.
int finish(const SimulateArgs& args, const std::string& traceLines, const std::string& csvLines,
           const nlohmann::ordered_json& result) {
  for (const auto& [path, text] :
       {std::pair{args.trace, &traceLines}, {args.csvTrace, &csvLines}}) {
    if (!path) continue;
    std::ofstream out(*path, std::ios::binary | std::ios::trunc);
    out << *text;
    if (!out) return fail(Error{*path, "cannot write the trace file"});
  }
  std::cout << result.dump() << '\n';
  return 0;
}

// --session: the recorded session replayed; its check on stderr, exit 1 when it differs.
int runSession(const SimulateArgs& args, const nlohmann::ordered_json& scene,
               std::string& csvLines) {
  auto recording = runtime::readRecordingFile(*args.session);
  if (!recording) return fail(recording.error());
  physics::MeshColliderCache meshCache;  // this run's
  runtime::SessionCheckOptions options;
  options.sceneName = args.scene;
  options.sessionName = *args.session;
  options.meshCache = &meshCache;
  if (args.csvTrace) {
    options.afterTick = [&csvLines](const physics::Simulation& sim, double stepSeconds) {
      if (csvLines.empty()) csvLines = runtime::traceCsvHeader(sim);
      csvLines += runtime::traceCsvRow(sim, stepSeconds);
    };
  }
  const std::filesystem::path dir = std::filesystem::path(args.scene).parent_path();
  auto check = runtime::checkRecording(scene, dir, *recording, options);
  if (!check) return fail(check.error());
  const int status = finish(args, std::string(), csvLines, check->result);
  const std::string verdict = runtime::describeCheck(*check, *recording);
  if (!check->matches()) return fail(Error{*args.session, verdict});
  std::fprintf(stderr, "floptle simulate: %s: %s\n", args.session->c_str(), verdict.c_str());
  return status;
}

}  // namespace

int runSimulate(Args args) {
  auto parsed = parseArgs(args);
  if (!parsed) {
    fail(parsed.error());
    std::fputs(kUsage, stderr);
    return 1;
  }
  auto scene = loadSceneArgument(parsed->scene);
  if (!scene) return fail(scene.error());
  if (parsed->session) {
    if (parsed->trace) return fail(Error{"--trace", "with --session only a .csv trace"});
    std::string csvLines;
    return runSession(*parsed, scene->document, csvLines);
  }

  physics::MeshColliderCache meshCache;  // this run's
  runtime::ReplayOptions options;
  options.meshCache = &meshCache;
  options.ticks = parsed->ticks;
  options.sceneName = parsed->scene;
  options.scene = &scene->scene;
  std::optional<nlohmann::json> inputs;
  if (parsed->inputs) {
    auto inputsJson = runtime::readInputsFile(*parsed->inputs);
    if (!inputsJson) return fail(inputsJson.error());
    inputs = std::move(*inputsJson);
    options.inputs = &*inputs;
    options.inputsName = *parsed->inputs;
  }
  std::string traceLines;
  if (parsed->trace) options.traceLines = &traceLines;
  std::string csvLines;
  if (parsed->csvTrace) {
    options.afterTick = [&csvLines](const physics::Simulation& sim, double stepSeconds) {
      if (csvLines.empty()) csvLines = runtime::traceCsvHeader(sim);
      csvLines += runtime::traceCsvRow(sim, stepSeconds);
    };
  }
  const std::filesystem::path dir = std::filesystem::path(parsed->scene).parent_path();
  auto result = runtime::replay(scene->document, dir, options);
  if (!result) return fail(result.error());
  return finish(*parsed, traceLines, csvLines, *result);
}

}  // namespace floptle::cli
