#pragma once
// SweepDialog (Tools > Sweep...): `floptle sweep` on this machine, for the document as it is
// when Run is pressed. The same plan, runs and rows as the command (runtime::SweepPlan,
// runSweep, SweepCsvWriter): one `POINTER=VALUES` per line of the form (a range
// "start:step:stop" or a list "a,b,c"), the ticks of each run, an optional inputs file and the
// worker threads. The sweep runs off the UI thread with a progress bar and Cancel (no run
// starts after it, runs under way stop at their next tick); the rows done are kept, can be
// saved as the command's CSV, and are plotted (Qt Charts): a chosen output column against a
// chosen swept value. Closing the dialog (its close button, Escape, or the editor's window
// closing) cancels a sweep under way and waits for its worker: no run outlives the dialog's
// window.
#include <atomic>
#include <memory>
#include <vector>

#include <QDialog>
#include <QFutureWatcher>
#include <QList>
#include <QPointF>
#include <QStringList>

#include "floptle/core/expected.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QLineSeries;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QChartView;
class QValueAxis;

namespace floptle::editor {

class EditorDocument;

class SweepDialog : public QDialog {
  Q_OBJECT

 public:
  /// Does not own `document`; the document must outlive the dialog.
  explicit SweepDialog(EditorDocument& document, QWidget* parent = nullptr);
  /// Cancels a sweep under way and waits for its runs to stop.
  ~SweepDialog() override;

  /// Reads the form and starts the sweep (Run); false, with the error in the status line, when
  /// an argument is refused; false, changing nothing, while a sweep is under way or its result
  /// has not yet been taken (sweepFinished not yet emitted).
  bool start();
  /// Stops the sweep (Cancel): no run starts after this.
  void cancel();
  /// Closing: a sweep under way is cancelled and its worker joined before the dialog hides.
  void done(int result) override;
  bool running() const;
  /// The CSV of the rows done, as `floptle sweep` writes it (header line first).
  QString csv() const { return csv_; }
  /// The rows done (-).
  int rowCount() const { return int(rows_.size()); }
  /// The status line: the error of a refused or failed sweep, "cancelled", or a summary.
  QString statusText() const;
  /// The plotted points, by increasing x (x: the chosen swept value, y: the chosen output
  /// column).
  QList<QPointF> plotPoints() const;

 signals:
  /// The sweep ended: all rows done (ok), or failed or cancelled (the status says which).
  void sweepFinished(bool ok);

 private:
  void addRows(const QString& text);
  void setProgress(qulonglong done, qulonglong total);
  void finish(const Expected<void>& result);
  void refillColumns();
  void replot();
  void saveCsv();

  EditorDocument& document_;
  QPlainTextEdit* sets_ = nullptr;
  QSpinBox* ticks_ = nullptr;
  QLineEdit* inputs_ = nullptr;
  QSpinBox* jobs_ = nullptr;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QPushButton* save_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QComboBox* x_ = nullptr;
  QComboBox* y_ = nullptr;
  QChartView* chart_ = nullptr;
  QLineSeries* series_ = nullptr;
  QValueAxis* xAxis_ = nullptr;
  QValueAxis* yAxis_ = nullptr;

  /// The header's columns and the parameters' count (columns 1..parameters are the values).
  QStringList header_;
  int parameters_ = 0;
  /// Each row's cells as numbers (NaN where a cell is not one), in run order.
  std::vector<std::vector<double>> rows_;
  QString csv_;
  std::atomic<bool> cancelled_{false};
  QFutureWatcher<Expected<void>> worker_;
};

}  // namespace floptle::editor
