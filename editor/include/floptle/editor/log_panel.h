#pragma once
// LogPanel: a read-only list of timestamped messages (refused edits, file errors, shader
// errors, autosave notes). Keeps the newest kMaxLines.
#include <QPlainTextEdit>

namespace floptle::editor {

class LogPanel : public QPlainTextEdit {
  Q_OBJECT

 public:
  static constexpr int kMaxLines = 2000;
  explicit LogPanel(QWidget* parent = nullptr);

 public slots:
  void appendMessage(const QString& text);
};

}  // namespace floptle::editor
