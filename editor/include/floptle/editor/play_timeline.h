#pragma once
// PlayTimeline: the timeline under the viewport while playing or replaying (a bottom tool bar
// of the window): a slider over the recording's ticks [0, end], Step Back (one tick), Branch
// (the current tick ends the recording; playing on records a new future) and the position in
// words. Dragging the slider seeks the session (PlaySession::seek).
#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;

namespace floptle::editor {

class PlaySession;

class PlayTimeline : public QWidget {
  Q_OBJECT

 public:
  explicit PlayTimeline(PlaySession& session, QWidget* parent = nullptr);

  QSlider* slider() const { return slider_; }
  QToolButton* stepBackButton() const { return back_; }
  QToolButton* branchButton() const { return branch_; }
  QString positionText() const;

 public slots:
  /// Reads the session's tick and end into the slider and the label.
  void refresh();

 signals:
  /// A seek or branch was refused (the error, in words).
  void message(const QString& text);

 private:
  void seekTo(int tick);
  PlaySession& session_;
  QSlider* slider_ = nullptr;
  QToolButton* back_ = nullptr;
  QToolButton* branch_ = nullptr;
  QLabel* label_ = nullptr;
  bool refreshing_ = false;
};

}  // namespace floptle::editor
