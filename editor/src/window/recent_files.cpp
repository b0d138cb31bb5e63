#include "floptle/editor/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace floptle::editor {

QStringList RecentFiles::load() const {
  return QSettings().value("recentFiles").toStringList();
}

QStringList RecentFiles::add(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList list = load();
  list.removeAll(absolute);
  list.prepend(absolute);
  while (list.size() > kMaxEntries) list.removeLast();
  QSettings().setValue("recentFiles", list);
  return list;
}

void RecentFiles::clear() {
  QSettings().remove("recentFiles");
}

}  // namespace floptle::editor
