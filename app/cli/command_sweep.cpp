// floptle sweep SCENE --set POINTER=VALUES [--set ...] --ticks N [--inputs FILE] --out FILE.csv
//               [--jobs J] [--shard K/N]
// Runs the scene over the cross product of the swept values (runtime/sweep_plan.h), one
// simulate each (runtime/sweep_run.h), and writes one CSV row per run (runtime/sweep_csv.h).
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "floptle/runtime/replay.h"
#include "floptle/runtime/sweep_csv.h"
#include "floptle/runtime/sweep_plan.h"
#include "floptle/runtime/sweep_run.h"
#include "progress_lines.h"
#include "scene_argument.h"

namespace floptle::cli {

namespace {

constexpr const char* kUsage =
    "usage: floptle sweep SCENE --set POINTER=VALUES [--set ...] --ticks N [--inputs FILE]\n"
    "                     --out FILE.csv [--jobs J] [--shard K/N]\n"
    "  --set POINTER=start:step:stop   a JSON pointer into the scene and an inclusive range\n"
    "  --set POINTER=a,b,c             ... or a list (numbers; strings or true/false where the\n"
    "                                  scene's value is one)\n"
    "  runs: the cross product, the last --set varying fastest; each is `floptle simulate` of\n"
    "  the edited scene. Columns: run, the values, per node NAME.x,.y,.z,.vx,.vy,.vz (soft\n"
    "  bodies: centroid, no velocity), hash, step_ms (mean wall time of a tick, last).\n"
    "  --jobs J     worker threads (default 1); the file is the same for any J\n"
    "  --shard K/N  only the K-th of N contiguous slices of the runs, K from 0; rows keep their\n"
    "               run index and only K = 0 writes the header, so `cat` of the shards' files\n"
    "               in K order is the unsharded file\n";

struct SweepArgs {
  std::string scene;
  std::vector<std::string> sets;
  std::uint64_t ticks = 0;
  bool haveTicks = false;
  std::optional<std::string> inputs;
  std::string out;
  unsigned jobs = 1;
  std::optional<std::string> shard;
};

Expected<std::uint64_t> wholeNumber(std::string_view option, std::string_view value) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size())
    return Error{std::string(option), "must be a whole number, got '" + std::string(value) + "'"};
  return n;
}

Expected<SweepArgs> parseArgs(Args args) {
  SweepArgs out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--set" || arg == "--ticks" || arg == "--inputs" || arg == "--out" ||
        arg == "--jobs" || arg == "--shard") {
      if (i + 1 >= args.size()) return Error{std::string(arg), "needs a value"};
      const std::string_view value = args[++i];
      if (arg == "--set") {
        out.sets.emplace_back(value);
      } else if (arg == "--ticks") {
        auto n = wholeNumber(arg, value);
        if (!n) return n.error();
        out.ticks = *n;
        out.haveTicks = true;
      } else if (arg == "--inputs") {
        out.inputs = std::string(value);
      } else if (arg == "--out") {
        out.out = std::string(value);
      } else if (arg == "--jobs") {
        auto n = wholeNumber(arg, value);
        if (!n) return n.error();
        if (*n < 1 || *n > 1024)
          return Error{"--jobs", "must be in 1..1024, got " + std::string(value)};
        out.jobs = static_cast<unsigned>(*n);
      } else {
        out.shard = std::string(value);
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
  if (out.sets.empty()) return Error{"--set", "missing (what to sweep: POINTER=VALUES)"};
  if (!out.haveTicks) return Error{"--ticks", "missing (how many ticks each run)"};
  if (out.out.empty()) return Error{"--out", "missing (the CSV file to write)"};
  return out;
}

int fail(const Error& error) {
  std::fprintf(stderr, "floptle sweep: %s\n", error.message().c_str());
  return 1;
}

}  // namespace

int runSweep(Args args) {
  auto parsed = parseArgs(args);
  if (!parsed) {
    fail(parsed.error());
    std::fputs(kUsage, stderr);
    return 1;
  }
  auto loaded = loadSceneArgument(parsed->scene);
  if (!loaded) return fail(loaded.error());
  const nlohmann::ordered_json& document = loaded->document;
  std::vector<runtime::SweepParameter> parameters;
  for (const std::string& set : parsed->sets) {
    auto parameter = runtime::SweepPlan::parseSet(set, document);
    if (!parameter) return fail(parameter.error());
    parameters.push_back(std::move(*parameter));
  }
  auto plan = runtime::SweepPlan::make(std::move(parameters));
  if (!plan) return fail(plan.error());
  runtime::SweepShard shard{0, plan->runCount()};
  if (parsed->shard) {
    auto slice = runtime::parseShard(*parsed->shard, plan->runCount());
    if (!slice) return fail(slice.error());
    shard = *slice;
  }
  std::optional<nlohmann::json> inputs;
  runtime::SweepOptions options;
  if (parsed->inputs) {
    auto read = runtime::readInputsFile(*parsed->inputs);
    if (!read) return fail(read.error());
    inputs = std::move(*read);
    options.inputs = &*inputs;
    options.inputsName = *parsed->inputs;
  }
  options.ticks = parsed->ticks;
  options.sceneName = parsed->scene;
  options.sceneDir = std::filesystem::path(parsed->scene).parent_path();
  options.jobs = parsed->jobs;
  options.runs = shard;
  ProgressLines progress("sweep");
  options.progress = [&progress](std::uint64_t done, std::uint64_t total) {
    progress(float(double(done) / double(total)), "of " + std::to_string(total) + " runs");
  };

  std::ofstream out(parsed->out, std::ios::binary | std::ios::trunc);
  if (!out) return fail(Error{parsed->out, "cannot write the file"});
  runtime::SweepCsvWriter writer(*plan, shard.begin == 0);
  auto swept = runtime::runSweep(*plan, document, options,
                                 [&](const runtime::SweepRow& row) -> Expected<void> {
                                   auto text = writer.text(row);
                                   if (!text) return text.error();
                                   out << *text;
                                   out.flush();  // a job cut short keeps its finished rows
                                   if (!out) return Error{parsed->out, "cannot write the file"};
                                   return {};
                                 });
  if (!swept) return fail(swept.error());
  return 0;
}

}  // namespace floptle::cli
