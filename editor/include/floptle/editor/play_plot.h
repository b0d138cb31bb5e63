#pragma once
// PlayPlot: a small live plot of the player's speed (m/s) and height (m) during play: two
// rolling polylines over the last kCapacity samples (one per frame that ran ticks), each
// scaled to its own range, drawn over a translucent panel.
#include <deque>

#include <QWidget>

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

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::deque<double> speeds_;
  std::deque<double> heights_;
};

}  // namespace floptle::editor
