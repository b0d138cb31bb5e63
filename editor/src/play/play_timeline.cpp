// PlayTimeline: the scrub bar overlay over a play session's recording (slider, snapshot strip,
// Step Back, Branch).
#include "floptle/editor/play_timeline.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSlider>
#include <QToolButton>

#include "floptle/editor/play_session.h"

namespace floptle::editor {
namespace {

/// Height of the strip of marks above the slider, and the margin around the overlay (px).
constexpr int kStripHeight = 10;
constexpr int kMargin = 4;

}  // namespace

PlayTimeline::PlayTimeline(PlaySession& session, QWidget* parent)
    : QWidget(parent), session_(session) {
  setObjectName("playTimeline");
  setAutoFillBackground(false);
  back_ = new QToolButton(this);
  back_->setObjectName("playTimelineBack");
  back_->setText(tr("Step Back"));
  back_->setToolTip(tr("Go back one tick (the nearest snapshot, then forward)"));
  branch_ = new QToolButton(this);
  branch_->setObjectName("playTimelineBranch");
  branch_->setText(tr("Branch"));
  branch_->setToolTip(
      tr("End the recording at this tick: playing on records a new future from here"));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName("playTimelineSlider");
  slider_->setMinimum(0);
  slider_->setToolTip(tr("Scrub: the nearest kept snapshot (marked above), then forward"));
  label_ = new QLabel(this);
  label_->setObjectName("playTimelineLabel");
  label_->setMinimumWidth(180);
  label_->setStyleSheet("color: #ffd27a; font-family: monospace;");
  // The viewport keeps the keyboard (the player's controls).
  for (QWidget* w : {static_cast<QWidget*>(back_), static_cast<QWidget*>(branch_),
                     static_cast<QWidget*>(slider_)})
    w->setFocusPolicy(Qt::NoFocus);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(kMargin, kMargin + kStripHeight + 2, kMargin, kMargin);
  layout->addWidget(back_);
  layout->addWidget(slider_, 1);
  layout->addWidget(label_);
  layout->addWidget(branch_);
  connect(slider_, &QSlider::valueChanged, this, [this](int value) {
    if (!refreshing_) seekTo(value);
  });
  connect(back_, &QToolButton::clicked, this, [this] {
    if (Expected<void> back = session_.stepBack(); !back)
      emit message(QString::fromStdString(back.error().message()));
  });
  connect(branch_, &QToolButton::clicked, this, [this] {
    session_.branch();
    refresh();
  });
  connect(&session_, &PlaySession::timelineChanged, this, &PlayTimeline::refresh);
  connect(&session_, &PlaySession::ticked, this, &PlayTimeline::refresh);
  refresh();
}

void PlayTimeline::seekTo(int tick) {
  if (Expected<void> sought = session_.seek(std::uint64_t(std::max(tick, 0))); !sought)
    emit message(QString::fromStdString(sought.error().message()));
}

QString PlayTimeline::positionText() const {
  return label_->text();
}

std::vector<std::uint64_t> PlayTimeline::snapshotMarks() const {
  return session_.snapshots().ticks();
}

QRect PlayTimeline::stripRect() const {
  // Over the slider's groove, so a mark stands above the slider position of its tick.
  return QRect(slider_->x(), kMargin, slider_->width(), kStripHeight);
}

int PlayTimeline::markX(std::uint64_t tick) const {
  const QRect strip = stripRect();
  const std::uint64_t end = std::max<std::uint64_t>(session_.endTick(), 1);
  const double f = double(std::min(tick, end)) / double(end);
  return strip.left() + int(std::lround(f * double(strip.width() - 1)));
}

std::uint64_t PlayTimeline::tickAt(int x) const {
  const QRect strip = stripRect();
  const double f =
      std::clamp(double(x - strip.left()) / double(std::max(strip.width() - 1, 1)), 0.0, 1.0);
  return std::uint64_t(std::llround(f * double(session_.endTick())));
}

void PlayTimeline::refresh() {
  const bool on = session_.recording() || session_.replaying();
  setEnabled(on);
  refreshing_ = true;
  slider_->setMaximum(int(std::min<std::uint64_t>(session_.endTick(), INT32_MAX)));
  slider_->setValue(int(std::min<std::uint64_t>(session_.tick(), INT32_MAX)));
  refreshing_ = false;
  QString text = tr("%1 tick %2 / %3")
                     .arg(session_.replaying() ? tr("REPLAY") : tr("REC"))
                     .arg(session_.tick())
                     .arg(session_.endTick());
  if (const std::optional<std::uint64_t> differs = session_.firstDifferingTick())
    text += tr("  differs at %1").arg(*differs);
  label_->setText(text);
  update();
}

void PlayTimeline::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(20, 20, 24, 180));  // the HUD's backdrop: the play view shows through
  p.drawRoundedRect(rect(), 4, 4);
  const QRect strip = stripRect();
  const int mid = strip.center().y();
  p.setPen(QPen(QColor(255, 255, 255, 90), 1));
  p.drawLine(strip.left(), mid, strip.right(), mid);
  // Kept snapshots: short blue ticks.
  p.setPen(QPen(QColor(120, 190, 255), 1));
  for (std::uint64_t tick : snapshotMarks()) {
    const int x = markX(tick);
    p.drawLine(x, strip.top() + 2, x, strip.bottom() - 2);
  }
  // The first tick a replay differs at: red, full height.
  if (const std::optional<std::uint64_t> differs = session_.firstDifferingTick()) {
    p.setPen(QPen(QColor(240, 70, 60), 2));
    const int x = markX(*differs);
    p.drawLine(x, strip.top(), x, strip.bottom());
  }
  // The current tick: the amber of the play tint.
  p.setPen(Qt::NoPen);
  p.setBrush(QColor(232, 146, 26));
  const int x = markX(session_.tick());
  p.drawEllipse(QPoint(x, mid), 4, 4);
}

void PlayTimeline::mousePressEvent(QMouseEvent* event) {
  // Accepted wherever it lands: the view below must not take it as a click on the scene.
  event->accept();
  if (event->button() == Qt::LeftButton && isEnabled() &&
      stripRect().adjusted(0, -kMargin, 0, 2).contains(event->position().toPoint()))
    seekTo(int(std::min<std::uint64_t>(tickAt(event->position().toPoint().x()), INT32_MAX)));
}

void PlayTimeline::mouseMoveEvent(QMouseEvent* event) {
  event->accept();
  if ((event->buttons() & Qt::LeftButton) && isEnabled() &&
      stripRect().adjusted(0, -kMargin, 0, 2).contains(event->position().toPoint()))
    seekTo(int(std::min<std::uint64_t>(tickAt(event->position().toPoint().x()), INT32_MAX)));
}

}  // namespace floptle::editor
