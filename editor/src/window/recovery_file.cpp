// RecoveryFile: per-session recovery files guarded by lock files (see recovery_file.h).
#include "floptle/editor/recovery_file.h"

#include <algorithm>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>

#include "floptle/editor/editor_document.h"

namespace floptle::editor {

RecoveryFile::RecoveryFile(EditorDocument& document, QString directory, QObject* parent)
    : QObject(parent), document_(document), directory_(std::move(directory)) {
  if (directory_.isEmpty()) {
    directory_ = QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
                     .filePath("recovery");
  }
  QDir().mkpath(directory_);
  // Process id and start time (ms) name the session: unique among running sessions, and a
  // later session never reuses an earlier one's name even when the pid comes round again.
  id_ = QStringLiteral("session-%1-%2")
            .arg(QCoreApplication::applicationPid())
            .arg(QDateTime::currentMSecsSinceEpoch());
  for (int n = 2; QFile::exists(filePath()) || QFile::exists(lockOf(filePath())); ++n)
    id_ = id_.section('.', 0, 0) + QStringLiteral(".%1").arg(n);
  lock_ = std::make_unique<QLockFile>(lockOf(filePath()));
  lock_->setStaleLockTime(0);  // held for the whole session: stale only when its process is gone
  lock_->tryLock(0);
  timer_.setInterval(kDefaultIntervalMs);
  connect(&timer_, &QTimer::timeout, this, &RecoveryFile::autosaveNow);
  timer_.start();
}

RecoveryFile::~RecoveryFile() = default;

QString RecoveryFile::filePath() const {
  return QDir(directory_).filePath(id_ + ".json");
}

QString RecoveryFile::sidecarOf(const QString& recoveryFile) {
  return recoveryFile.chopped(int(sizeof(".json")) - 1) + ".path";
}

QString RecoveryFile::lockOf(const QString& recoveryFile) {
  return recoveryFile.chopped(int(sizeof(".json")) - 1) + ".lock";
}

bool RecoveryFile::autosaveNow() {
  if (!document_.isDirty()) return false;
  QDir().mkpath(directory_);
  if (Expected<void> written = document_.writeCopy(filePath()); !written) {
    emit autosaveFailed(
        tr("Autosave failed: %1").arg(QString::fromStdString(written.error().message())));
    return false;
  }
  QSaveFile sidecar(sidecarOf(filePath()));
  const QByteArray original = document_.filePath().toUtf8();
  if (!sidecar.open(QIODevice::WriteOnly) || sidecar.write(original) != original.size() ||
      !sidecar.commit()) {
    emit autosaveFailed(tr("Autosave failed: %1: %2 (the scene itself was autosaved to %3)")
                            .arg(sidecar.fileName(), sidecar.errorString(), filePath()));
    return false;
  }
  emit autosaved(filePath());
  return true;
}

void RecoveryFile::discard() {
  QFile::remove(filePath());
  QFile::remove(sidecarOf(filePath()));
}

QStringList RecoveryFile::pendingFiles() const {
  QFileInfoList found = QDir(directory_).entryInfoList({"session-*.json"}, QDir::Files);
  std::sort(found.begin(), found.end(), [](const QFileInfo& a, const QFileInfo& b) {
    return a.lastModified() != b.lastModified() ? a.lastModified() > b.lastModified()
                                                : a.fileName() < b.fileName();
  });
  QStringList pending;
  for (const QFileInfo& info : found) {
    const QString file = info.absoluteFilePath();
    if (file == QFileInfo(filePath()).absoluteFilePath()) continue;
    // A running session holds its lock; one that died left none, or a stale one.
    QLockFile probe(lockOf(file));
    probe.setStaleLockTime(0);
    if (!probe.tryLock(0)) continue;
    probe.unlock();
    pending << file;
  }
  return pending;
}

QString RecoveryFile::originalPathOf(const QString& recoveryFile) {
  QFile sidecar(sidecarOf(recoveryFile));
  return sidecar.open(QIODevice::ReadOnly) ? QString::fromUtf8(sidecar.readAll()) : QString();
}

bool RecoveryFile::recoverInto(EditorDocument& document, const QString& file) {
  const QStringList pending = pendingFiles();
  const QString chosen = file.isEmpty() ? (pending.isEmpty() ? QString() : pending.front()) : file;
  if (chosen.isEmpty() || !pending.contains(chosen)) return false;
  const QString original = originalPathOf(chosen);
  if (!document.open(chosen)) return false;
  document.markRecovered(original);
  // Hand the content over to this session's own file before the pending one goes, so there is
  // never a moment when neither holds it.
  if (&document != &document_ || !autosaveNow()) return true;
  discardPending(chosen);
  return true;
}

void RecoveryFile::discardPending(const QString& file) {
  QFile::remove(file);
  QFile::remove(sidecarOf(file));
  QFile::remove(lockOf(file));
}

}  // namespace floptle::editor
