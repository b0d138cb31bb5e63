#pragma once
// Rotating backups beside a scene: before a save replaces `folder/level.json`, the bytes on disk
// are copied to `folder/backups/level.N.json`, N one more than the newest there, and the oldest
// beyond `keep` are removed. A file whose bytes equal the newest backup's is not copied again,
// so saving twice in a row keeps one copy. The copy is written atomically (core's save path), so
// a kill or a full disk leaves no partial backup.
#include <QString>
#include <QStringList>

#include "floptle/core/expected.h"

namespace floptle::editor {

/// Most backups a scene keeps (TrenchBroom keeps up to 50); the default is kDefaultBackups.
inline constexpr int kMaxBackups = 50;
inline constexpr int kDefaultBackups = 10;

/// The folder the backups of `scenePath` go to.
QString backupFolderOf(const QString& scenePath);
/// Backups of `scenePath`, oldest first.
QStringList backupsOf(const QString& scenePath);
/// Copies the file at `scenePath` (when there is one) to the next backup and trims to `keep`
/// (0 = none are kept). Returns the backup written, or empty when none was needed.
Expected<QString> backUpBeforeSave(const QString& scenePath, int keep);

}  // namespace floptle::editor
