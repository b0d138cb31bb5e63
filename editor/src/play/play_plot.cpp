// PlayPlot: rolling Qt Charts series of the player's speed and height.
#include "floptle/editor/play_plot.h"

#include <algorithm>

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

namespace floptle::editor {
namespace {

const QColor kSpeedColor(255, 190, 60);
const QColor kHeightColor(90, 200, 255);

// The axis range of a series: its min / max, widened around a flat series.
void fitAxis(QValueAxis* axis, const std::deque<double>& values) {
  if (values.empty()) return;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  const double pad = *hi - *lo > 1e-9 ? 0.05 * (*hi - *lo) : 0.5;
  axis->setRange(*lo - pad, *hi + pad);
}

}  // namespace

PlayPlot::PlayPlot(QWidget* parent) : QWidget(parent) {
  setObjectName("playPlot");
  setAttribute(Qt::WA_TransparentForMouseEvents);
  setFixedSize(300, 150);
  auto* chart = new QChart();
  chart->setBackgroundBrush(QColor(20, 20, 24, 180));
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->legend()->setLabelColor(Qt::white);
  chart->legend()->setAlignment(Qt::AlignTop);
  speedSeries_ = new QLineSeries(chart);
  speedSeries_->setName(tr("speed (m/s)"));
  speedSeries_->setColor(kSpeedColor);
  heightSeries_ = new QLineSeries(chart);
  heightSeries_->setName(tr("height (m)"));
  heightSeries_->setColor(kHeightColor);
  chart->addSeries(speedSeries_);
  chart->addSeries(heightSeries_);
  sampleAxis_ = new QValueAxis(chart);
  sampleAxis_->setRange(0, kCapacity - 1);
  sampleAxis_->setVisible(false);
  speedAxis_ = new QValueAxis(chart);
  heightAxis_ = new QValueAxis(chart);
  for (QValueAxis* axis : {speedAxis_, heightAxis_}) {
    axis->setLabelsColor(axis == speedAxis_ ? kSpeedColor : kHeightColor);
    axis->setLabelFormat("%.1f");
    axis->setTickCount(3);
    axis->setGridLineVisible(false);
  }
  chart->addAxis(sampleAxis_, Qt::AlignBottom);
  chart->addAxis(speedAxis_, Qt::AlignLeft);
  chart->addAxis(heightAxis_, Qt::AlignRight);
  speedSeries_->attachAxis(sampleAxis_);
  speedSeries_->attachAxis(speedAxis_);
  heightSeries_->attachAxis(sampleAxis_);
  heightSeries_->attachAxis(heightAxis_);
  view_ = new QChartView(chart, this);
  view_->setObjectName("playPlotChart");
  view_->setRenderHint(QPainter::Antialiasing);
  view_->setStyleSheet("background: transparent;");
  view_->setAttribute(Qt::WA_TransparentForMouseEvents);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
}

void PlayPlot::addSample(double speed, double height) {
  speeds_.push_back(speed);
  heights_.push_back(height);
  while (int(speeds_.size()) > kCapacity) {
    speeds_.pop_front();
    heights_.pop_front();
  }
  refresh();
}

QList<QPointF> PlayPlot::speedPoints() const {
  return speedSeries_->points();
}

QList<QPointF> PlayPlot::heightPoints() const {
  return heightSeries_->points();
}

void PlayPlot::clear() {
  speeds_.clear();
  heights_.clear();
  refresh();
}

void PlayPlot::refresh() {
  QList<QPointF> speed, height;
  speed.reserve(qsizetype(speeds_.size()));
  height.reserve(qsizetype(heights_.size()));
  for (std::size_t i = 0; i < speeds_.size(); ++i) {
    speed.append(QPointF(double(i), speeds_[i]));
    height.append(QPointF(double(i), heights_[i]));
  }
  speedSeries_->replace(speed);
  heightSeries_->replace(height);
  fitAxis(speedAxis_, speeds_);
  fitAxis(heightAxis_, heights_);
}

}  // namespace floptle::editor
