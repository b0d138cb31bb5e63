#pragma once
// PlayTimeline: the timeline while playing or replaying, an overlay drawn over the bottom of the
// play view (a child of the viewport, placed by PlayMode): a scrub bar over the recording's
// ticks [0, end] with the current tick, a strip above it marking the kept snapshots (where a
// seek starts stepping from), the current tick and the first tick a replay differs at, Step
// Back (one tick), Branch (the current tick ends the recording; playing on records a new
// future) and the position in words. Dragging the slider or pressing on the strip seeks the
// session (PlaySession::seek). Its controls take no keyboard focus, so the viewport keeps the
// player's keys; a press on the overlay never reaches the view below it (no ripple, no pick).
#include <cstdint>
#include <vector>

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
  /// The snapshot ticks the strip marks (the session's kept snapshots), ascending.
  std::vector<std::uint64_t> snapshotMarks() const;
  /// The x (px, in this widget) at which the strip draws `tick`.
  int markX(std::uint64_t tick) const;
  /// The strip's rectangle (px, in this widget): a press at x seeks to the tick drawn there.
  QRect stripRect() const;

 public slots:
  /// Reads the session's tick and end into the slider, the strip and the label.
  void refresh();

 signals:
  /// A seek or branch was refused (the error, in words).
  void message(const QString& text);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  void seekTo(int tick);
  /// The tick drawn at x (px), clamped to [0, end].
  std::uint64_t tickAt(int x) const;
  PlaySession& session_;
  QSlider* slider_ = nullptr;
  QToolButton* back_ = nullptr;
  QToolButton* branch_ = nullptr;
  QLabel* label_ = nullptr;
  bool refreshing_ = false;
};

}  // namespace floptle::editor
