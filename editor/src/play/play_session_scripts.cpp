// PlaySession and the scene's Lua scripts: reload on save before a tick, log lines to the log,
// and a script error pausing play with file:line: message and its node selected.
#include <QFileInfo>

#include "floptle/editor/play_session.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/scene_runtime.h"
#include "floptle/runtime/script_stage.h"
#include "play/play_scripts.h"

namespace floptle::editor {

void PlaySession::startScripts() {
  scripts_.reset();
  physics::Simulation* sim = simulation();
  runtime::ScriptStage* stage = sim ? runtime::scriptStageOf(*sim) : nullptr;
  if (!stage) return;
  const std::filesystem::path folder =
      filePath_.isEmpty()
          ? std::filesystem::path()
          : std::filesystem::path(QFileInfo(filePath_).absolutePath().toStdString());
  scripts_ = std::make_unique<PlayScripts>(*stage, folder);
}

void PlaySession::reloadScripts() {
  scripts_->beforeTick([this](const QString& text) { emit message(text); });
}

bool PlaySession::scriptsRunOn() {
  const std::optional<runtime::ScriptFailure> failure =
      scripts_->afterTick([this](const QString& text) { emit message(text); });
  if (!failure) return true;
  setPaused(true);
  emit message(tr("Script error, play paused: %1")
                   .arg(QString::fromStdString(runtime::describeFailure(*failure))));
  if (!failure->node.empty() && copy_) copy_->setSelection({QString::fromStdString(failure->node)});
  return false;
}

}  // namespace floptle::editor
