#pragma once
// Progress of a long CLI job, as lines on stderr: "bake:  40% sampling bricks". A line each
// time the stage changes or the fraction passes another tenth, and one at 100%: a job
// reporting every percent (Assimp's reading does) would otherwise fill a log with a hundred
// lines saying nothing new.
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace floptle::cli {

class ProgressLines {
 public:
  explicit ProgressLines(std::string prefix) : prefix_(std::move(prefix)) {}

  /// fraction in [0, 1] (clamped; NaN as 0), stage in words.
  void operator()(float fraction, std::string_view stage) {
    const float f = std::isnan(fraction) ? 0.0f : std::fmin(std::fmax(fraction, 0.0f), 1.0f);
    const int percent = static_cast<int>(std::lround(f * 100.0f));
    const int tenth = percent / 10;
    if (stage == stage_ && tenth == tenth_ && percent != 100) return;
    if (stage == stage_ && percent == percent_) return;
    stage_ = std::string(stage);
    tenth_ = tenth;
    percent_ = percent;
    std::fprintf(stderr, "%s: %3d%% %.*s\n", prefix_.c_str(), percent,
                 static_cast<int>(stage.size()), stage.data());
  }

 private:
  std::string prefix_;
  std::string stage_;
  int tenth_ = -1, percent_ = -1;
};

}  // namespace floptle::cli
