#pragma once
// PlayPlot: the play HUD's live plot of the player's speed (m/s) and height (m): a Qt Charts
// chart of two line series over the last kCapacity samples (one per frame that ran ticks),
// each on its own value axis, over a translucent panel.
#include <deque>

#include <QList>
#include <QPointF>
#include <QWidget>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;

namespace floptle::editor {

class PlayPlot : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kCapacity = 240;

  explicit PlayPlot(QWidget* parent = nullptr);

  /// Appends one sample: speed (m/s), height (m).
  void addSample(double speed, double height);
  void clear();
  const std::deque<double>& speeds() const { return speeds_; }
  const std::deque<double>& heights() const { return heights_; }
  /// The chart's series (x: sample index, y: the value).
  QLineSeries* speedSeries() const { return speedSeries_; }
  QLineSeries* heightSeries() const { return heightSeries_; }
  /// The points the chart draws now (x: sample index).
  QList<QPointF> speedPoints() const;
  QList<QPointF> heightPoints() const;

 private:
  void refresh();
  std::deque<double> speeds_;
  std::deque<double> heights_;
  QChartView* view_ = nullptr;
  QLineSeries* speedSeries_ = nullptr;
  QLineSeries* heightSeries_ = nullptr;
  QValueAxis* speedAxis_ = nullptr;
  QValueAxis* heightAxis_ = nullptr;
  QValueAxis* sampleAxis_ = nullptr;
};

}  // namespace floptle::editor
