// The kinematic capsule character: one fixed step as named stages (see the header).
#include "floptle/physics/character_controller.h"

#include <cmath>

#include <glm/gtx/quaternion.hpp>

namespace floptle::physics {
namespace {

/// Air control: how fast the horizontal velocity turns towards the input while airborne,
/// as a multiple of the walking speed per second (1/s).
constexpr float kAirControl = 2.0f;

Vec3 horizontalPart(Vec3 v, Vec3 up) {
  return v - up * glm::dot(v, up);
}

}  // namespace

CharacterController::CharacterController(const CharacterDesc& desc) : desc_(desc) {
  state_.position = desc.position;
}

void CharacterController::placeOnGround(const CollisionWorld& world, double t, Vec3 gravity) {
  orient(gravity);
  feet(world, t, state_.up, true, false);
}

void CharacterController::orient(Vec3 gravity, float fraction) {
  const float g = glm::length(gravity);
  if (!(g > 1e-6f) || !std::isfinite(g) || !(fraction > 0.0f)) return;  // keep the last up
  const Vec3 target = -gravity / g;
  if (target == state_.up) return;
  // The smallest rotation taking the old up towards the new one (all of it, or the fraction
  // of its angle) turns up and carries the forward along (parallel transport); then forward
  // is made exactly perpendicular to the new up again.
  Quat turn = glm::rotation(state_.up, target);
  if (fraction < 1.0f) turn = glm::slerp(Quat(1.0f, 0.0f, 0.0f, 0.0f), turn, fraction);
  const Vec3 up = fraction < 1.0f ? glm::normalize(turn * state_.up) : target;
  Vec3 f = turn * state_.forward;
  f -= up * glm::dot(f, up);
  const float len = glm::length(f);
  if (len > 1e-6f) {
    state_.forward = f / len;
  } else {
    // Up turned onto the old forward's line (a half turn): any perpendicular will do.
    const Vec3 helper = std::fabs(up.x) < 0.57f ? Vec3(1, 0, 0) : Vec3(0, 0, 1);
    state_.forward = glm::normalize(glm::cross(helper, up));
  }
  state_.up = up;
}

Vec3 CharacterController::moveDirection(Vec2 move) const {
  const Vec3 side = glm::cross(state_.up, state_.forward);
  return side * move.x + state_.forward * move.y;
}

Quat CharacterController::orientation() const {
  const Vec3 side = glm::cross(state_.up, state_.forward);
  return glm::normalize(glm::quat_cast(Mat3(side, state_.up, state_.forward)));
}

bool CharacterController::walkable(Vec3 normal, Vec3 up) const {
  return glm::dot(normal, up) >= std::cos(desc_.slopeLimit) - 1e-6f;
}

std::optional<Hit> CharacterController::sweepCapsule(const CollisionWorld& world, double t,
                                                     Vec3 centre, Vec3 motion, Vec3 up) {
  if (glm::dot(motion, motion) < 1e-14f) return std::nullopt;
  ++counters_.sweeps;
  auto hit = world.sweep(
      SweepShape::capsule(bottomCentre(centre, up), topCentre(centre, up), desc_.radius), motion,
      t);
  if (!hit.ok()) return std::nullopt;
  return hit.value();
}

void CharacterController::step(const CollisionWorld& world, double tEnd, float dt, Vec3 gravity,
                               CharacterInput& input) {
  counters_ = {};
  pushes_.clear();
  if (!(dt > 0.0f)) return;
  // Up eases towards -g at alignRate: the fraction of the remaining angle one step turns.
  orient(gravity, 1.0f - std::exp(-desc_.alignRate * dt));
  const Vec3 up = state_.up;
  const bool wasGrounded = state_.grounded != 0;
  bool leaving = false;
  Vec3 motion = applyInput(dt, gravity, up, input, leaving);
  motion += state_.surfaceVelocity * dt;

  Vec3 position = state_.position;
  const bool walking = wasGrounded && !leaving;
  if (walking) {
    // Lift the capsule just clear of the floor the feet stand on (its round bottom dips
    // into a slope by r (1/cos - 1)); the feet put it back down.
    const float cosGround = std::max(glm::dot(state_.groundNormal, up), 0.2f);
    // Only a ceiling can stop the lift: the top sphere is swept (the whole capsule would
    // start inside the very floor it is being lifted off, and report toi 0).
    // Only feet stand into a slope; a rounded bottom held by a rim is tangent to it.
    const float dip = state_.onFeet ? desc_.radius * (1.0f / cosGround - 1.0f) : 0.0f;
    const float lift = dip + kLiftClearance;
    ++counters_.sweeps;
    auto hit =
        world.sweep(SweepShape::sphere(topCentre(position, up), desc_.radius), up * lift, tEnd);
    const bool ceiling = hit.ok() && hit.value() && !hit.value()->inside;
    position += up * (ceiling ? std::max(0.0f, lift * hit.value()->toi - kSkin) : lift);
  }
  position = depenetrate(world, tEnd, position, up);
  position = moveAndSlide(world, tEnd, position, motion, up, walking);
  position = depenetrate(world, tEnd, position, up);
  state_.position = position;
  feet(world, tEnd, up, walking, leaving);
  if (wasGrounded && !state_.grounded) {
    // Leaving the ground keeps the ground's motion as momentum.
    state_.velocity += state_.surfaceVelocity;
    state_.surfaceVelocity = Vec3(0.0f);
  }
}

Vec3 CharacterController::applyInput(float dt, Vec3 gravity, Vec3 up, CharacterInput& input,
                                     bool& leaving) {
  Vec2 move = input.move;
  const float len = glm::length(move);
  if (!(len <= 1.0f)) move = len > 0.0f && std::isfinite(len) ? move / len : Vec2(0.0f);
  const Vec3 desired = horizontalPart(moveDirection(move), up) * desc_.speed;
  const bool jump = input.jump;
  input.jump = false;  // an edge: consumed once, grounded or not

  if (state_.grounded) {
    // Walk on the floor plane with the input's horizontal direction at the walking speed.
    const Vec3 n = state_.groundNormal;
    const float nUp = std::max(glm::dot(n, up), 1e-3f);
    Vec3 v = desired - up * (glm::dot(desired, n) / nUp);
    const float vLen = glm::length(v);
    if (vLen > 1e-6f) v *= glm::length(desired) / vLen;
    if (jump) {
      // Leaves the floor this step: gravity acts from now on (exact over the step).
      v = horizontalPart(v, up) + up * desc_.jumpSpeed;
      leaving = true;
      const Vec3 after = v + gravity * dt;
      state_.velocity = after;
      return 0.5f * (v + after) * dt;
    }
    state_.velocity = v;
    return v * dt;
  }
  // Airborne (or sliding off a slope past the limit): momentum, a little air control and
  // gravity, integrated exactly for a constant acceleration (the trapezoid of the velocities).
  Vec3 v = state_.velocity;
  if (glm::dot(desired, desired) > 0.0f) {
    const Vec3 h = horizontalPart(v, up);
    Vec3 change = desired - h;
    const float maxChange = kAirControl * desc_.speed * dt;
    const float c = glm::length(change);
    if (c > maxChange) change *= maxChange / c;
    v += change;
  }
  const Vec3 after = v + gravity * dt;
  state_.velocity = after;
  return 0.5f * (v + after) * dt;
}

Vec3 CharacterController::moveAndSlide(const CollisionWorld& world, double t, Vec3 position,
                                       Vec3 motion, Vec3 up, bool grounded) {
  Vec3 remaining = motion;
  for (int i = 0; i < kMaxSlideIterations; ++i) {
    if (glm::dot(remaining, remaining) < 1e-14f) break;
    auto hit = sweepCapsule(world, t, position, remaining, up);
    if (!hit) {
      position += remaining;
      break;
    }
    ++counters_.slideHits;
    position += remaining * hit->toi + hit->normal * kSkin;
    remaining *= 1.0f - hit->toi;
    Vec3 n = hit->normal;
    if (grounded && !walkable(n, up)) {
      // A ledge low enough is climbed (up, forward, down).
      const Vec3 horizontal = horizontalPart(remaining, up);
      if (desc_.stepHeight > 0.0f && glm::dot(horizontal, horizontal) > 1e-10f &&
          stepUp(world, t, position, horizontal, up)) {
        ++counters_.steps;
        break;
      }
      // Walking into a steep face: it blocks like a vertical wall, it is not climbed.
      const Vec3 flat = horizontalPart(n, up);
      if (glm::length(flat) > 1e-3f) n = glm::normalize(flat);
    }
    const float into = glm::dot(remaining, n);
    if (into < 0.0f) remaining -= n * into;
    if (world.body(hit->collider) == BodyKind::Dynamic) {
      const float speed = -glm::dot(state_.velocity, hit->normal);
      if (speed > 0.0f) pushes_.push_back({hit->collider, hit->point, hit->normal, speed});
    }
    const float vInto = glm::dot(state_.velocity, n);
    if (vInto < 0.0f) state_.velocity -= n * vInto;
  }
  return position;
}

bool CharacterController::stepUp(const CollisionWorld& world, double t, Vec3& position,
                                 Vec3 horizontal, Vec3 up) {
  // Up by at most stepHeight (the capsule is clear of its floor and of the face it met).
  auto upHit = sweepCapsule(world, t, position, up * desc_.stepHeight, up);
  if (upHit && upHit->inside) return false;
  const float rise = std::max(0.0f, desc_.stepHeight * (upHit ? upHit->toi : 1.0f) - kSkin);
  if (rise <= kSkin) return false;
  const Vec3 raised = position + up * rise;
  const float length = glm::length(horizontal);
  const Vec3 dir = horizontal / length;
  // Forward by the remaining motion; where that lands the rounded bottom on a rim too
  // steep to stand on (a slow walk), forward by one radius, which brings the bottom
  // sphere's centre over the rim.
  for (const float forward : {length, std::max(length, desc_.radius)}) {
    Vec3 p = raised;
    auto landing = landStep(world, t, p, dir, forward, rise, up);
    if (!landing) return false;
    if (walkable(landing->normal, up)) {
      position = p;
      return true;
    }
    if (forward >= desc_.radius) break;
  }
  return false;
}

std::optional<Hit> CharacterController::landStep(const CollisionWorld& world, double t, Vec3& p,
                                                 Vec3 dir, float forward, float rise, Vec3 up) {
  auto fwdHit = sweepCapsule(world, t, p, dir * forward, up);
  const float travelled = forward * (fwdHit ? fwdHit->toi : 1.0f);
  if (travelled < 1e-4f) return std::nullopt;  // no progress: the ledge is too high
  p += dir * travelled;
  if (fwdHit) p += fwdHit->normal * kSkin;
  // Down onto the ledge: it must be found within the rise...
  auto downHit = sweepCapsule(world, t, p, -up * (rise + kGroundTolerance), up);
  if (!downHit || downHit->inside) return std::nullopt;
  // ... no higher above the feet the body stood on than stepHeight (a rim the raised
  // rounded bottom rides over can be higher than the rise) ...
  // ... and higher than that floor: landing back on it (beside a wall) is no step.
  const float footStart = glm::dot(state_.position, up) - 0.5f * desc_.height;
  const float ledge = glm::dot(downHit->point, up) - footStart;
  if (ledge > desc_.stepHeight + kGroundTolerance || ledge <= kGroundTolerance) return std::nullopt;
  p -= up * ((rise + kGroundTolerance) * downHit->toi - kSkin);
  return downHit;
}

Vec3 CharacterController::depenetrate(const CollisionWorld& world, double t, Vec3 position,
                                      Vec3 up) {
  for (int i = 0; i < kMaxDepenetrationIterations; ++i) {
    auto hit =
        world.capsuleOverlap(bottomCentre(position, up), topCentre(position, up), desc_.radius, t);
    if (!hit.ok() || !hit.value() || hit.value()->distance <= 1e-5f) break;
    ++counters_.depenetrations;
    const Hit& h = *hit.value();
    position += h.normal * (h.distance + 1e-4f);
    const float vInto = glm::dot(state_.velocity, h.normal);
    if (vInto < 0.0f) state_.velocity -= h.normal * vInto;
  }
  return position;
}

void CharacterController::feet(const CollisionWorld& world, double t, Vec3 up, bool wasStanding,
                               bool leaving) {
  const float r = desc_.radius;
  state_.grounded = 0;
  state_.touchingWall = 0;
  state_.onFeet = 0;
  state_.wallNormal = Vec3(0.0f);
  Vec3 position = state_.position;
  std::optional<Hit> ground;
  bool byFeet = false;
  auto wall = [&](Vec3 normal) {
    state_.touchingWall = 1;
    state_.wallNormal = normal;
  };
  const Vec3 c = bottomCentre(position, up);
  auto probe = world.raycast(Ray{c, -up}, 2.0f * r, t);
  if (probe.ok() && probe.value() && !probe.value()->inside &&
      walkable(probe.value()->normal, up) && !leaving) {
    const Hit& p = *probe.value();
    const float h = p.distance;  // from the bottom sphere's centre down to the surface (m)
    const bool touching = h * glm::dot(p.normal, up) <= r + kGroundTolerance;
    if (h < r) {
      position += up * (r - h);  // push up until the foot clears the surface
      ground = p;
      byFeet = true;
    } else if (wasStanding || touching) {
      // Pull down onto the floor, unless something else (a ledge's rim) is met first.
      const float drop = h - r;
      auto sh = sweepCapsule(world, t, position, -up * drop, up);
      if (sh && !sh->inside && glm::dot(sh->normal, p.normal) < 0.99f) {
        position -= up * std::max(0.0f, drop * sh->toi - kSkin);
        if (walkable(sh->normal, up))
          ground = *sh;
        else
          wall(sh->normal);
      } else {
        position -= up * drop;
        ground = p;
        byFeet = true;
      }
    }
  }
  if (!ground && !state_.touchingWall && wasStanding && !leaving && desc_.stepHeight > 0.0f) {
    // The probe found no floor, but the rounded bottom stood on something (a rim it is
    // riding over): it stays on it within stepHeight when that is walkable.
    auto sh = sweepCapsule(world, t, position, -up * desc_.stepHeight, up);
    if (sh && !sh->inside && walkable(sh->normal, up)) {
      position -= up * std::max(0.0f, desc_.stepHeight * sh->toi - kSkin);
      ground = *sh;
    }
  }
  if (!ground && !state_.touchingWall) {
    // The rounded bottom (and the rest of the capsule) against what the probe did not find.
    auto near = world.capsuleOverlap(bottomCentre(position, up), topCentre(position, up),
                                     r + kGroundTolerance, t);
    if (near.ok() && near.value()) {
      const Hit& h = *near.value();
      if (walkable(h.normal, up) && !leaving && glm::dot(c - h.point, up) > 0.0f)
        ground = h;
      else
        wall(h.normal);
    }
  }
  state_.position = position;
  if (ground) {
    state_.grounded = 1;
    state_.onFeet = byFeet ? 1 : 0;
    state_.groundNormal = ground->normal;
    // Velocity onto the new floor, so a ramp cannot launch the body.
    state_.velocity -= ground->normal * glm::dot(state_.velocity, ground->normal);
    state_.surfaceVelocity = world.surfaceVelocity(ground->collider, ground->point, t);
    state_.groundCollider = ground->collider;
    state_.groundPoint = ground->point;
  } else {
    state_.groundNormal = up;
    state_.groundCollider = {};
    state_.groundPoint = Vec3(0.0f);
  }
}

}  // namespace floptle::physics
