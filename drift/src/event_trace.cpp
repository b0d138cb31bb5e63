#include "floptle/drift/event_trace.h"

namespace floptle::drift {

void EventTrace::push(const Event& event) noexcept {
  if (count_ == kCapacity) {
    events_[first_] = event;  // Overwrite the oldest.
    first_ = (first_ + 1) % kCapacity;
    ++dropped_;
    return;
  }
  events_[(first_ + count_) % kCapacity] = event;
  ++count_;
}

const Event& EventTrace::operator[](int i) const noexcept {
  return events_[(first_ + i) % kCapacity];
}

const char* eventKindName(EventKind kind) noexcept {
  switch (kind) {
    case EventKind::placement:
      return "placement";
    case EventKind::rejectedPlacement:
      return "rejected";
    case EventKind::contact:
      return "contact";
    case EventKind::expiry:
      return "expiry";
    case EventKind::retry:
      return "retry";
    case EventKind::tuningChange:
      return "tuning";
  }
  return "unknown";
}

const char* rejectReasonName(RejectReason reason) noexcept {
  switch (reason) {
    case RejectReason::none:
      return "none";
    case RejectReason::cooldown:
      return "cooldown";
    case RejectReason::capacity:
      return "capacity";
  }
  return "unknown";
}

}  // namespace floptle::drift
