#pragma once
// The Drift sandbox (seed 003): one circular boat, at most kMaxRipples ripples, a serial,
// allocation-free fixed 60 Hz tick. It owns boat state, tuning, ripple lifetime, once-only
// contact flags, placement input and cooldown, pause/hide/retry and the speed cap; the
// numerics come from the kernels (linear_drag.h, expanding_band.h).
//
// Tick pipeline (tick(), one stage per private function):
//  1. consume queued placements due at this tick; check cooldown and capacity;
//  2. save the previous state; integrate the exact drag/current endpoint;
//  3. sweep the hull (chord between the drag endpoints, linear in tick time) against each
//     ripple's band, clipped to the ripple's remaining lifetime; collect first contacts;
//  4. order contacts by fraction then ripple id; consume each once as an attenuated radial
//     impulse; enforce the speed cap (impulses act at tick end: displacement responds next tick);
//  5. commit motion and heading, age and expire ripples, count, trace.
//
// Frame timing goes through FixedStepClock (100 ms clamp, at most 4 ticks per frame, whole
// excess ticks discarded and counted, fractional debt kept). Pause, hiding and retry clear
// pending commands and debt and reset interpolation. Commands queued in a frame that runs no
// tick wait for the next tick and are consumed exactly once.
//
// Same tuning and the same commands at the same ticks give the same state on a given build.

#include <cstdint>

#include "floptle/core/fixed_step_clock.h"
#include "floptle/drift/event_trace.h"
#include "floptle/drift/linear_drag.h"
#include "floptle/drift/snapshot.h"
#include "floptle/drift/tuning.h"

namespace floptle::drift {

struct Counters {
  /// Ticks simulated (-). Kept across retry.
  std::uint64_t ticks = 0;
  /// Accepted placements, i.e. ripples made (-).
  std::uint64_t placements = 0;
  /// Placements refused for cooldown or capacity (-).
  std::uint64_t rejectedPlacements = 0;
  /// Ripple contacts consumed (-).
  std::uint64_t contacts = 0;
  /// Whole ticks the frame clock dropped (-).
  std::uint64_t discardedTicks = 0;
};

struct Ripple {
  /// Monotonic id, from 1 (-).
  std::uint64_t id = 0;
  /// Ring centre (m).
  Vec2d centre{};
  /// Tick at which it was placed (-): its age at the start of tick n is (n - bornTick) dt.
  std::uint64_t bornTick = 0;
  /// Once-only: set when it has pushed the boat.
  bool contacted = false;
};

struct Boat {
  /// Centre (m), velocity (m/s), heading about +Y from +Z toward +X (rad).
  Vec2d position{};
  Vec2d velocity{};
  double heading = 0.0;
};

class Sandbox {
 public:
  /// Default tuning, boat at rest at the origin.
  Sandbox() noexcept;

  /// Installs `tuning` and `start` after validating both, and restarts from tick 0 with fresh
  /// counters and an empty trace. On an issue nothing changes.
  TuningIssue restart(const Tuning& tuning, const BoatStart& start) noexcept;
  /// Installs `tuning` live (e.g. from the inspector) after validating it as a whole, and
  /// traces the change. On an issue the old tuning stays.
  TuningIssue setTuning(const Tuning& tuning) noexcept;

  /// Queues a placement at `position` (m) for the next tick. False when the queue is full or
  /// while paused or hidden (then the click is dropped).
  bool queuePlacement(Vec2d position) noexcept;
  /// Queues a placement for tick `tick` (replay data; consumed by the first tick >= `tick`).
  bool schedulePlacement(std::uint64_t tick, Vec2d position) noexcept;

  /// Runs one fixed tick (kTickSeconds) of the pipeline, regardless of the frame clock.
  void tick() noexcept;
  /// Feeds one frame's elapsed time (s) to the clock and runs the ticks it grants (0..4).
  int advanceFrame(double frameDelta) noexcept;
  /// advanceFrame's clock half: feeds the frame's time to the clock and returns the ticks it
  /// grants (0..4) without running them; the caller runs exactly that many tick()s (a
  /// recording player gives each tick its recorded commands first).
  int admitFrame(double frameDelta) noexcept;

