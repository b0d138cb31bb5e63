// floptle simulate SCENE --ticks N [--inputs FILE] [--trace FILE]
// Runs a scene headless for N fixed ticks and prints one JSON object: runtime::replay, which
// chooses the simulation by the scene's content (runtime/scene_runtime.h).
#include <charconv>
#include <filesystem>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "floptle/core/expected.h"
#include "floptle/core/scene/scene_io.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/runtime/replay.h"

namespace floptle::cli {

namespace {

constexpr const char* kUsage = "usage: floptle simulate SCENE --ticks N [--inputs FILE] [--trace FILE]\n";

struct SimulateArgs {
  std::string scene;
  std::uint64_t ticks = 0;
  std::optional<std::string> inputs;
  std::optional<std::string> trace;
};

Expected<SimulateArgs> parseArgs(Args args) {
  SimulateArgs out;
  bool haveTicks = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool hasValue = i + 1 < args.size();
    if (arg == "--ticks" || arg == "--inputs" || arg == "--trace") {
      if (!hasValue) return Error{std::string(arg), "needs a value"};
      const std::string_view value = args[++i];
      if (arg == "--ticks") {
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out.ticks);
        if (ec != std::errc() || end != value.data() + value.size()) {
          return Error{"--ticks", "must be a whole number >= 0, got '" + std::string(value) + "'"};
        }
        haveTicks = true;
      } else if (arg == "--inputs") {
        out.inputs = std::string(value);
      } else {
        out.trace = std::string(value);
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
  if (!haveTicks) return Error{"--ticks", "missing (how many ticks to run)"};
  return out;
}

Expected<nlohmann::json> readJsonFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{path, "cannot open file"};
  std::stringstream text;
  text << file.rdbuf();
  return runtime::parseInputsText(text.str(), path);
}

int fail(const Error& error) {
  std::fprintf(stderr, "floptle simulate: %s\n", error.message().c_str());
  return 1;
}

// Writes the trace file (when asked for) and prints the result object; the exit status.
int finish(const SimulateArgs& args, const std::string& traceLines,
           const nlohmann::ordered_json& result) {
  if (args.trace) {
    std::ofstream out(*args.trace, std::ios::binary | std::ios::trunc);
    out << traceLines;
    if (!out) return fail(Error{*args.trace, "cannot write the trace file"});
  }
  std::cout << result.dump() << '\n';
  return 0;
}

}  // namespace

int runSimulate(Args args) {
  auto parsed = parseArgs(args);
  if (!parsed) {
    fail(parsed.error());
    std::fputs(kUsage, stderr);
    return 1;
  }
  auto scene = scene::loadSceneFile(parsed->scene);
  if (!scene) {
    // File-level errors already name the path; content errors name a JSON pointer in it.
    const Error& e = scene.error();
    if (e.where == parsed->scene) return fail(e);
    return fail(Error{parsed->scene + (e.where.empty() ? "" : ": " + e.where), e.what});
  }

  physics::MeshColliderCache meshCache;  // this run's
  runtime::ReplayOptions options;
  options.meshCache = &meshCache;
  options.ticks = parsed->ticks;
  options.sceneName = parsed->scene;
  std::optional<nlohmann::json> inputs;
  if (parsed->inputs) {
    auto inputsJson = readJsonFile(*parsed->inputs);
    if (!inputsJson) return fail(inputsJson.error());
    inputs = std::move(*inputsJson);
    options.inputs = &*inputs;
    options.inputsName = *parsed->inputs;
  }
  std::string traceLines;
  if (parsed->trace) options.traceLines = &traceLines;
  const std::filesystem::path dir = std::filesystem::path(parsed->scene).parent_path();
  auto result = runtime::replay(*scene, dir, options);
  if (!result) return fail(result.error());
  return finish(*parsed, traceLines, *result);
}

}  // namespace floptle::cli
