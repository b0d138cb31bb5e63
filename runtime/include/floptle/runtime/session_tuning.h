#pragma once
// TuningSchedule: the tuning edits of a recorded play session (play_recording.h), put into a
// running physics simulation at the ticks they were made. The document at any tick is the
// scene document with every edit addressed to an earlier tick applied (JSON patches, in
// order); what the simulation takes of it is runtime::applyTuning's (SceneRuntime), the same
// install play mode does when its copy is edited.
#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/runtime/play_recording.h"

namespace floptle::runtime {

class SceneRuntime;

class TuningSchedule {
 public:
  TuningSchedule() = default;
  /// `document`: the scene document the session starts from; `edits` in tick order.
  TuningSchedule(nlohmann::ordered_json document, std::vector<TuningEdit> edits);
  /// The same over a document shared with its owner and never copied here: a level's document
  /// is large, and play mode remakes its schedule at every recorded edit.
  TuningSchedule(std::shared_ptr<const nlohmann::ordered_json> document,
                 std::vector<TuningEdit> edits);

  /// The document in effect while tick `tick` runs: every edit addressed to a tick <= `tick`
  /// applied. Errors name the edit ("/tuning/2/patch: ...").
  Expected<nlohmann::ordered_json> documentAt(std::uint64_t tick) const;
  /// Before `runtime` runs its next tick: installs the edits addressed to it (none: nothing).
  Expected<void> applyDue(SceneRuntime& runtime);
  /// After `runtime` was restored to an earlier or later tick: installs the document in
  /// effect there.
  Expected<void> seek(SceneRuntime& runtime);
  bool empty() const { return edits_.empty(); }

 private:
  Expected<void> install(SceneRuntime& runtime, std::uint64_t tick);
  std::shared_ptr<const nlohmann::ordered_json> base_;  ///< null: an empty document
  std::vector<TuningEdit> edits_;
  /// The edits applied to the running simulation so far (a prefix of edits_).
  std::size_t applied_ = 0;
};

}  // namespace floptle::runtime