  /// Pause / hide stop time: pending commands and debt are cleared, interpolation is reset.
  void setPaused(bool paused) noexcept;
  void setHidden(bool hidden) noexcept;
  bool paused() const noexcept { return paused_; }
  bool hidden() const noexcept { return hidden_; }
  /// Restarts from the authored start state at tick 0: clears ripples, commands, debt and
  /// interpolation, and traces a retry. Counters and tuning are kept.
  void retry() noexcept;

  /// Ticks completed since the (re)start (-).
  std::uint64_t tickIndex() const noexcept { return tick_; }
  const Tuning& tuning() const noexcept { return tuning_; }
  const BoatStart& start() const noexcept { return start_; }
  const Boat& boat() const noexcept { return boat_; }
  int rippleCount() const noexcept { return rippleCount_; }
  /// The i-th live ripple, ordered by id. Requires 0 <= i < rippleCount().
  const Ripple& ripple(int i) const noexcept { return ripples_[i]; }
  int queuedPlacements() const noexcept { return queuedCount_; }
  const Counters& counters() const noexcept { return counters_; }
  const EventTrace& trace() const noexcept { return trace_; }
  void clearTrace() noexcept { trace_.clear(); }
  const FixedStepClock& clock() const noexcept { return clock_; }

  /// Interpolated view between the previous and current tick at the clock's alpha.
  Snapshot snapshot() const noexcept;
  /// Stable 64-bit hash of the simulation state, over explicit fields (never object bytes):
  /// tick, boat, cooldown, ripples and pending commands. Counters are diagnostics and are not
  /// hashed (they survive retry). Same state on the same build -> same hash.
  std::uint64_t stateHash() const noexcept;

 private:
  struct PlacementCommand {
    std::uint64_t tick = 0;
    Vec2d position{};
  };
  struct Contact {
    double fraction = 0.0;  // (-)
    std::uint64_t ripple = 0;
    int slot = 0;
    Vec2d point{};     // (m)
    Vec2d normal{};    // (-)
    double age = 0.0;  // Ripple age at the contact (s).
  };

  void installTuning(const Tuning& tuning) noexcept;
  void stopTime() noexcept;
  void consumePlacements() noexcept;                                              // Stage 1.
  void integrateDrag(Vec2d& endPosition, Vec2d& endVelocity) noexcept;            // Stage 2.
  int collectContacts(Vec2d endPosition, Contact* contacts) const noexcept;       // Stage 3.
  void applyContacts(Contact* contacts, int count, Vec2d& endVelocity) noexcept;  // Stage 4.
  void commit(Vec2d endPosition, Vec2d endVelocity) noexcept;                     // Stage 5.
  double rippleAgeTicks(const Ripple& ripple) const noexcept;

  Tuning tuning_{};
  BoatStart start_{};
  // Cached from the tuning at installation.
  DragCoefficients drag_{};
  double contactHalfWidth_ = 0.0;  // rippleHalfWidth + boatRadius (m).
  double lifetimeTicks_ = 0.0;     // rippleLifetime / dt (-).
  std::uint64_t cooldownTicks_ = 0;

  Boat boat_{};
  Boat previous_{};  // State at the start of the last tick, for interpolation.
  bool interpolate_ = false;
  std::uint64_t tick_ = 0;
  std::uint64_t nextRippleId_ = 1;
  std::uint64_t nextPlacementTick_ = 0;  // Cooldown: first tick a placement is accepted.
  Ripple ripples_[kMaxRipples];
  int rippleCount_ = 0;
  PlacementCommand queue_[kMaxQueuedPlacements];  // Ordered by tick, then arrival.
  int queuedCount_ = 0;
  bool hasContact_ = false;
  Event lastContact_{};
  bool paused_ = false;
  bool hidden_ = false;
  FixedStepClock clock_{};
  Counters counters_{};
  EventTrace trace_{};
};

}  // namespace floptle::drift
