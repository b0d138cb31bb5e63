#pragma once
// The deterministic event trace of the Drift sandbox (seed 003, "Performance and debugging"):
// what happened at which tick, in the order the tick pipeline decided it. A fixed-capacity ring
// (no allocation); when full the oldest events are dropped and counted.

#include <cstdint>

#include "floptle/drift/vec2d.h"

namespace floptle::drift {

enum class EventKind : unsigned char {
  /// A placement was accepted: a ripple was born at `position`.
  placement,
  /// A placement was refused (`reason`); no ripple was made.
  rejectedPlacement,
  /// A ripple's band touched the hull: `fraction`, `normal`, `impulse` are set.
  contact,
  /// A ripple reached the end of its lifetime and was removed.
  expiry,
  /// The run was restarted from the authored start state.
  retry,
  /// A new tuning was installed (before this tick's pipeline).
  tuningChange,
};

enum class RejectReason : unsigned char { none, cooldown, capacity };

struct Event {
  /// Tick during which it happened (-): the number of ticks completed before it.
  std::uint64_t tick = 0;
  EventKind kind = EventKind::placement;
  RejectReason reason = RejectReason::none;
  /// Ripple id (placement, contact, expiry); 0 otherwise. Ids are monotonic from 1.
  std::uint64_t ripple = 0;
  /// Contact parameter within the tick (-), in [0, 1].
  double fraction = 0.0;
  /// Placement position, or boat centre at contact (m).
  Vec2d position{};
  /// Contact normal: unit radial direction from ring centre to hull centre, or zero (-).
  Vec2d normal{};
  /// Speed change applied along the normal (m/s), before the speed cap.
  double impulse = 0.0;
};

class EventTrace {
 public:
  static constexpr int kCapacity = 512;

  void push(const Event& event) noexcept;
  /// Events held, oldest first (-).
  int size() const noexcept { return count_; }
  /// The i-th held event, 0 = oldest. Requires 0 <= i < size().
  const Event& operator[](int i) const noexcept;
  void clear() noexcept {
    count_ = 0;
    first_ = 0;
  }
  /// Events overwritten because the ring was full (-).
  std::uint64_t dropped() const noexcept { return dropped_; }

 private:
  Event events_[kCapacity];
  int first_ = 0;
  int count_ = 0;
  std::uint64_t dropped_ = 0;
};

/// Stable lower-case name of an event kind as written in traces ("contact").
const char* eventKindName(EventKind kind) noexcept;
/// Stable lower-case name of a reject reason ("cooldown").
const char* rejectReasonName(RejectReason reason) noexcept;

}  // namespace floptle::drift
