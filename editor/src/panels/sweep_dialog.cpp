#include "floptle/editor/sweep_dialog.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>

#include "floptle/editor/editor_document.h"
#include "floptle/runtime/replay.h"
#include "floptle/runtime/sweep_csv.h"
#include "floptle/runtime/sweep_plan.h"
#include "floptle/runtime/sweep_run.h"

namespace floptle::editor {
namespace {

/// The fields of one CSV line as core/csv.h writes them (RFC 4180 quoting).
QStringList csvFields(const QString& line) {
  QStringList out;
  QString field;
  bool quoted = false;
  for (int i = 0; i < line.size(); ++i) {
    const QChar c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out << field;
      field.clear();
    } else {
      field += c;
    }
  }
  out << field;
  return out;
}

}  // namespace

SweepDialog::SweepDialog(EditorDocument& document, QWidget* parent)
    : QDialog(parent), document_(document) {
  setObjectName("sweepDialog");
  setWindowTitle(tr("Sweep"));
  sets_ = new QPlainTextEdit;
  sets_->setObjectName("sweepSets");
  sets_->setPlaceholderText(tr("/materials/0/friction=0:0.1:1\n/settings/fixed_dt=0.01,0.02"));
  sets_->setToolTip(
      tr("One POINTER=VALUES a line: a JSON pointer into the scene and a range "
         "start:step:stop (stop included) or a list a,b,c. The runs are the cross "
         "product, the last line varying fastest."));
  if (document_.valueAt("/materials/0/friction"))
    sets_->setPlainText("/materials/0/friction=0:0.1:1");
  sets_->setMaximumHeight(80);
  ticks_ = new QSpinBox;
  ticks_->setObjectName("sweepTicks");
  ticks_->setRange(0, std::numeric_limits<int>::max());
  ticks_->setValue(600);
  ticks_->setSuffix(tr(" ticks"));
  inputs_ = new QLineEdit;
  inputs_->setObjectName("sweepInputs");
  inputs_->setPlaceholderText(tr("none"));
  auto* browse = new QPushButton(tr("..."));
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString file = QFileDialog::getOpenFileName(this, tr("Inputs file"), {},
                                                      tr("Inputs (*.json);;All files (*)"));
    if (!file.isEmpty()) inputs_->setText(file);
  });
  auto* inputsRow = new QHBoxLayout;
  inputsRow->addWidget(inputs_, 1);
  inputsRow->addWidget(browse);
  jobs_ = new QSpinBox;
  jobs_->setObjectName("sweepJobs");
  jobs_->setRange(1, 1024);
  jobs_->setValue(std::max(1, QThread::idealThreadCount()));
  auto* form = new QFormLayout;
  form->addRow(tr("Sweep"), sets_);
  form->addRow(tr("Each run"), ticks_);
  form->addRow(tr("Inputs"), inputsRow);
  form->addRow(tr("Threads"), jobs_);

  run_ = new QPushButton(tr("Run"));
  run_->setObjectName("sweepRun");
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setObjectName("sweepCancel");
  cancel_->setEnabled(false);
  save_ = new QPushButton(tr("Save CSV..."));
  save_->setObjectName("sweepSave");
  save_->setEnabled(false);
  progress_ = new QProgressBar;
  progress_->setObjectName("sweepProgress");
  progress_->setRange(0, 1);
  progress_->setValue(0);
  status_ = new QLabel;
  status_->setObjectName("sweepStatus");
  status_->setWordWrap(true);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(progress_, 1);
  buttons->addWidget(run_);
  buttons->addWidget(cancel_);
  buttons->addWidget(save_);

  x_ = new QComboBox;
  x_->setObjectName("sweepX");
  y_ = new QComboBox;
  y_->setObjectName("sweepY");
  auto* axes = new QHBoxLayout;
  axes->addWidget(new QLabel(tr("Plot")));
  axes->addWidget(y_, 1);
  axes->addWidget(new QLabel(tr("against")));
  axes->addWidget(x_, 1);
  series_ = new QLineSeries;
  series_->setPointsVisible(true);
  auto* chart = new QChart;
  chart->addSeries(series_);
  chart->legend()->hide();
  xAxis_ = new QValueAxis;
  yAxis_ = new QValueAxis;
  chart->addAxis(xAxis_, Qt::AlignBottom);
  chart->addAxis(yAxis_, Qt::AlignLeft);
  series_->attachAxis(xAxis_);
  series_->attachAxis(yAxis_);
  chart_ = new QChartView(chart);
  chart_->setObjectName("sweepChart");
  chart_->setRenderHint(QPainter::Antialiasing);
  chart_->setMinimumSize(420, 260);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addWidget(status_);
  layout->addLayout(axes);
  layout->addWidget(chart_, 1);

  connect(run_, &QPushButton::clicked, this, [this] { start(); });
  connect(cancel_, &QPushButton::clicked, this, &SweepDialog::cancel);
  connect(save_, &QPushButton::clicked, this, &SweepDialog::saveCsv);
  connect(x_, &QComboBox::currentIndexChanged, this, &SweepDialog::replot);
  connect(y_, &QComboBox::currentIndexChanged, this, &SweepDialog::replot);
  connect(&worker_, &QFutureWatcherBase::finished, this, [this] { finish(worker_.result()); });
}

