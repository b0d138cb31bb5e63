// PlayScripts: script reload on save, log lines and the error report (play_scripts.h).
#include "play/play_scripts.h"

#include <algorithm>

#include <QFileInfo>

namespace floptle::editor {

PlayScripts::PlayScripts(runtime::ScriptStage& stage, std::filesystem::path folder)
    : stage_(stage), folder_(std::move(folder)) {
  for (const std::string& file : stage_.files()) {
    const QString path = QString::fromStdString((folder_ / file).string());
    if (QFileInfo::exists(path)) watcher_.addPath(path);
  }
  connect(&watcher_, &QFileSystemWatcher::fileChanged, this, &PlayScripts::onFileChanged);
}

void PlayScripts::onFileChanged(const QString& path) {
  // Editors that save by renaming a new file over the old drop the watch: watch it again.
  if (QFileInfo::exists(path) && !watcher_.files().contains(path)) watcher_.addPath(path);
  for (const std::string& file : stage_.files()) {
    if (QString::fromStdString((folder_ / file).string()) != path) continue;
    if (std::find(pending_.begin(), pending_.end(), file) == pending_.end())
      pending_.push_back(file);
  }
}

void PlayScripts::beforeTick(const std::function<void(const QString&)>& message) {
  std::vector<std::string> files = std::move(pending_);
  pending_.clear();
  for (const std::string& file : files) {
    Expected<void> reloaded = stage_.reload(file);
    if (reloaded) failureReported_ = false;
    message(reloaded ? QObject::tr("Script reloaded: %1").arg(QString::fromStdString(file))
                     : QObject::tr("Script not reloaded: %1")
                           .arg(QString::fromStdString(reloaded.error().message())));
  }
}

std::optional<runtime::ScriptFailure> PlayScripts::afterTick(
    const std::function<void(const QString&)>& message) {
  for (const runtime::ScriptLog& log : stage_.takeLogs()) {
    const QString node = log.node.empty() ? QObject::tr("scene") : QString::fromStdString(log.node);
    message(
        QObject::tr("[tick %1] %2: %3").arg(log.tick).arg(node, QString::fromStdString(log.text)));
  }
  if (!stage_.failure() || failureReported_) return std::nullopt;
  failureReported_ = true;
  return stage_.failure();
}

}  // namespace floptle::editor
