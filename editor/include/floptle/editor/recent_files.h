#pragma once
// RecentFiles: the Open Recent list, newest first, kept in QSettings ("recentFiles").
#include <QStringList>

namespace floptle::editor {

class RecentFiles {
 public:
  static constexpr int kMaxEntries = 10;

  QStringList load() const;
  /// Moves `path` to the front (adding it), drops entries beyond kMaxEntries; returns the list.
  QStringList add(const QString& path);
  void clear();
};

}  // namespace floptle::editor
