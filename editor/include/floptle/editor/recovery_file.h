#pragma once
// RecoveryFile: crash insurance. While the document has unsaved changes, its JSON is written
// to this session's own recovery file every interval (30 s by default), untitled documents
// included. A clean exit, a save or a newly opened file removes it; so a recovery file found at
// start belongs to a session that ended without closing, and it is offered back.
//
// Every session writes its own files, `<id>.json` (the scene) and `<id>.path` (the path it came
// from, empty when untitled), and holds `<id>.lock` (QLockFile, never stale by age) while it
// runs. A file is pending when no running session holds its lock, so a second editor running
// beside this one neither offers nor overwrites the first one's work, and a start never
// overwrites what it offers: it keeps pending files until the user recovers or discards them.
#include <memory>

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

class QLockFile;

namespace floptle::editor {

class EditorDocument;

class RecoveryFile : public QObject {
  Q_OBJECT

 public:
  static constexpr int kDefaultIntervalMs = 30'000;

  /// Does not own `document`. `directory` holds the recovery files; empty uses the
  /// application's data location (its `recovery` folder).
  RecoveryFile(EditorDocument& document, QString directory = {}, QObject* parent = nullptr);
  /// Releases the lock and leaves this session's file where it is: a session that ends without
  /// discard() (a crash) is offered back by the next one.
  ~RecoveryFile() override;

  void setIntervalMs(int milliseconds) { timer_.setInterval(milliseconds); }
  int intervalMs() const { return timer_.interval(); }
  QString directory() const { return directory_; }
  /// This session's recovery file.
  QString filePath() const;
  /// Writes this session's recovery file now if the document is dirty; true when one was
  /// written. A failure (a full disk) is reported by autosaveFailed, naming the file and the
  /// cause; the previous recovery file and the document stay as they were.
  bool autosaveNow();
  /// Deletes this session's recovery file (after a save, a new document or a clean exit).
  void discard();

  /// Recovery files of sessions that are no longer running, newest first.
  QStringList pendingFiles() const;
  bool pending() const { return !pendingFiles().isEmpty(); }
  /// The path the document of a pending file was saved at (empty when untitled).
  static QString originalPathOf(const QString& recoveryFile);
  /// Loads a pending file (the newest when `file` is empty) into the document (dirty, with its
  /// original path). This session's recovery file then holds that content and the pending one
  /// is removed. False when the file is not a valid scene: it is then kept, for the user to
  /// inspect, and the document is unchanged.
  bool recoverInto(EditorDocument& document, const QString& file = {});
  /// Deletes a pending file (the user declined it).
  void discardPending(const QString& file);

 signals:
  void autosaved(const QString& path);
  void autosaveFailed(const QString& message);

 private:
  static QString sidecarOf(const QString& recoveryFile);
  static QString lockOf(const QString& recoveryFile);

  EditorDocument& document_;
  QString directory_;
  QString id_;
  std::unique_ptr<QLockFile> lock_;
  QTimer timer_;
};

}  // namespace floptle::editor
