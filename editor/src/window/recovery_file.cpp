#include "floptle/editor/recovery_file.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

#include "floptle/editor/editor_document.h"

namespace floptle::editor {

RecoveryFile::RecoveryFile(EditorDocument& document, QString directory, QObject* parent)
    : QObject(parent), document_(document), directory_(std::move(directory)) {
  if (directory_.isEmpty())
    directory_ = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  timer_.setInterval(kDefaultIntervalMs);
  connect(&timer_, &QTimer::timeout, this, &RecoveryFile::autosaveNow);
  timer_.start();
}

QString RecoveryFile::filePath() const { return QDir(directory_).filePath("recovery.json"); }

bool RecoveryFile::autosaveNow() {
  if (!document_.isDirty()) return false;
  QDir().mkpath(directory_);
  if (!document_.writeCopy(filePath())) return false;
  QFile sidecar(QDir(directory_).filePath("recovery.path"));
  if (sidecar.open(QIODevice::WriteOnly | QIODevice::Truncate))
    sidecar.write(document_.filePath().toUtf8());
  emit autosaved(filePath());
  return true;
}

void RecoveryFile::discard() {
  QFile::remove(filePath());
  QFile::remove(QDir(directory_).filePath("recovery.path"));
}

bool RecoveryFile::pending() const { return QFile::exists(filePath()); }

bool RecoveryFile::recoverInto(EditorDocument& document) {
  QString original;
  QFile sidecar(QDir(directory_).filePath("recovery.path"));
  if (sidecar.open(QIODevice::ReadOnly)) original = QString::fromUtf8(sidecar.readAll());
  if (!document.open(filePath())) {
    discard();
    return false;
  }
  document.markRecovered(original);
  return true;
}

}  // namespace floptle::editor
