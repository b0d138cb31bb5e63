#pragma once
// MeshSubtreeReloader: when a file the scene imported as a subtree changes on disk (a re-export
// from Blender, seen by ImportedMeshView's live reload: its sourceChanged), reads the file's
// objects again on a worker thread and applies EditorDocument::reloadMeshSubtree: one undo step,
// the user's edits of the matched nodes kept, new objects added, nodes of removed objects removed.
// The report
// ("kept 6, added 0, removed 1 (Wall)") goes to the log through message().
#include <QObject>
#include <QString>

#include <set>
#include <string>

namespace floptle::editor {

class EditorDocument;

class MeshSubtreeReloader : public QObject {
  Q_OBJECT

 public:
  /// Does not own the document; it must outlive the reloader.
  explicit MeshSubtreeReloader(EditorDocument& document, QObject* parent = nullptr);
  ~MeshSubtreeReloader() override;

  /// How many reloads were applied to the document (for tests).
  int applied() const { return applied_; }

 public slots:
  /// `path` (absolute) changed on disk: its subtree, if the scene holds one, is reloaded once
  /// the read in flight (if any) is in. Calls in one turn of the event loop count once.
  void fileChanged(const QString& path);

 signals:
  void message(const QString& text);
  /// After a reload was applied (or changed nothing); the log hears of the changes only.
  void reloadedSubtree(const QString& path);

 private:
  void readPending();
  void startRead(const std::string& path);

  EditorDocument& document_;
  /// Files changed this turn, files being read now, and files that changed again meanwhile.
  std::set<std::string> pending_, reading_, again_;
  int applied_ = 0;
};

}  // namespace floptle::editor