SweepDialog::~SweepDialog() {
  cancelled_ = true;
  worker_.waitForFinished();
}

bool SweepDialog::running() const {
  return worker_.isRunning();
}

QList<QPointF> SweepDialog::plotPoints() const {
  return series_->points();
}

QString SweepDialog::statusText() const {
  return status_->text();
}

bool SweepDialog::start() {
  // Run is off from a start until finish() has taken that sweep's result on this thread (the
  // worker may be done before then): a sweep is in flight exactly while it is off.
  if (!run_->isEnabled()) return false;
  auto refuse = [this](const Error& error) {
    status_->setText(QString::fromStdString(error.message()));
    return false;
  };
  // The document as it is now: edits made while the sweep runs do not reach it.
  const Json document = document_.json();
  std::vector<runtime::SweepParameter> parameters;
  for (const QString& line : sets_->toPlainText().split('\n', Qt::SkipEmptyParts)) {
    if (line.trimmed().isEmpty()) continue;
    auto parameter = runtime::SweepPlan::parseSet(line.trimmed().toStdString(), document);
    if (!parameter) return refuse(parameter.error());
    parameters.push_back(std::move(*parameter));
  }
  auto plan = runtime::SweepPlan::make(std::move(parameters));
  if (!plan) return refuse(plan.error());
  std::optional<nlohmann::json> inputs;
  const std::string inputsName = inputs_->text().trimmed().toStdString();
  if (!inputsName.empty()) {
    auto read = runtime::readInputsFile(inputsName);
    if (!read) return refuse(read.error());
    inputs = std::move(*read);
  }
  auto shared = std::make_shared<const runtime::SweepPlan>(std::move(*plan));
  runtime::SweepOptions options;
  options.ticks = std::uint64_t(ticks_->value());
  options.sceneName =
      document_.filePath().isEmpty() ? std::string("untitled") : document_.filePath().toStdString();
  options.sceneDir = document_.sceneFolder();
  options.jobs = unsigned(jobs_->value());
  options.runs = {0, shared->runCount()};
  options.inputsName = inputsName;
  options.cancel = &cancelled_;

  header_.clear();
  parameters_ = int(shared->parameters().size());
  rows_.clear();
  csv_.clear();
  series_->clear();
  cancelled_ = false;
  progress_->setRange(0, int(std::min<std::uint64_t>(shared->runCount(), 1u << 30)));
  progress_->setValue(0);
  status_->setText(tr("Running %n run(s)...", "", int(shared->runCount())));
  run_->setEnabled(false);
  cancel_->setEnabled(true);
  save_->setEnabled(false);
  worker_.setFuture(QtConcurrent::run(
      [this, plan = shared, document, options, inputs = std::move(inputs)]() mutable {
        if (inputs) options.inputs = &*inputs;
        // Rows and progress reach the dialog as queued calls: they run on the UI thread, and are
        // dropped if the dialog is gone.
        options.progress = [this](std::uint64_t done, std::uint64_t total) {
          QMetaObject::invokeMethod(
              this, [this, done, total] { setProgress(done, total); }, Qt::QueuedConnection);
        };
        runtime::SweepCsvWriter writer(*plan, true);
        return runtime::runSweep(
            *plan, document, options, [&](const runtime::SweepRow& row) -> Expected<void> {
              auto text = writer.text(row);
              if (!text) return text.error();
              QMetaObject::invokeMethod(
                  this, [this, line = QString::fromStdString(*text)] { addRows(line); },
                  Qt::QueuedConnection);
              return {};
            });
      }));
  return true;
}

