// PlayTimeline: slider, Step Back and Branch over a play session's recording.
#include "floptle/editor/play_timeline.h"

#include <algorithm>
#include <cstdint>

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QToolButton>

#include "floptle/editor/play_session.h"

namespace floptle::editor {

PlayTimeline::PlayTimeline(PlaySession& session, QWidget* parent)
    : QWidget(parent), session_(session) {
  setObjectName("playTimeline");
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
  label_ = new QLabel(this);
  label_->setObjectName("playTimelineLabel");
  label_->setMinimumWidth(180);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 0, 4, 0);
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
}

}  // namespace floptle::editor
