#pragma once
// PlayScripts: play mode's side of a scene's Lua scripts (runtime::ScriptStage). Before a
// tick it reloads the script files saved since the last one (ScriptStage::reload: the chunk
// runs again, on_start does not); after a tick it hands the log lines on and reports a script
// error once, so the session can pause and select the node.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <QFileSystemWatcher>
#include <QObject>
#include <QString>

#include "floptle/runtime/script_stage.h"

namespace floptle::editor {

class PlayScripts : public QObject {
 public:
  /// Watches the stage's files under `folder`. The stage must outlive this object.
  PlayScripts(runtime::ScriptStage& stage, std::filesystem::path folder);

  /// Reloads the files saved since the last call; a reload error goes to `message` (the old
  /// code keeps running).
  void beforeTick(const std::function<void(const QString&)>& message);
  /// Log lines to `message`; the script error, the first time it is seen (again after a
  /// reload that cleared it).
  std::optional<runtime::ScriptFailure> afterTick(
      const std::function<void(const QString&)>& message);

 private:
  void onFileChanged(const QString& path);

  runtime::ScriptStage& stage_;
  std::filesystem::path folder_;
  QFileSystemWatcher watcher_;
  /// Files (as the scene names them) saved since the last tick, in the order saved.
  std::vector<std::string> pending_;
  bool failureReported_ = false;
};

}  // namespace floptle::editor