void SweepDialog::cancel() {
  cancelled_ = true;
  if (running()) status_->setText(tr("Cancelling..."));
}

void SweepDialog::done(int result) {
  if (running()) {
    cancel();
    // Runs under way stop at their next tick; their rows and progress reach the dialog as
    // queued calls, so waiting here cannot block the worker.
    worker_.waitForFinished();
  }
  QDialog::done(result);
}

void SweepDialog::setProgress(qulonglong done, qulonglong total) {
  progress_->setValue(int(std::min<qulonglong>(done, qulonglong(progress_->maximum()))));
  progress_->setFormat(QStringLiteral("%1 / %2").arg(done).arg(total));
}

void SweepDialog::addRows(const QString& text) {
  csv_ += text;
  for (const QString& line : text.split('\n', Qt::SkipEmptyParts)) {
    const QStringList fields = csvFields(line);
    if (header_.isEmpty()) {
      header_ = fields;
      refillColumns();
      continue;
    }
    std::vector<double> row;
    for (const QString& field : fields) {
      bool ok = false;
      const double value = field.toDouble(&ok);
      row.push_back(ok ? value : std::numeric_limits<double>::quiet_NaN());
    }
    rows_.push_back(std::move(row));
  }
  replot();
}

void SweepDialog::refillColumns() {
  const QSignalBlocker quietX(x_), quietY(y_);
  x_->clear();
  y_->clear();
  // Columns: run, the swept values, the nodes' outputs, hash, step_ms.
  for (int c = 1; c <= parameters_ && c < header_.size(); ++c) x_->addItem(header_[c], c);
  for (int c = parameters_ + 1; c < header_.size(); ++c) {
    if (header_[c] != "hash") y_->addItem(header_[c], c);
  }
}

void SweepDialog::replot() {
  const int xColumn = x_->currentData().toInt();
  const int yColumn = y_->currentData().toInt();
  QList<QPointF> points;
  for (const std::vector<double>& row : rows_) {
    if (xColumn <= 0 || yColumn <= 0 || std::size_t(std::max(xColumn, yColumn)) >= row.size())
      continue;
    const double x = row[std::size_t(xColumn)], y = row[std::size_t(yColumn)];
    if (std::isfinite(x) && std::isfinite(y)) points << QPointF(x, y);
  }
  std::stable_sort(points.begin(), points.end(),
                   [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
  series_->replace(points);
  xAxis_->setTitleText(x_->currentText());
  yAxis_->setTitleText(y_->currentText());
  if (points.isEmpty()) return;
  auto [minX, maxX] = std::minmax_element(points.begin(), points.end(),
                                          [](auto& a, auto& b) { return a.x() < b.x(); });
  auto [minY, maxY] = std::minmax_element(points.begin(), points.end(),
                                          [](auto& a, auto& b) { return a.y() < b.y(); });
  // A flat range gets some room, so the axis stays readable.
  const double padX = std::max(1e-9, 0.05 * (maxX->x() - minX->x()));
  const double padY = std::max(1e-9, 0.05 * (maxY->y() - minY->y()));
  xAxis_->setRange(minX->x() - padX, maxX->x() + padX);
  yAxis_->setRange(minY->y() - padY, maxY->y() + padY);
}

void SweepDialog::finish(const Expected<void>& result) {
  run_->setEnabled(true);
  cancel_->setEnabled(false);
  save_->setEnabled(!csv_.isEmpty());
  if (!result) {
    status_->setText(result.error().what == runtime::kSweepCancelled
                         ? tr("Cancelled after %n run(s)", "", rowCount())
                         : QString::fromStdString(result.error().message()));
  } else {
    status_->setText(tr("Done: %n run(s)", "", rowCount()));
  }
  emit sweepFinished(result.ok());
}

void SweepDialog::saveCsv() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save sweep"), {}, tr("CSV (*.csv);;All files (*)"));
  if (path.isEmpty()) return;
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
      file.write(csv_.toUtf8()) != csv_.toUtf8().size()) {
    status_->setText(tr("%1: cannot write the file").arg(path));
    return;
  }
  status_->setText(tr("Saved %1").arg(path));
}

}  // namespace floptle::editor
