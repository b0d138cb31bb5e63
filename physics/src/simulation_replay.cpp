// replayScene: scene document -> Simulation -> N ticks -> result JSON.
#include "floptle/physics/simulation_replay.h"

#include "floptle/core/scene/scene.h"

namespace floptle::physics {

Expected<nlohmann::ordered_json> replayScene(const nlohmann::ordered_json& document,
                                             const std::filesystem::path& sceneDir,
                                             const ReplayOptions& options,
                                             ReplayErrorSource* errorSource) {
  if (errorSource) *errorSource = ReplayErrorSource::Scene;
  auto scene = scene::buildScene(document);
  if (!scene) return scene.error();
  auto sim = Simulation::fromScene(scene.value(), sceneDir);
  if (!sim) return sim.error();
  for (std::size_t i = 0; i < options.inputs.size(); ++i) {
    const InputEvent& e = options.inputs[i];
    if (!sim->findCharacter(e.node) && !sim->findVehicle(e.node)) {
      if (errorSource) *errorSource = ReplayErrorSource::Inputs;
      return Error{"/" + std::to_string(i) + "/node",
                   "'" + e.node + "' is not a character or vehicle node of the scene"};
    }
  }
  sim->setInputEvents(options.inputs);
  for (std::uint64_t i = 0; i < options.ticks; ++i) {
    sim->step();
    if (options.traceLines) {
      options.traceLines->append(sim->resultJson().dump());
      options.traceLines->push_back('\n');
    }
  }
  return sim->resultJson();
}

}  // namespace floptle::physics
