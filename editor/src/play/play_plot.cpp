// PlayPlot: rolling polylines of the player's speed and height.
#include "floptle/editor/play_plot.h"

#include <algorithm>

#include <QPainter>
#include <QPainterPath>

namespace floptle::editor {

PlayPlot::PlayPlot(QWidget* parent) : QWidget(parent) {
  setObjectName("playPlot");
  setAttribute(Qt::WA_TransparentForMouseEvents);
  setFixedSize(260, 110);
}

void PlayPlot::addSample(double speed, double height) {
  speeds_.push_back(speed);
  heights_.push_back(height);
  while (int(speeds_.size()) > kCapacity) {
    speeds_.pop_front();
    heights_.pop_front();
  }
  update();
}

void PlayPlot::clear() {
  speeds_.clear();
  heights_.clear();
  update();
}

namespace {

// One series scaled into `area` by its own min / max (a flat series sits in the middle).
void drawSeries(QPainter& painter, const std::deque<double>& values, const QRectF& area,
                const QColor& color) {
  if (values.size() < 2) return;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const double range = *hi - *lo;
  QPainterPath path;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = area.left() + area.width() * double(i) / double(PlayPlot::kCapacity - 1);
    const double f = range > 1e-9 ? (values[i] - *lo) / range : 0.5;
    const double y = area.bottom() - f * area.height();
    if (i == 0)
      path.moveTo(x, y);
    else
      path.lineTo(x, y);
  }
  painter.setPen(QPen(color, 1.5));
  painter.drawPath(path);
}

}  // namespace

void PlayPlot::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), QColor(20, 20, 24, 180));
  const QRectF area = QRectF(rect()).adjusted(6, 18, -6, -6);
  const QColor speedColor(255, 190, 60), heightColor(90, 200, 255);
  drawSeries(painter, speeds_, area, speedColor);
  drawSeries(painter, heights_, area, heightColor);
  QFont font = painter.font();
  font.setPointSizeF(8.0);
  painter.setFont(font);
  const QString speed =
      speeds_.empty() ? QStringLiteral("-") : QString::number(speeds_.back(), 'f', 2);
  const QString height =
      heights_.empty() ? QStringLiteral("-") : QString::number(heights_.back(), 'f', 2);
  painter.setPen(speedColor);
  painter.drawText(QPointF(6, 13), tr("speed %1 m/s").arg(speed));
  painter.setPen(heightColor);
  painter.drawText(QPointF(135, 13), tr("height %1 m").arg(height));
}

}  // namespace floptle::editor
