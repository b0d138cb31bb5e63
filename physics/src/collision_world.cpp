// CollisionWorld: collider bookkeeping, the hit builder, closest and the overlap queries.
// The casts live in collision_casts.cpp.
#include "floptle/physics/collision_world.h"

#include <cassert>
#include <cmath>
#include <string>

#include "collision_detail.h"

namespace floptle::physics {

std::optional<BodyKind> bodyKindFromName(std::string_view name) {
  if (name == "static") return BodyKind::Static;
  if (name == "kinematic") return BodyKind::Kinematic;
  if (name == "dynamic") return BodyKind::Dynamic;
  return std::nullopt;
}

std::string_view bodyKindName(BodyKind kind) {
  switch (kind) {
    case BodyKind::Static:
      return "static";
    case BodyKind::Kinematic:
      return "kinematic";
    case BodyKind::Dynamic:
      return "dynamic";
  }
  return "static";
}

ColliderId CollisionWorld::place(NewCollider c) {
  assert(c.shape);
  const std::uint32_t index = slots_.create().index - 1;
  if (index == colliders_.size()) {
    colliders_.emplace_back();
    boxes_.emplace_back();
  }
  Collider& slot = colliders_[index];
  boxes_[index] = c.shape->aabb(refitTime_);
  slot.shape = std::move(c.shape);
  slot.node = std::move(c.node);
  slot.body = c.body;
  slot.collidable = c.collidable;
  return idAt(index);
}

ColliderId CollisionWorld::add(std::unique_ptr<CollisionShape> shape, std::string node,
                               BodyKind body, bool collidable) {
  const ColliderId id = place({std::move(shape), std::move(node), body, collidable});
  colliders_[id.index].leaf = bvh_.insert(id.index, boxes_[id.index]);
  return id;
}

std::vector<ColliderId> CollisionWorld::addMany(std::vector<NewCollider> colliders) {
  std::vector<ColliderId> added;
  added.reserve(colliders.size());
  // Room for all of them at once: a level of 100,000 colliders would otherwise regrow and
  // move these arrays some 17 times.
  colliders_.reserve(colliders_.size() + colliders.size());
  boxes_.reserve(boxes_.size() + colliders.size());
  for (NewCollider& c : colliders) added.push_back(place(std::move(c)));
  std::vector<std::uint32_t> items;
  std::vector<Aabb> boxes;
  items.reserve(size());
  boxes.reserve(size());
  for (ColliderId id : ids()) {
    items.push_back(id.index);
    boxes.push_back(boxes_[id.index]);
  }
  std::vector<ColliderBvh::Leaf> leaves(items.size());
  bvh_.build(items, boxes, leaves);
  for (std::size_t i = 0; i < items.size(); ++i) colliders_[items[i]].leaf = leaves[i];
  return added;
}

Expected<void> CollisionWorld::remove(ColliderId id) {
  if (id.null()) return Error{"collider", "the null id names no collider"};
  if (!valid(id))
    return Error{"collider", "id (index " + std::to_string(id.index) + ", generation " +
                                 std::to_string(id.generation) +
                                 ") is stale: its collider was removed"};
  Collider& slot = colliders_[id.index];
  bvh_.remove(slot.leaf);
  slot = Collider{};
  slot.collidable = false;
  boxes_[id.index] = Aabb{};
  slots_.destroy(EntityId{id.index + 1, id.generation});
  return {};
}

void CollisionWorld::refit(double t) {
  refitTime_ = t;
  for (std::size_t i = 0; i < colliders_.size(); ++i)
    if (colliders_[i].shape) boxes_[i] = colliders_[i].shape->aabb(t);
  bvh_.refit(boxes_);
}

void CollisionWorld::refitColliders(const std::vector<ColliderId>& ids, double t) {
  for (ColliderId id : ids) {
    assert(valid(id));
    if (!valid(id)) continue;
    boxes_[id.index] = colliders_[id.index].shape->aabb(t);
    bvh_.setLeafBox(colliders_[id.index].leaf, boxes_[id.index]);
  }
}

std::optional<ColliderId> CollisionWorld::find(std::string_view node) const {
  for (ColliderId id : ids())
    if (colliders_[id.index].node == node) return id;
  return std::nullopt;
}

const std::string& CollisionWorld::nodeName(const Hit& hit) const {
  const auto member = shape(hit.collider).memberAt(hit.point, refitTime_);
  return member ? *member->node : nodeName(hit.collider);
}

std::optional<std::string> CollisionWorld::material(const Hit& hit) const {
  const CollisionShape& s = shape(hit.collider);
  if (const auto member = s.memberAt(hit.point, refitTime_)) {
    if (member->material->empty()) return std::nullopt;
    return *member->material;
  }
  const auto label = s.faceLabel(hit.point);
  if (!label) return std::nullopt;
  std::string name = s.labelName(*label);
  if (name.empty()) return std::nullopt;
  return name;
}

Vec3 CollisionWorld::surfaceVelocity(ColliderId id, Vec3 p, double t, double dt) const {
  if (!(dt > 0.0) || !std::isfinite(t) || !isFinite(p)) return Vec3(0.0f);
  const CollisionShape& s = shape(id);
  const float f0 = s.distance(p, t);
  const float f1 = s.distance(p, t + dt);
  const Vec3 n = s.normal(p, t);
  const Vec3 v = -static_cast<float>((static_cast<double>(f1) - f0) / dt) * n;
  return isFinite(v) ? v : Vec3(0.0f);
}

namespace {
/// (value, slot index) order: the smaller value wins, ties to the lower index (live
/// colliders have distinct indices, so this is the lower id).
bool better(float value, std::uint32_t index, float bestValue, std::uint32_t bestIndex) {
  return value < bestValue || (value == bestValue && index < bestIndex);
}
}  // namespace

float CollisionWorld::nearest(Vec3 p, double t, std::uint32_t& bestIndex) const {
  float best = std::numeric_limits<float>::infinity();
  bool found = false;
  auto visit = [&](std::uint32_t index, float /*boxDistance*/) {
    if (!colliders_[index].collidable) return;
    const float f = colliders_[index].shape->distance(p, t);
    if (!(f == f)) return;
    if (!found || better(f, index, best, bestIndex)) {
      best = f;
      bestIndex = index;
      found = true;
    }
  };
  if (useBroadphase_) {
    // An exact signed distance is never below the distance to its box, so a box farther
    // than the best distance so far cannot hold a nearer surface. Once p is inside a surface
    // (best < 0), every box that holds p (box distance 0) may hold a deeper one: the bound
    // never drops below 0, so closest answers the minimum over the colliders (their union).
    bvh_.forEachNear(
        p, [&] { return std::max(best, 0.0f); }, visit);
  } else {
    for (std::uint32_t index = 0; index < colliders_.size(); ++index) visit(index, 0.0f);
  }
  return found ? best : std::numeric_limits<float>::quiet_NaN();
}

float CollisionWorld::distance(Vec3 p, double t) const {
  std::uint32_t index = 0;
  const float f = nearest(p, t, index);
  return f == f ? f : std::numeric_limits<float>::infinity();
}

Expected<std::optional<Hit>> CollisionWorld::closest(Vec3 p, double t) const {
  if (auto e = detail::checkFinite(p, "p")) return *e;
  if (auto e = detail::checkFinite(t, "t")) return *e;
  std::uint32_t bestIndex = 0;
  const float best = nearest(p, t, bestIndex);
  if (!(best == best)) return std::optional<Hit>{};
  const Vec3 n = colliders_[bestIndex].shape->normal(p, t);
  Hit hit = makeHit(idAt(bestIndex), p, n, best, best < 0.0f, kUp);
  hit.point = p - hit.normal * best;
  return std::optional<Hit>{hit};
}

Expected<std::optional<Hit>> CollisionWorld::sphereOverlap(Vec3 c, float r, double t) const {
  if (auto e = detail::checkFinite(c, "center")) return *e;
  if (auto e = detail::checkRadius(r, "radius")) return *e;
  if (auto e = detail::checkFinite(t, "t")) return *e;
  float bestF = std::numeric_limits<float>::infinity();
  ColliderId bestId;
  bool found = false;
  forEachOverlapping(Aabb::fromCenterHalf(c, Vec3(r)), [&](ColliderId id) {
    const float f = colliders_[id.index].shape->distance(c, t);
    if (!(f < r)) return;  // also drops NaN
    if (!found || better(f, id.index, bestF, bestId.index)) {
      bestF = f;
      bestId = id;
      found = true;
    }
  });
  if (!found) return std::optional<Hit>{};
  const Vec3 n = colliders_[bestId.index].shape->normal(c, t);
  Hit hit = makeHit(bestId, c, n, r - bestF, true, kUp);
  hit.point = c - hit.normal * r;
  return std::optional<Hit>{hit};
}

namespace detail {

AxisPoint nearestAxisPoint(const CollisionShape& shape, Vec3 a, Vec3 b, double t) {
  const Vec3 ab = b - a;
  auto f = [&](float s) { return shape.distance(a + ab * s, t); };
  // Three coarse interior samples at 1/4, 1/2, 3/4.
  constexpr int kCoarse = CollisionWorld::kCapsuleCoarseSamples;
  float bestS = 0.0f, bestF = std::numeric_limits<float>::infinity();
  int bestK = 1;
  for (int k = 1; k <= kCoarse; ++k) {
    const float s = static_cast<float>(k) / (kCoarse + 1);
    const float v = f(s);
    if (v < bestF) {
      bestF = v;
      bestS = s;
      bestK = k;
    }
  }
  // Golden-section search on the bracket between the neighbouring samples (the ends count
  // as samples 0 and kCoarse + 1 whose values the caller already has).
  constexpr float kInvPhi = 0.6180339887f;
  float lo = static_cast<float>(bestK - 1) / (kCoarse + 1);
  float hi = static_cast<float>(bestK + 1) / (kCoarse + 1);
  float x1 = hi - kInvPhi * (hi - lo), x2 = lo + kInvPhi * (hi - lo);
  float f1 = f(x1), f2 = f(x2);
  for (int i = 1; i < CollisionWorld::kCapsuleGoldenSteps; ++i) {
    if (f1 < f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - kInvPhi * (hi - lo);
      f1 = f(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + kInvPhi * (hi - lo);
      f2 = f(x2);
    }
  }
  if (f1 < bestF) {
    bestF = f1;
    bestS = x1;
  }
  if (f2 < bestF) {
    bestF = f2;
    bestS = x2;
  }
  return {bestS, bestF};
}

}  // namespace detail

Expected<std::optional<Hit>> CollisionWorld::capsuleOverlap(Vec3 a, Vec3 b, float r,
                                                            double t) const {
  if (auto e = detail::checkFinite(a, "a")) return *e;
  if (auto e = detail::checkFinite(b, "b")) return *e;
  if (auto e = detail::checkRadius(r, "radius")) return *e;
  if (auto e = detail::checkFinite(t, "t")) return *e;
  Aabb box;
  box.expand(a);
  box.expand(b);
  box = box.inflated(r);
  float bestF = std::numeric_limits<float>::infinity();
  ColliderId bestId;
  Vec3 bestCentre{0.0f};
  bool found = false;
  const bool segment = glm::dot(b - a, b - a) > 0.0f;
  forEachOverlapping(box, [&](ColliderId id) {
    const CollisionShape& s = *colliders_[id.index].shape;
    const float fa = s.distance(a, t);
    const float fb = segment ? s.distance(b, t) : fa;
    float f = fa;
    Vec3 centre = a;
    if (fb < f) {
      f = fb;
      centre = b;
    }
    if (segment) {
      const detail::AxisPoint q = detail::nearestAxisPoint(s, a, b, t);
      // Used only strictly between the ends and nearer than either end.
      if (q.s > 0.0f && q.s < 1.0f && q.f < f) {
        f = q.f;
        centre = a + (b - a) * q.s;
      }
    }
    if (!(f < r)) return;
    if (!found || better(f, id.index, bestF, bestId.index)) {
      bestF = f;
      bestId = id;
      bestCentre = centre;
      found = true;
    }
  });
  if (!found) return std::optional<Hit>{};
  const Vec3 n = colliders_[bestId.index].shape->normal(bestCentre, t);
  Hit hit = makeHit(bestId, bestCentre, n, r - bestF, true, kUp);
  hit.point = bestCentre - hit.normal * r;
  return std::optional<Hit>{hit};
}

}  // namespace floptle::physics
