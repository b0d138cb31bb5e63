// SessionPanel: a recorded quantity of the play session over its ticks, with the cursor.
#include "floptle/editor/session_panel.h"

#include <cmath>
#include <limits>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLineSeries>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include "floptle/editor/play_session.h"

namespace floptle::editor {
namespace {

QString quantityLabel(runtime::SeriesQuantity q) {
  switch (q) {
    case runtime::SeriesQuantity::Speed:
      return SessionPanel::tr("speed (m/s)");
    case runtime::SeriesQuantity::Height:
      return SessionPanel::tr("height (m)");
    case runtime::SeriesQuantity::Gravity:
      return SessionPanel::tr("|g| (m/s^2)");
    case runtime::SeriesQuantity::Kinetic:
      return SessionPanel::tr("kinetic energy (J)");
    case runtime::SeriesQuantity::Potential:
      return SessionPanel::tr("potential energy (J)");
    case runtime::SeriesQuantity::Contacts:
      return SessionPanel::tr("contacts (-)");
    case runtime::SeriesQuantity::StepTime:
      return SessionPanel::tr("step time (ms)");
  }
  return {};
}

}  // namespace

SessionPanel::SessionPanel(PlaySession& session, QWidget* parent)
    : QWidget(parent), session_(session) {
  setObjectName("sessionPanel");
  quantityBox_ = new QComboBox(this);
  quantityBox_->setObjectName("sessionQuantity");
  for (int q = 0; q < runtime::kSeriesQuantities; ++q)
    quantityBox_->addItem(quantityLabel(runtime::SeriesQuantity(q)), q);
  nodeBox_ = new QComboBox(this);
  nodeBox_->setObjectName("sessionNode");
  auto* chart = new QChart();
  chart->legend()->hide();
  series_ = new QLineSeries(chart);
  cursor_ = new QLineSeries(chart);
  cursor_->setColor(QColor(230, 80, 60));
  chart->addSeries(series_);
  chart->addSeries(cursor_);
  tickAxis_ = new QValueAxis(chart);
  tickAxis_->setTitleText(tr("tick"));
  tickAxis_->setLabelFormat("%d");
  valueAxis_ = new QValueAxis(chart);
  chart->addAxis(tickAxis_, Qt::AlignBottom);
  chart->addAxis(valueAxis_, Qt::AlignLeft);
  for (QLineSeries* s : {series_, cursor_}) {
    s->attachAxis(tickAxis_);
    s->attachAxis(valueAxis_);
  }
  view_ = new QChartView(chart, this);
  view_->setObjectName("sessionChart");
  view_->setRenderHint(QPainter::Antialiasing);
  // Small when docked beside the log: the chart's own minimum (axes, titles) would otherwise
  // set the bottom dock area's height on first run.
  view_->setMinimumSize(120, 60);
  auto* choices = new QHBoxLayout();
  choices->addWidget(quantityBox_, 1);
  choices->addWidget(nodeBox_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(choices);
  layout->addWidget(view_, 1);
  refreshTimer_ = new QTimer(this);
  refreshTimer_->setSingleShot(true);
  refreshTimer_->setInterval(kRefreshMs);
  connect(refreshTimer_, &QTimer::timeout, this, &SessionPanel::refresh);
  connect(quantityBox_, &QComboBox::currentIndexChanged, this, &SessionPanel::refresh);
  connect(nodeBox_, &QComboBox::currentIndexChanged, this, &SessionPanel::refresh);
  connect(&session_, &PlaySession::ticked, this, &SessionPanel::scheduleRefresh);
  connect(&session_, &PlaySession::timelineChanged, this, &SessionPanel::scheduleRefresh);
  connect(&session_, &PlaySession::stateChanged, this, &SessionPanel::refresh);
}

QList<QPointF> SessionPanel::seriesPoints() const {
  return series_->points();
}

QList<QPointF> SessionPanel::cursorPoints() const {
  return cursor_->points();
}

void SessionPanel::scheduleRefresh() {
  if (!refreshTimer_->isActive()) refreshTimer_->start();
}

void SessionPanel::setQuantity(runtime::SeriesQuantity quantity) {
  quantityBox_->setCurrentIndex(int(quantity));
  refresh();
}

runtime::SeriesQuantity SessionPanel::quantity() const {
  return runtime::SeriesQuantity(quantityBox_->currentData().toInt());
}

bool SessionPanel::setNode(const QString& name) {
  refresh();  // the names of the recording as it is now
  const int index = nodeBox_->findText(name);
  if (index < 0) return false;
  nodeBox_->setCurrentIndex(index);
  refresh();
  return true;
}

QString SessionPanel::node() const {
  return nodeBox_->currentText();
}

void SessionPanel::followSelection(const QStringList& names) {
  for (const QString& name : names)
    if (nodeBox_->findText(name) >= 0) {
      setNode(name);
      return;
    }
}

void SessionPanel::refresh() {
  refreshTimer_->stop();
  const runtime::SeriesTable& table = session_.series();
  // The node list follows the recording's (names come with its first tick).
  QStringList names;
  for (const std::string& name : table.names()) names.append(QString::fromStdString(name));
  QStringList current;
  for (int i = 0; i < nodeBox_->count(); ++i) current.append(nodeBox_->itemText(i));
  if (names != current) {
    const QString keep = nodeBox_->currentText();
    const QSignalBlocker block(nodeBox_);
    nodeBox_->clear();
    nodeBox_->addItems(names);
    const int index = nodeBox_->findText(keep);
    nodeBox_->setCurrentIndex(index >= 0 ? index : (names.isEmpty() ? -1 : 0));
  }
  const int node = nodeBox_->currentIndex();
  const runtime::SeriesQuantity q = quantity();
  QList<QPointF> points;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  if (node >= 0 || q == runtime::SeriesQuantity::StepTime) {
    points.reserve(qsizetype(table.ticks()));
    for (std::uint64_t t = 1; t <= table.ticks(); ++t) {
      const double v = table.value(std::size_t(std::max(node, 0)), q, t);
      if (std::isnan(v)) continue;
      points.append(QPointF(double(t), v));
      lo = std::min(lo, v), hi = std::max(hi, v);
    }
  }
  series_->setName(quantityLabel(q));
  series_->replace(points);
  if (points.isEmpty()) lo = 0.0, hi = 1.0;
  const double pad = hi - lo > 1e-9 ? 0.05 * (hi - lo) : 0.5;
  valueAxis_->setRange(lo - pad, hi + pad);
  valueAxis_->setTitleText(quantityLabel(q));
  const double end = double(std::max<std::uint64_t>(session_.endTick(), 1));
  tickAxis_->setRange(0.0, end);
  const double at = double(session_.tick());
  cursor_->replace({QPointF(at, lo - pad), QPointF(at, hi + pad)});
}

}  // namespace floptle::editor
