// CollisionWorld casts: raycast, spherecast and sweep, all by sphere marching each collider
// the ray meets inside its (inflated) box, nearest box first, pruned by the best hit so far.
#include <cmath>

#include "collision_detail.h"
#include "floptle/core/vec_divide.h"
#include "floptle/physics/collision_world.h"

namespace floptle::physics {

std::optional<Hit> CollisionWorld::castAlong(Vec3 origin, Vec3 dir, float r, float maxDistance,
                                             double t) const {
  float best = maxDistance;
  std::uint32_t bestIndex = 0;
  bool found = false, bestInside = false;
  // The best hit's normal when its shape's fast cast already computed normal(centre, t).
  bool haveNormal = false;
  Vec3 bestNormal{0.0f};
  const Ray ray{origin, dir};
  // Inlined into the broadphase walk: as a call it cost a sixth of a one-sphere query.
  auto visit = [&](std::uint32_t index, float tEnter, float tExit) __attribute__((always_inline)) {
    if (!colliders_[index].collidable) return;
    const CollisionShape& shape = *colliders_[index].shape;
    const float end = std::min(tExit, best);
    std::optional<detail::March> m;
    // A shape with a faster exact cast (a mesh BVH, a lone sphere) answers itself.
    const CollisionShape::CastResult fast = shape.castSphere(origin, dir, r, end, t);
    if (fast.handled) {
      if (fast.hit) m = detail::March{fast.distance, fast.inside};
    } else {
      m = detail::marchShape(shape, origin, dir, r, tEnter, end, t);
    }
    if (!m || m->distance > best) return;
    if (!found || m->distance < best || (m->distance == best && index < bestIndex)) {
      best = m->distance;
      bestIndex = index;
      bestInside = m->inside;
      found = true;
      haveNormal = fast.handled && fast.normalIsShapeNormal && !m->inside;
      if (haveNormal) bestNormal = fast.normal;
    }
  };
  if (useBroadphase_) {
    bvh_.forEachOnRay(
        ray, r, [&] { return best; }, visit);
  } else {
    const Vec3 invDir = 1.0f / dir;
    for (std::uint32_t index = 0; index < colliders_.size(); ++index) {
      float tEnter, tExit;
      if (ColliderBvh::rayBox(boxes_[index].inflated(r), origin, invDir, maxDistance, tEnter,
                              tExit))
        visit(index, tEnter, tExit);
    }
  }
  if (!found) return std::nullopt;
  const CollisionShape& shape = *colliders_[bestIndex].shape;
  const Vec3 centre = origin + dir * best;
  const Vec3 n = haveNormal ? bestNormal : shape.normal(centre, t);
  Hit hit = makeHit(idAt(bestIndex), centre, n, best, bestInside, -dir);
  // Rays: the surface point itself. Spheres: the sphere's point touching the surface.
  if (r > 0.0f) hit.point = centre - hit.normal * r;
  return hit;
}

Expected<std::optional<Hit>> CollisionWorld::raycast(const Ray& ray, float maxDistance,
                                                     double t) const {
  // The common case first, without building the checks' optional errors (a few dozen
  // instructions of a query that is a few hundred): the same tests and the same unit direction.
  const float length = glm::length(ray.direction);
  if (isFinite(ray.origin) && isFinite(ray.direction) && length > 1e-20f && std::isfinite(length) &&
      std::isfinite(maxDistance) && !(maxDistance < 0.0f) && std::isfinite(t))
    return castAlong(ray.origin, dividedBy(ray.direction, length), 0.0f, maxDistance, t);
  if (auto e = detail::checkFinite(ray.origin, "origin")) return *e;
  Vec3 dir;
  if (auto e = detail::checkDirection(ray.direction, "dir", dir)) return *e;
  if (auto e = detail::checkRadius(maxDistance, "max")) return *e;
  if (auto e = detail::checkFinite(t, "t")) return *e;
  return castAlong(ray.origin, dir, 0.0f, maxDistance, t);
}

Expected<std::optional<Hit>> CollisionWorld::spherecast(Vec3 origin, Vec3 direction, float r,
                                                        float maxDistance, double t) const {
  // The common case first, as in raycast.
  const float length = glm::length(direction);
  if (isFinite(origin) && isFinite(direction) && length > 1e-20f && std::isfinite(length) &&
      std::isfinite(r) && !(r < 0.0f) && std::isfinite(maxDistance) && !(maxDistance < 0.0f) &&
      std::isfinite(t))
    return castAlong(origin, dividedBy(direction, length), r, maxDistance, t);
  if (auto e = detail::checkFinite(origin, "origin")) return *e;
  Vec3 dir;
  if (auto e = detail::checkDirection(direction, "dir", dir)) return *e;
  if (auto e = detail::checkRadius(r, "radius")) return *e;
  if (auto e = detail::checkRadius(maxDistance, "max")) return *e;
  if (auto e = detail::checkFinite(t, "t")) return *e;
  return castAlong(origin, dir, r, maxDistance, t);
}

Expected<std::optional<Hit>> CollisionWorld::sweep(const SweepShape& shape, Vec3 motion,
                                                   double t) const {
  if (auto e = detail::checkFinite(shape.a, "shape/a")) return *e;
  if (shape.kind == SweepShape::Kind::Capsule)
    if (auto e = detail::checkFinite(shape.b, "shape/b")) return *e;
  if (auto e = detail::checkRadius(shape.radius, "shape/radius")) return *e;
  Vec3 dir;
  if (auto e = detail::checkDirection(motion, "motion", dir)) return *e;
  if (auto e = detail::checkFinite(t, "t")) return *e;
  const float length = glm::length(motion);
  std::optional<Hit> hit;
  if (shape.kind == SweepShape::Kind::Sphere || shape.a == shape.b) {
    hit = castAlong(shape.a, dir, shape.radius, length, t);
  } else {
    hit = sweepCapsule(shape, motion, t);
  }
  if (hit) hit->toi = std::clamp(hit->distance / length, 0.0f, 1.0f);
  return hit;
}

// Capsule sweep. The clearance of the capsule from one collider is bounded below by sampling
// the axis every h <= r: the axis' true nearest distance is at least min f(sample) - h/2
// (f is 1-Lipschitz), so stepping by min f - h/2 - r can never pass through a surface.
// Once that bound is within the hit epsilon, a few steps with the capsule's own
// (golden-section) clearance bring the contact onto the surface.
std::optional<Hit> CollisionWorld::sweepCapsule(const SweepShape& cap, Vec3 motion,
                                                double t) const {
  const float length = glm::length(motion);
  const Vec3 dir = motion / length;
  const Vec3 axis = cap.b - cap.a;
  const float axisLength = glm::length(axis);
  // Clamped as a float: a capsule kilometres long has more intervals than an int holds.
  const float wanted = std::ceil(axisLength / std::max(cap.radius, 1e-3f));
  const int intervals = wanted >= 64.0f ? 64 : wanted >= 1.0f ? static_cast<int>(wanted) : 1;
  const float halfSpacing = 0.5f * axisLength / static_cast<float>(intervals);

  Aabb swept;
  for (Vec3 p : {cap.a, cap.b, cap.a + motion, cap.b + motion}) swept.expand(p);
  swept = swept.inflated(cap.radius);

  float best = length;
  ColliderId bestId;
  Vec3 bestCentre{0.0f};
  bool found = false, bestInside = false;
  forEachOverlapping(swept, [&](ColliderId id) {
    const CollisionShape& shape = *colliders_[id.index].shape;
    auto conservative = [&](float s) {
      float m = std::numeric_limits<float>::infinity();
      for (int i = 0; i <= intervals; ++i)
        m = std::min(
            m, shape.distance(cap.a + axis * (static_cast<float>(i) / intervals) + dir * s, t));
      return m - halfSpacing - cap.radius;
    };
    float s = 0.0f;
    bool converged = false;
    for (int step = 0; step < kMaxMarchSteps && s <= best; ++step) {
      const float c = conservative(s);
      if (!(c == c)) return;
      if (c < detail::hitEpsilon(cap.a + dir * s)) {
        converged = true;
        break;
      }
      s += c;
    }
    if (!converged || s > best) return;
    // Refine with the capsule's own nearest axis point (ends + golden section).
    Vec3 centre{0.0f};
    bool inside = false;
    // A near-parallel graze gains only its clearance per step: it may take many. It stops
    // at contact or once past the motion (no hit); a graze still unresolved when the steps
    // run out is reported where it got to, conservatively (a sweep must never tunnel).
    for (int step = 0; step < kMaxMarchSteps && s <= best; ++step) {
      const Vec3 a = cap.a + dir * s, b = cap.b + dir * s;
      float f = shape.distance(a, t);
      centre = a;
      const float fb = shape.distance(b, t);
      if (fb < f) {
        f = fb;
        centre = b;
      }
      const detail::AxisPoint q = detail::nearestAxisPoint(shape, a, b, t);
      if (q.s > 0.0f && q.s < 1.0f && q.f < f) {
        f = q.f;
        centre = a + (b - a) * q.s;
      }
      const float clearance = f - cap.radius;
      if (s == 0.0f && clearance < 0.0f) {
        inside = true;
        break;
      }
      if (clearance < detail::hitEpsilon(centre)) break;
      s += clearance;
    }
    if (s > best || (s == best && found && id.index > bestId.index)) return;
    best = s;
    bestId = id;
    bestCentre = centre;
    bestInside = inside;
    found = true;
  });
  if (!found) return std::nullopt;
  const Vec3 n = colliders_[bestId.index].shape->normal(bestCentre, t);
  Hit hit = makeHit(bestId, bestCentre, n, best, bestInside, -dir);
  hit.point = bestCentre - hit.normal * cap.radius;
  return hit;
}

}  // namespace floptle::physics
