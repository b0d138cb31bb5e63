// TuningSchedule: a session's tuning edits, installed into the running simulation by tick.
#include "floptle/runtime/session_tuning.h"

#include <algorithm>

#include "floptle/core/scene/scene.h"
#include "floptle/runtime/scene_runtime.h"

namespace floptle::runtime {

TuningSchedule::TuningSchedule(nlohmann::ordered_json document, std::vector<TuningEdit> edits)
    : TuningSchedule(std::make_shared<const nlohmann::ordered_json>(std::move(document)),
                     std::move(edits)) {}

TuningSchedule::TuningSchedule(std::shared_ptr<const nlohmann::ordered_json> document,
                               std::vector<TuningEdit> edits)
    : base_(std::move(document)), edits_(std::move(edits)) {
  std::stable_sort(edits_.begin(), edits_.end(),
                   [](const TuningEdit& a, const TuningEdit& b) { return a.tick < b.tick; });
}

Expected<nlohmann::ordered_json> TuningSchedule::documentAt(std::uint64_t tick) const {
  nlohmann::ordered_json document = base_ ? *base_ : nlohmann::ordered_json();
  for (std::size_t i = 0; i < edits_.size() && edits_[i].tick <= tick; ++i) {
    try {
      document = document.patch(edits_[i].patch);
    } catch (const nlohmann::json::exception& e) {
      return Error{"/tuning/" + std::to_string(i) + "/patch",
                   std::string("does not apply to the scene: ") + e.what()};
    }
  }
  return document;
}

Expected<void> TuningSchedule::install(SceneRuntime& runtime, std::uint64_t tick) {
  auto document = documentAt(tick);
  if (!document) return document.error();
  auto scene = scene::buildScene(*document);
  if (!scene) return Error{"tuning at tick " + std::to_string(tick), scene.error().message()};
  return runtime.applyTuning(*document, *scene);
}

Expected<void> TuningSchedule::applyDue(SceneRuntime& runtime) {
  const std::uint64_t tick = runtime.tick();
  std::size_t due = applied_;
  while (due < edits_.size() && edits_[due].tick <= tick) ++due;
  if (due == applied_) return {};
  applied_ = due;
  return install(runtime, tick);
}

Expected<void> TuningSchedule::seek(SceneRuntime& runtime) {
  const std::uint64_t tick = runtime.tick();
  std::size_t due = 0;
  while (due < edits_.size() && edits_[due].tick <= tick) ++due;
  applied_ = due;
  if (edits_.empty()) return {};  // the simulation was built from the base document
  // The base document too: a seek back past every edit undoes them.
  return install(runtime, tick);
}

}  // namespace floptle::runtime
