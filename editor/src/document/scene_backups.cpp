#include "document/scene_backups.h"

#include <algorithm>
#include <utility>
#include <vector>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace floptle::editor {
namespace {

/// Backups of the scene with their numbers, oldest (lowest number) first.
std::vector<std::pair<long long, QString>> numberedBackups(const QString& scenePath) {
  const QFileInfo scene(scenePath);
  const QString prefix = scene.completeBaseName() + ".";
  const QString suffix = "." + scene.suffix();
  std::vector<std::pair<long long, QString>> found;
  const QDir folder(backupFolderOf(scenePath));
  for (const QString& name : folder.entryList({prefix + "*" + suffix}, QDir::Files)) {
    bool ok = false;
    const long long n =
        name.mid(prefix.size(), name.size() - prefix.size() - suffix.size()).toLongLong(&ok);
    if (ok && n > 0) found.emplace_back(n, folder.filePath(name));
  }
  std::sort(found.begin(), found.end());
  return found;
}

QByteArray readAll(const QString& path, bool* ok) {
  QFile file(path);
  *ok = file.open(QIODevice::ReadOnly);
  return *ok ? file.readAll() : QByteArray();
}

}  // namespace

QString backupFolderOf(const QString& scenePath) {
  return QFileInfo(scenePath).absoluteDir().filePath("backups");
}

QStringList backupsOf(const QString& scenePath) {
  QStringList list;
  for (const auto& entry : numberedBackups(scenePath)) list << entry.second;
  return list;
}

Expected<QString> backUpBeforeSave(const QString& scenePath, int keep) {
  keep = std::clamp(keep, 0, kMaxBackups);
  if (keep == 0 || !QFileInfo(scenePath).isFile()) return QString();
  bool ok = false;
  const QByteArray current = readAll(scenePath, &ok);
  if (!ok) {
    return Error{scenePath.toStdString(), "cannot back up before saving: cannot read the file"};
  }
  auto existing = numberedBackups(scenePath);
  if (!existing.empty()) {
    bool readable = false;
    if (readAll(existing.back().second, &readable) == current && readable) return QString();
  }
  const QString folder = backupFolderOf(scenePath);
  if (!QDir().mkpath(folder)) {
    return Error{folder.toStdString(), "cannot back up before saving: cannot create the folder"};
  }
  const QFileInfo scene(scenePath);
  const long long next = existing.empty() ? 1 : existing.back().first + 1;
  const QString target = QDir(folder).filePath(
      QStringLiteral("%1.%2.%3").arg(scene.completeBaseName()).arg(next).arg(scene.suffix()));
  QSaveFile out(target);
  if (!out.open(QIODevice::WriteOnly) || out.write(current) != current.size() || !out.commit()) {
    return Error{target.toStdString(),
                 "cannot back up before saving: " + out.errorString().toStdString() +
                     " (the scene file is unchanged)"};
  }
  existing.emplace_back(next, target);
  const std::size_t limit = static_cast<std::size_t>(keep);
  for (std::size_t i = 0; existing.size() > limit && i < existing.size() - limit; ++i)
    QFile::remove(existing[i].second);
  return target;
}

}  // namespace floptle::editor
