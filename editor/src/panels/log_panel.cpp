#include "floptle/editor/log_panel.h"

#include <QTime>

namespace floptle::editor {

LogPanel::LogPanel(QWidget* parent) : QPlainTextEdit(parent) {
  setObjectName("logPanel");
  setReadOnly(true);
  setMaximumBlockCount(kMaxLines);
  setPlaceholderText(tr("Messages appear here"));
}

void LogPanel::appendMessage(const QString& text) {
  appendPlainText(QTime::currentTime().toString("HH:mm:ss ") + text);
}

}  // namespace floptle::editor
