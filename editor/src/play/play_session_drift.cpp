// PlaySession, Drift scenes: the sandbox built from the copy's "drift" component, ripple
// placement, and the tuning installed live when the copy changes.
#include "floptle/drift/drift_json.h"
#include "floptle/drift/sandbox.h"
#include "floptle/editor/play_session.h"

namespace floptle::editor {

Expected<void> PlaySession::buildDrift() {
  const std::optional<Json> component = copy_->valueAt(driftPointer_);
  if (!component) return Error{driftPointer_, "missing drift component"};
  Expected<drift::DriftSetup> setup = drift::driftSetupFromJson(*component, driftPointer_);
  if (!setup) return setup.error();
  auto sandbox = std::make_unique<drift::Sandbox>();
  const drift::TuningIssue issue = sandbox->restart(setup->tuning, setup->start);
  if (!issue.ok())
    return Error{driftPointer_ + "/" + issue.field, issue.problem ? issue.problem : "invalid"};
  sandbox_ = std::move(sandbox);
  return {};
}

// The copy changed (an inspector edit, or undo / redo of one): the tuning it now holds goes
// to the running sandbox through its validate-as-a-whole setTuning. A refused tuning keeps
// the old one and says which value and why. The boat's start state applies on the next Play.
void PlaySession::applyCopyToDrift() {
  const std::optional<Json> component = copy_->valueAt(driftPointer_);
  if (!component) return;
  Expected<drift::Tuning> tuning = drift::tuningFromJson(*component, driftPointer_);
  if (!tuning) {
    emit message(tr("Drift tuning refused: %1").arg(QString::fromStdString(tuning.error().message())));
    return;
  }
  const drift::TuningIssue issue = sandbox_->setTuning(*tuning);
  if (!issue.ok()) {
    emit message(tr("Drift tuning refused: %1/%2: %3")
                     .arg(QString::fromStdString(driftPointer_), issue.field,
                          issue.problem ? issue.problem : "invalid"));
  }
}

bool PlaySession::placeRipple(double x, double z) {
  if (!sandbox_ || state_ == PlayState::Stopped) return false;
  return sandbox_->queuePlacement(drift::Vec2d{x, z});
}

}  // namespace floptle::editor
