// Read-only outputs of the sandbox: the interpolated float snapshot and the state hash.
#include <cstring>

#include "floptle/drift/sandbox.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace floptle::drift {

namespace {

float narrow(double value) noexcept {
  return static_cast<float>(value);
}

double lerp(double a, double b, double t) noexcept {
  return a + (b - a) * t;
}

// Explicit little-endian field encoding for the hash: independent of struct layout and padding.
class HashWriter {
 public:
  void u64(std::uint64_t value) noexcept {
    for (int i = 0; i < 8; ++i) bytes_[size_++] = static_cast<unsigned char>(value >> (8 * i));
  }
  void f64(double value) noexcept {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    u64(bits);
  }
  void vec(Vec2d v) noexcept {
    f64(v.x);
    f64(v.z);
  }
  std::uint64_t digest() const noexcept { return XXH3_64bits(bytes_, size_); }

 private:
  // Header and boat (~12 words) + ripples (6 words each) + queue (3 words each).
  static constexpr int kCapacity = 8 * (24 + 6 * kMaxRipples + 3 * kMaxQueuedPlacements);
  unsigned char bytes_[kCapacity];
  int size_ = 0;
};

}  // namespace

Snapshot Sandbox::snapshot() const noexcept {
  Snapshot view;
  const double alpha = interpolate_ ? clock_.alpha() : 0.0;
  const Boat& from = interpolate_ ? previous_ : boat_;
  view.tick = tick_;
  view.alpha = narrow(alpha);
  view.boatX = narrow(lerp(from.position.x, boat_.position.x, alpha));
  view.boatZ = narrow(lerp(from.position.z, boat_.position.z, alpha));
  view.velocityX = narrow(lerp(from.velocity.x, boat_.velocity.x, alpha));
  view.velocityZ = narrow(lerp(from.velocity.z, boat_.velocity.z, alpha));
  view.heading = narrow(boat_.heading);
  view.boatRadius = narrow(tuning_.boatRadius);
  view.waterVelocityX = narrow(tuning_.waterVelocity.x);
  view.waterVelocityZ = narrow(tuning_.waterVelocity.z);
  if (hasContact_) {
    view.hasContact = true;
    view.contactTick = lastContact_.tick;
    view.contactRipple = lastContact_.ripple;
    view.contactFraction = narrow(lastContact_.fraction);
    view.contactNormalX = narrow(lastContact_.normal.x);
    view.contactNormalZ = narrow(lastContact_.normal.z);
  }
  // Ripple ages at the interpolated time: one tick back plus alpha while interpolating.
  const double backTicks = interpolate_ ? 1.0 - alpha : 0.0;
  for (int i = 0; i < rippleCount_; ++i) {
    const Ripple& ripple = ripples_[i];
    double age = (rippleAgeTicks(ripple) - backTicks) * kTickSeconds;
    if (age < 0.0) age = 0.0;
    RippleView& out = view.ripples[i];
    out.id = ripple.id;
    out.centreX = narrow(ripple.centre.x);
    out.centreZ = narrow(ripple.centre.z);
    out.radius = narrow(tuning_.rippleStartRadius + tuning_.rippleGrowth * age);
    out.halfWidth = narrow(tuning_.rippleHalfWidth);
    out.age = narrow(age);
    out.lifetime = narrow(tuning_.rippleLifetime);
    out.contacted = ripple.contacted;
  }
  view.rippleCount = rippleCount_;
  return view;
}

std::uint64_t Sandbox::stateHash() const noexcept {
  HashWriter w;
  w.u64(tick_);
  w.vec(boat_.position);
  w.vec(boat_.velocity);
  w.f64(boat_.heading);
  w.u64(nextRippleId_);
  w.u64(nextPlacementTick_);
  w.u64(static_cast<std::uint64_t>(rippleCount_));
  for (int i = 0; i < rippleCount_; ++i) {
    const Ripple& ripple = ripples_[i];
    w.u64(ripple.id);
    w.vec(ripple.centre);
    w.u64(ripple.bornTick);
    w.u64(ripple.contacted ? 1u : 0u);
  }
  w.u64(static_cast<std::uint64_t>(queuedCount_));
  for (int i = 0; i < queuedCount_; ++i) {
    w.u64(queue_[i].tick);
    w.vec(queue_[i].position);
  }
  return w.digest();
}

}  // namespace floptle::drift
