#pragma once
// SessionPanel: the Session dock. A Qt Charts plot of one quantity of the play session's
// recording (runtime::SeriesTable: speed, height, |g|, kinetic and potential energy, contacts,
// step time), for the player or the node chosen (the selection of the play copy picks it
// when it is one of the recorded nodes), over every tick recorded, with the timeline's
// cursor (a vertical line at the current tick). Redraws at most every kRefreshMs.
#include <cstdint>

#include <QList>
#include <QPointF>
#include <QWidget>

#include "floptle/runtime/tick_series.h"

class QChartView;
class QComboBox;
class QLineSeries;
class QTimer;
class QValueAxis;

namespace floptle::editor {

class PlaySession;

class SessionPanel : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kRefreshMs = 100;

  explicit SessionPanel(PlaySession& session, QWidget* parent = nullptr);

  void setQuantity(runtime::SeriesQuantity quantity);
  runtime::SeriesQuantity quantity() const;
  /// Plots the node called `name` (false when the recording has none of that name).
  bool setNode(const QString& name);
  QString node() const;
  /// The plotted series (x: tick, y: the value; ticks with no value, an empty potential, are
  /// left out) and the cursor (two points at x = the session's tick).
  QLineSeries* series() const { return series_; }
  QLineSeries* cursor() const { return cursor_; }
  QList<QPointF> seriesPoints() const;
  QList<QPointF> cursorPoints() const;

 public slots:
  /// Rebuilds the series from the session's table now.
  void refresh();
  /// The play copy's selection: plots the first selected node that was recorded.
  void followSelection(const QStringList& names);

 private:
  void scheduleRefresh();
  PlaySession& session_;
  QComboBox* quantityBox_ = nullptr;
  QComboBox* nodeBox_ = nullptr;
  QChartView* view_ = nullptr;
  QLineSeries* series_ = nullptr;
  QLineSeries* cursor_ = nullptr;
  QValueAxis* tickAxis_ = nullptr;
  QValueAxis* valueAxis_ = nullptr;
  QTimer* refreshTimer_ = nullptr;
};

}  // namespace floptle::editor
