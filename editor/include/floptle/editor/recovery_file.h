#pragma once
// RecoveryFile: crash insurance. While the document has unsaved changes, its JSON is written
// to a recovery file every interval (30 s by default). A clean exit removes it; so a recovery
// file found at start means the last session ended without closing, and it is offered back.
// The original path is remembered in a small sidecar so a recovered document saves where it
// came from.
#include <optional>

#include <QObject>
#include <QString>
#include <QTimer>

namespace floptle::editor {

class EditorDocument;

class RecoveryFile : public QObject {
  Q_OBJECT

 public:
  static constexpr int kDefaultIntervalMs = 30'000;

  /// Does not own `document`. `directory` holds recovery.json and recovery.path; empty uses
  /// the application's data location.
  RecoveryFile(EditorDocument& document, QString directory = {}, QObject* parent = nullptr);

  void setIntervalMs(int milliseconds) { timer_.setInterval(milliseconds); }
  int intervalMs() const { return timer_.interval(); }
  QString filePath() const;
  /// Writes the recovery file now if the document is dirty; true when one was written.
  bool autosaveNow();
  /// Deletes the recovery file (after a save or a clean exit).
  void discard();
  /// True when a recovery file from an earlier session exists.
  bool pending() const;
  /// Loads the recovery file into the document (dirty, original path); false when it is not
  /// a valid scene (it is then discarded).
  bool recoverInto(EditorDocument& document);

 signals:
  void autosaved(const QString& path);

 private:
  EditorDocument& document_;
  QString directory_;
  QTimer timer_;
};

}  // namespace floptle::editor
