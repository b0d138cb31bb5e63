// The Drift tick pipeline (seed 003, "Tick pipeline"), one function per stage.
#include <cmath>

#include "floptle/drift/expanding_band.h"
#include "floptle/drift/sandbox.h"

namespace floptle::drift {

namespace {

// Below this speed (m/s) the heading keeps its last value: a boat at rest has no direction.
constexpr double kHeadingMinSpeed = 1e-9;

}  // namespace

void Sandbox::tick() noexcept {
  consumePlacements();
  Vec2d endPosition;
  Vec2d endVelocity;
  integrateDrag(endPosition, endVelocity);
  Contact contacts[kMaxRipples];
  const int contactCount = collectContacts(endPosition, contacts);
  applyContacts(contacts, contactCount, endVelocity);
  commit(endPosition, endVelocity);
}

// Stage 1: placements due at this tick, in queue order; each is consumed exactly once,
// accepted (a ripple is born) or refused (cooldown, capacity).
void Sandbox::consumePlacements() noexcept {
  int kept = 0;
  for (int i = 0; i < queuedCount_; ++i) {
    const PlacementCommand command = queue_[i];
    if (command.tick > tick_) {
      queue_[kept++] = command;
      continue;
    }
    Event event;
    event.tick = tick_;
    event.position = command.position;
    if (tick_ < nextPlacementTick_) {
      event.kind = EventKind::rejectedPlacement;
      event.reason = RejectReason::cooldown;
      ++counters_.rejectedPlacements;
    } else if (rippleCount_ == kMaxRipples) {
      event.kind = EventKind::rejectedPlacement;
      event.reason = RejectReason::capacity;
      ++counters_.rejectedPlacements;
    } else {
      Ripple& ripple = ripples_[rippleCount_++];  // Ids grow, so the array stays id-ordered.
      ripple.id = nextRippleId_++;
      ripple.centre = command.position;
      ripple.bornTick = tick_;
      ripple.contacted = false;
      nextPlacementTick_ = tick_ + cooldownTicks_;
      event.kind = EventKind::placement;
      event.ripple = ripple.id;
      ++counters_.placements;
    }
    trace_.push(event);
  }
  queuedCount_ = kept;
}

// Stage 2: remember the start of the tick for interpolation; exact drag/current endpoint.
void Sandbox::integrateDrag(Vec2d& endPosition, Vec2d& endVelocity) noexcept {
  previous_ = boat_;
  endPosition = boat_.position;
  endVelocity = boat_.velocity;
  // On failure (only possible for a state that has overflowed) the boat holds still.
  advanceDrag(drag_, tuning_.waterVelocity, boat_.position, boat_.velocity, endPosition,
              endVelocity);
}

// Stage 3: the hull centre sweeps the chord between the drag endpoints, linearly in tick time.
// Each ripple that has not pushed yet is swept over the part of the tick it is alive for.
int Sandbox::collectContacts(Vec2d endPosition, Contact* contacts) const noexcept {
  int count = 0;
  const Vec2d start = boat_.position;
  for (int slot = 0; slot < rippleCount_; ++slot) {
    const Ripple& ripple = ripples_[slot];
    if (ripple.contacted) continue;
    const double ageTicks = rippleAgeTicks(ripple);          // At tick start (-).
    const double aliveFraction = lifetimeTicks_ - ageTicks;  // Of this tick (-).
    if (aliveFraction <= 0.0) continue;
    const double clip = aliveFraction < 1.0 ? aliveFraction : 1.0;

    ExpandingBand band;
    band.centre = ripple.centre;
    // Validation keeps the radius >= 0 over the lifetime; clamp away rounding below zero.
    band.startRadius =
        std::fmax(0.0, tuning_.rippleStartRadius + tuning_.rippleGrowth * ageTicks * kTickSeconds);
    band.growth = tuning_.rippleGrowth * kTickSeconds * clip;
    band.halfWidth = contactHalfWidth_;
    LinearSweep sweep{start, clip < 1.0 ? start + (endPosition - start) * clip : endPosition};

    BandContact hit;
    if (sweepExpandingBand(band, sweep, hit) != BandSweepStatus::hit) continue;
    Contact& contact = contacts[count++];
    contact.fraction = hit.fraction * clip;
    contact.ripple = ripple.id;
    contact.slot = slot;
    contact.point = hit.point;
    contact.normal = hit.normal;
    contact.age = (ageTicks + contact.fraction) * kTickSeconds;
  }
  return count;
}

// Stage 4: contacts in order of fraction, then ripple id (stable insertion sort over at most
// kMaxRipples records); each ripple pushes once, radially, attenuated by its age. The impulses
// act at tick end, then the speed cap holds.
void Sandbox::applyContacts(Contact* contacts, int count, Vec2d& endVelocity) noexcept {
  for (int i = 1; i < count; ++i) {
    const Contact key = contacts[i];
    int j = i;
    while (j > 0 &&
           (contacts[j - 1].fraction > key.fraction ||
            (contacts[j - 1].fraction == key.fraction && contacts[j - 1].ripple > key.ripple))) {
      contacts[j] = contacts[j - 1];
      --j;
    }
    contacts[j] = key;
  }
  for (int i = 0; i < count; ++i) {
    const Contact& contact = contacts[i];
    ripples_[contact.slot].contacted = true;
    const bool hasDirection = contact.normal.x != 0.0 || contact.normal.z != 0.0;
    const double impulse =
        hasDirection ? tuning_.rippleImpulse * std::exp(-tuning_.rippleAttenuation * contact.age)
                     : 0.0;  // A coincident centre gives no direction and no impulse.
    endVelocity = endVelocity + contact.normal * impulse;
    ++counters_.contacts;

    Event event;
    event.tick = tick_;
    event.kind = EventKind::contact;
    event.ripple = contact.ripple;
    event.fraction = contact.fraction;
    event.position = contact.point;
    event.normal = contact.normal;
    event.impulse = impulse;
    trace_.push(event);
    hasContact_ = true;
    lastContact_ = event;
  }
  const double speed = length(endVelocity);
  if (speed > tuning_.speedCap) endVelocity = endVelocity * (tuning_.speedCap / speed);
}

// Stage 5: commit motion and heading, expire ripples at the end of their lifetime, count.
void Sandbox::commit(Vec2d endPosition, Vec2d endVelocity) noexcept {
  boat_.position = endPosition;
  boat_.velocity = endVelocity;
  if (length(endVelocity) > kHeadingMinSpeed) {
    boat_.heading = std::atan2(endVelocity.x, endVelocity.z);
  }

  int kept = 0;
  for (int slot = 0; slot < rippleCount_; ++slot) {
    const Ripple& ripple = ripples_[slot];
    if (rippleAgeTicks(ripple) + 1.0 >= lifetimeTicks_) {
      Event event;
      event.tick = tick_;
      event.kind = EventKind::expiry;
      event.ripple = ripple.id;
      event.position = ripple.centre;
      trace_.push(event);
      continue;
    }
    ripples_[kept++] = ripple;  // Stable: the array stays ordered by id.
  }
  rippleCount_ = kept;

  ++tick_;
  ++counters_.ticks;
  interpolate_ = true;
}

}  // namespace floptle::drift
