// SceneRuntime: the Drift-or-physics choice, stepping and live tuning.
#include "floptle/runtime/scene_runtime.h"

#include <string>

#include "floptle/core/scene/scene.h"
#include "floptle/drift/drift_json.h"
#include "floptle/drift/replay.h"
#include "floptle/drift/sandbox.h"

namespace floptle::runtime {
namespace {

/// The "drift" component at `pointer` of `document`, or null when it is gone.
const nlohmann::ordered_json* componentAt(const nlohmann::ordered_json& document,
                                          const std::string& pointer) {
  const nlohmann::ordered_json::json_pointer at(pointer);
  return document.contains(at) ? &document.at(at) : nullptr;
}

/// What decides the static composition: the interaction rules and every shaped node's
/// material (a node that changes material changes the parts it blends into).
std::string compositionSignature(const nlohmann::ordered_json& document,
                                 const scene::Scene& scene) {
  std::string signature = document.value("interactions", nlohmann::ordered_json::array()).dump();
  for (const scene::SceneNode& node : scene.nodes)
    if (node.shape) signature += "\n" + node.name + "\t" + std::to_string(node.material);
  return signature;
}

}  // namespace

SceneRuntime::SceneRuntime(SceneRuntime&&) noexcept = default;
SceneRuntime& SceneRuntime::operator=(SceneRuntime&&) noexcept = default;
SceneRuntime::~SceneRuntime() = default;

Expected<SceneRuntime> SceneRuntime::build(const nlohmann::ordered_json& document,
                                           const scene::Scene& scene, const BuildOptions& options) {
  auto driftNode = drift::findDriftNode(document);
  if (!driftNode) return driftNode.error();
  SceneRuntime runtime;
  if (driftNode->component) {
    auto setup = drift::driftSetupFromJson(*driftNode->component, driftNode->pointer);
    if (!setup) return setup.error();
    auto sandbox = std::make_unique<drift::Sandbox>();  // fixed arrays (~40 KB): on the heap
    const drift::TuningIssue issue = sandbox->restart(setup->tuning, setup->start);
    if (!issue.ok())
      return Error{driftNode->pointer + "/" + issue.field,
                   issue.problem ? issue.problem : "invalid"};
    runtime.drift_ = std::move(sandbox);
    runtime.driftNode_ = driftNode->name;
    runtime.driftPointer_ = driftNode->pointer;
    return runtime;
  }
  BuildOptions withScripts = options;
  if (const auto scripts = document.find("scripts"); scripts != document.end())
    withScripts.sceneScripts = &*scripts;
  auto simulation = buildSimulation(scene, withScripts);
  if (!simulation) return simulation.error();
  runtime.physics_ = std::make_unique<physics::Simulation>(std::move(simulation.value()));
  runtime.composition_ = compositionSignature(document, scene);
  return runtime;
}

void SceneRuntime::step() {
  if (physics_) physics_->step();
  if (drift_) drift_->tick();
}

std::uint64_t SceneRuntime::tick() const {
  if (physics_) return physics_->tick();
  return drift_->tickIndex();
}

double SceneRuntime::fixedDt() const {
  if (physics_) return physics_->settings().fixedDt;
  return drift::kTickSeconds;
}

Expected<void> SceneRuntime::applyTuning(const nlohmann::ordered_json& document,
                                         const scene::Scene& scene) {
  if (physics_) {
    runtime::applyTuning(scene, *physics_);
    std::string composition = compositionSignature(document, scene);
    if (composition != composition_) {
      if (Expected<void> recomposed = recomposeStatics(scene, *physics_); !recomposed)
        return recomposed.error();
      composition_ = std::move(composition);
    }
    return {};
  }
  const nlohmann::ordered_json* component = componentAt(document, driftPointer_);
  if (!component) return Error{driftPointer_, "the drift component is gone"};
  Expected<drift::Tuning> tuning = drift::tuningFromJson(*component, driftPointer_);
  if (!tuning) return tuning.error();
  const drift::TuningIssue issue = drift_->setTuning(*tuning);
  if (!issue.ok())
    return Error{driftPointer_ + "/" + issue.field, issue.problem ? issue.problem : "invalid"};
  return {};
}

}  // namespace floptle::runtime
