#include "floptle/drift/replay.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>

#include "floptle/drift/sandbox.h"

namespace floptle::drift {

namespace {

using nlohmann::json;

// Depth-first search of a node list (and nested "children") for a "drift" component.
void searchNodes(const nlohmann::ordered_json& nodes, const std::string& pointer,
                 DriftNode& found) {
  if (!nodes.is_array()) return;
  for (std::size_t i = 0; i < nodes.size() && found.component == nullptr; ++i) {
    const nlohmann::ordered_json& node = nodes[i];
    if (!node.is_object()) continue;
    const std::string here = pointer + "/" + std::to_string(i);
    if (const auto it = node.find("drift"); it != node.end()) {
      const auto name = node.find("name");
      found.name = name != node.end() && name->is_string() ? name->get<std::string>() : here;
      found.pointer = here + "/drift";
      found.component = &*it;
      return;
    }
    if (const auto children = node.find("children"); children != node.end()) {
      searchNodes(*children, here + "/children", found);
    }
  }
}

nlohmann::ordered_json xyz(Vec2d v) {
  return nlohmann::ordered_json::array({v.x, 0.0, v.z});
}

}  // namespace

Expected<std::vector<ReplayInput>> replayInputsFromJson(const json& inputs,
                                                        const std::string& where) {
  if (!inputs.is_array()) {
    return Error{where, "inputs must be a JSON array of {\"tick\":n,\"place\":[x,z]}"};
  }
  std::vector<ReplayInput> out;
  out.reserve(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const json& item = inputs[i];
    const std::string here = where + ": /" + std::to_string(i);
    if (!item.is_object()) {
      return Error{
          here, "must be an object {\"tick\":n,\"place\":[x,z]} or {\"tick\":n,\"tuning\":{...}}"};
    }
    const auto tick = item.find("tick");
    if (tick == item.end() || !tick->is_number_integer() || tick->get<std::int64_t>() < 0) {
      return Error{here + "/tick", "must be an integer >= 0"};
    }
    ReplayInput input;
    input.tick = tick->get<std::uint64_t>();
    input.where = here;
    if (const auto tuning = item.find("tuning"); tuning != item.end()) {
      if (!tuning->is_object() || item.contains("place")) {
        return Error{here + "/tuning", "must be an object of drift keys, without \"place\""};
      }
      input.changesTuning = true;
      input.tuning = *tuning;
      out.push_back(std::move(input));
      continue;
    }
    const auto place = item.find("place");
    if (place == item.end() || !place->is_array() || place->size() != 2 ||
        !(*place)[0].is_number() || !(*place)[1].is_number()) {
      return Error{here + "/place", "must be an array of two numbers [x, z]"};
    }
    input.position = {(*place)[0].get<double>(), (*place)[1].get<double>()};
    if (!isFinite(input.position)) return Error{here + "/place", "must be finite"};
    out.push_back(std::move(input));
  }
  // Stable by tick: commands of one tick keep their file order.
  std::stable_sort(out.begin(), out.end(),
                   [](const ReplayInput& a, const ReplayInput& b) { return a.tick < b.tick; });
  return out;
}

Expected<void> applyReplayInput(Sandbox& sandbox, const ReplayInput& input) {
  if (input.changesTuning) {
    auto tuning = tuningFromJson(input.tuning, input.where + "/tuning", sandbox.tuning());
    if (!tuning) return tuning.error();
    sandbox.setTuning(*tuning);  // Already validated as a whole.
    return {};
  }
  if (!sandbox.schedulePlacement(input.tick, input.position)) {
    return Error{input.where, "more than " + std::to_string(kMaxQueuedPlacements) +
                                  " placements waiting at tick " + std::to_string(input.tick)};
  }
  return {};
}

Expected<DriftNode> findDriftNode(const nlohmann::ordered_json& scene) {
  if (!scene.is_object()) return Error{"/", "a scene must be a JSON object"};
  DriftNode found;
  if (const auto nodes = scene.find("nodes"); nodes != scene.end()) {
    if (!nodes->is_array()) return Error{"/nodes", "must be an array"};
    searchNodes(*nodes, "/nodes", found);
  }
  return found;
}

Expected<nlohmann::ordered_json> replayDrift(const DriftSetup& setup, const std::string& nodeName,
                                             const ReplayOptions& options) {
  // The sandbox holds fixed arrays (~40 KB): keep it off the stack.
  auto sandbox = std::make_unique<Sandbox>();
  if (TuningIssue issue = sandbox->restart(setup.tuning, setup.start); !issue.ok()) {
    return Error{issue.field, issue.problem};
  }
  std::size_t next = 0;
  for (std::uint64_t tick = 0; tick < options.ticks; ++tick) {
    for (; next < options.inputs.size() && options.inputs[next].tick <= tick; ++next) {
      if (Expected<void> applied = applyReplayInput(*sandbox, options.inputs[next]); !applied)
        return applied.error();
    }
    sandbox->tick();
    if (options.afterTick) options.afterTick(*sandbox);
    if (options.traceLines != nullptr) {
      const EventTrace& trace = sandbox->trace();
      for (int i = 0; i < trace.size(); ++i) {
        *options.traceLines += eventToJson(trace[i]).dump();
        *options.traceLines += '\n';
      }
    }
    sandbox->clearTrace();  // Drained every tick: the ring never overflows here.
  }

  char hash[17];
  std::snprintf(hash, sizeof hash, "%016" PRIx64, sandbox->stateHash());
  const Counters& c = sandbox->counters();
  nlohmann::ordered_json result;
  result["tick"] = sandbox->tickIndex();
  result["hash"] = hash;
  result["nodes"][nodeName] = {{"position", xyz(sandbox->boat().position)},
                               {"velocity", xyz(sandbox->boat().velocity)}};
  result["counters"] = {{"ticks", c.ticks},
                        {"placements", c.placements},
                        {"contacts", c.contacts},
                        {"discarded_ticks", c.discardedTicks},
                        {"rejected_placements", c.rejectedPlacements}};
  return result;
}

}  // namespace floptle::drift
