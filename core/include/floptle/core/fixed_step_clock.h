#pragma once
// FixedStepClock: turns variable frame deltas into a whole number of fixed simulation ticks
// (seed 003, "Timing and numerical model"):
//  - a frame delta is clamped to maxFrameDelta (100 ms by default);
//  - at most maxTicksPerFrame ticks run per frame (4 by default); the remaining *whole* ticks
//    are discarded and counted, the fractional debt is kept;
//  - alpha = debt / fixedDt in [0, 1) interpolates the render between the last two states;
//  - pause and reset clear the debt and pending ticks, and reset interpolation (alpha = 0).
#include <cstdint>

namespace floptle {

class FixedStepClock {
 public:
  struct Settings {
    /// Simulation step (s), > 0.
    double fixedDt = 1.0 / 60.0;
    /// Longest frame delta taken into account (s); longer frames are clamped.
    double maxFrameDelta = 0.1;
    /// Most ticks one frame may run (-), >= 1.
    int maxTicksPerFrame = 4;
  };

  FixedStepClock() = default;
  explicit FixedStepClock(Settings settings);

  /// Adds one frame's elapsed time (s) and returns how many ticks to run now
  /// (0..maxTicksPerFrame). Negative or non-finite deltas count as 0. While paused: 0.
  int advance(double frameDelta);

  /// Interpolation factor between the previous and the current tick's state, in [0, 1).
  double alpha() const { return debt_ / settings_.fixedDt; }
  /// Fractional time carried to the next frame (s), in [0, fixedDt).
  double debt() const { return debt_; }
  /// Whole ticks dropped because a frame needed more than maxTicksPerFrame (-).
  std::uint64_t discardedTicks() const { return discarded_; }
  /// Ticks handed out by advance() since construction (-).
  std::uint64_t ticksIssued() const { return issued_; }

  /// Stops time: clears debt (and so alpha); advance() returns 0 until resume().
  void pause();
  void resume();
  bool paused() const { return paused_; }
  /// Clears debt and interpolation (e.g. hidden window, retry). Counters are kept.
  void reset();

  const Settings& settings() const { return settings_; }
  double fixedDt() const { return settings_.fixedDt; }

 private:
  Settings settings_{};
  double debt_ = 0.0;
  std::uint64_t discarded_ = 0;
  std::uint64_t issued_ = 0;
  bool paused_ = false;
};

}  // namespace floptle
