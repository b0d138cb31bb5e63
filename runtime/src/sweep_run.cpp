// runSweep: worker threads over the run list; rows handed back in run order.
#include "floptle/runtime/sweep_run.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "floptle/core/scene/scene_io.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/runtime/replay.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;

std::array<double, 3> vec3(const Json& array) {
  return {array.at(0).get<double>(), array.at(1).get<double>(), array.at(2).get<double>()};
}

Expected<SweepRow> runOne(const SweepPlan& plan, const Json& document, std::uint64_t run,
                          const SweepOptions& options, physics::MeshColliderCache& meshCache) {
  const std::string where = "run " + std::to_string(run) + " (" + describeRun(plan, run) + ")";
  const Json edited = plan.edited(document, run);
  // Each value was checked alone (SweepPlan::parseSet); this is their combination.
  const std::vector<Error> problems = scene::checkSceneDocument(edited);
  if (!problems.empty()) return Error{where, scene::joinProblems(problems).message()};
  ReplayOptions replayOptions;
  replayOptions.ticks = options.ticks;
  replayOptions.inputs = options.inputs;
  replayOptions.sceneName = options.sceneName;
  replayOptions.inputsName = options.inputsName;
  replayOptions.meshCache = &meshCache;
  replayOptions.cancel = options.cancel;
  double stepSeconds = 0.0;
  replayOptions.stepSeconds = &stepSeconds;
  auto result = replay(edited, options.sceneDir, replayOptions);
  if (!result) return Error{where, result.error().message()};
  SweepRow row;
  row.run = run;
  row.values = plan.values(run);
  row.hash = (*result)["hash"].get<std::string>();
  row.meanStepMs = options.ticks ? stepSeconds * 1e3 / double(options.ticks) : 0.0;
  for (const auto& [name, node] : (*result)["nodes"].items()) {
    SweepNode n;
    n.name = name;
    if (node.contains("position")) {
      n.position = vec3(node["position"]);
    } else if (node.contains("centroid")) {
      n.position = vec3(node["centroid"]);
    }
    if (node.contains("velocity")) n.velocity = vec3(node["velocity"]);
    row.nodes.push_back(std::move(n));
  }
  return row;
}

}  // namespace

std::string describeRun(const SweepPlan& plan, std::uint64_t run) {
  const std::vector<Json> values = plan.values(run);
  std::string text;
  for (std::size_t p = 0; p < values.size(); ++p) {
    if (p) text += ' ';
    text += plan.parameters()[p].pointer + "=" +
            (values[p].is_string() ? values[p].get<std::string>() : values[p].dump());
  }
  return text;
}

Expected<void> runSweep(const SweepPlan& plan, const Json& document, const SweepOptions& options,
                        const std::function<Expected<void>(const SweepRow&)>& onRow) {
  const std::uint64_t begin = options.runs.begin, end = options.runs.end;
  if (begin >= end) return {};
  const auto jobs = static_cast<unsigned>(std::clamp<std::uint64_t>(options.jobs, 1, end - begin));
  // Workers run at most `window` runs ahead of the row handed back last, so finished rows
  // waiting for an earlier one stay few however long the sweep.
  const std::uint64_t window = 4u * jobs;
  std::mutex mutex;
  std::condition_variable changed;
  std::map<std::uint64_t, std::optional<Expected<SweepRow>>> done;  // run -> its row
  std::uint64_t next = begin;                                       // the next run a worker takes
  std::uint64_t handed = begin;                                     // the next row to hand back
  bool stop = false;
  auto cancelled = [&options] { return options.cancel && options.cancel->load(); };

  auto work = [&] {
    physics::MeshColliderCache meshCache;  // this worker's: caches are not shared
    for (;;) {
      std::uint64_t run = 0;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || next >= end || next < handed + window; });
        if (stop || next >= end || cancelled()) return;
        run = next++;
      }
      auto row = runOne(plan, document, run, options, meshCache);
      {
        std::lock_guard lock(mutex);
        done[run].emplace(std::move(row));
      }
      changed.notify_all();
    }
  };
  std::vector<std::jthread> workers;
  for (unsigned j = 0; j < jobs; ++j) workers.emplace_back(work);

  Expected<void> status;
  for (std::uint64_t run = begin; run < end; ++run) {
    std::optional<Expected<SweepRow>> row;
    {
      std::unique_lock lock(mutex);
      // A worker that saw the cancel flag takes no more runs: stop waiting for this one.
      while (done.count(run) == 0 && !cancelled())
        changed.wait_for(lock, std::chrono::milliseconds(20));
      if (done.count(run) == 0) {
        status = Error{"sweep", kSweepCancelled};
        break;
      }
      row = std::move(done[run]);
      done.erase(run);
      handed = run + 1;
    }
    changed.notify_all();
    if (cancelled()) {
      status = Error{"sweep", kSweepCancelled};
      break;
    }
    if (!*row) {
      status = row->error();
      break;
    }
    if (auto written = onRow(**row); !written) {
      status = written.error();
      break;
    }
    if (options.progress) options.progress(run + 1 - begin, end - begin);
  }
  {
    std::lock_guard lock(mutex);
    stop = true;
  }
  changed.notify_all();
  return status;  // the workers finish their runs and join here
}

}  // namespace floptle::runtime
