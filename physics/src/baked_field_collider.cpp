// BakedFieldCollider: brickmap queries with an exact near field and a rolling re-bake.
#include "floptle/physics/baked_field_collider.h"

#include <cmath>

#include "floptle/core/fnv_hash.h"

namespace floptle::physics {

DistanceBatchFn distanceBatchOf(const CollisionShape& shape, double t) {
  return [&shape, t](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) out[i] = shape.distance(points[i], t);
  };
}

Expected<std::unique_ptr<BakedFieldCollider>> BakedFieldCollider::bake(
    std::unique_ptr<CollisionShape> exact, const BakedFieldSettings& settings, double t,
    const BakeProgress& progress, const std::atomic<bool>* cancel) {
  if (!exact) return Error{"field", "no shape to bake"};
  const Aabb box = exact->aabb(t);
  if (box.empty() || !isFinite(box.min) || !isFinite(box.max) ||
      glm::any(glm::greaterThan(box.max - box.min, Vec3(1e5f))))
    return Error{"field",
                 "cannot bake an unbounded shape (its bounds must be finite, under 100 km)"};
  BrickMapSettings s;
  s.bounds = box;
  s.cellSize = settings.cellSize;
  s.bandWidth = settings.bandWidth;
  s.threads = std::max(1, settings.threads);
  auto map = BrickMap::bake(s, distanceBatchOf(*exact, t), progress, cancel);
  if (!map) return map.error();
  return std::make_unique<BakedFieldCollider>(std::move(map).value(), std::move(exact), settings);
}

BakedFieldCollider::BakedFieldCollider(BrickMap map, std::unique_ptr<CollisionShape> exact,
                                       const BakedFieldSettings& settings)
    : map_(std::move(map)), exact_(std::move(exact)), settings_(settings) {}

void BakedFieldCollider::setActiveBodies(std::span<const Vec3> positions) {
  active_.clear();
  for (const Vec3& p : positions)
    if (isFinite(p)) active_.push_back(p);
}

void BakedFieldCollider::updateForStep(std::span<const Vec3> activeBodies, double t) {
  setActiveBodies(activeBodies);
  rebake(t);
}

namespace {
struct BakedStepState final : CollisionShape::StepState {
  BrickMap::Snapshot map;
  std::vector<Vec3> active;
};
}  // namespace

std::shared_ptr<const CollisionShape::StepState> BakedFieldCollider::saveStepState() const {
  auto state = std::make_shared<BakedStepState>();
  state->map = map_.snapshot();
  state->active = active_;
  return state;
}

void BakedFieldCollider::restoreStepState(const StepState& state) {
  // Only this class makes BakedStepStates, and the contract is this shape's own state.
  const auto& baked = static_cast<const BakedStepState&>(state);
  map_.restore(baked.map);
  active_ = baked.active;
}

std::uint64_t BakedFieldCollider::stepStateHash() const {
  Fnv1a64 h;
  h.u64(map_.contentHash());
  for (const Vec3& a : active_) h.vec(a);
  return h.value();
}

int BakedFieldCollider::rebake(double t) {
  if (!exact_ || active_.empty() || settings_.rebakeBudget <= 0) return 0;
  return map_.rebakeNearest(distanceBatchOf(*exact_, t), active_, settings_.rebakeBudget,
                            settings_.rebakeRadius);
}

bool BakedFieldCollider::inNearField(Vec3 p) const {
  if (!exact_ || !(settings_.nearRadius > 0.0f)) return false;
  const float r2 = settings_.nearRadius * settings_.nearRadius;
  for (const Vec3& a : active_)
    if (glm::dot(p - a, p - a) <= r2) return true;
  return false;
}

float BakedFieldCollider::distance(Vec3 p, double t) const {
  if (inNearField(p)) return exact_->distance(p, t);
  return map_.distance(p);
}

Vec3 BakedFieldCollider::normal(Vec3 p, double t) const {
  if (inNearField(p)) return exact_->normal(p, t);
  Vec3 gradient;
  map_.distanceGradient(p, gradient);
  const float len = glm::length(gradient);
  return len > 0.0f ? gradient / len : kUp;
}

Aabb BakedFieldCollider::aabb(double t) const {
  if (exact_) {
    const Aabb box = exact_->aabb(t);
    if (!box.empty() && isFinite(box.min) && isFinite(box.max))
      return box.inflated(map_.cellSize());
  }
  return map_.gridBounds();
}

BakedFieldCollider::CastResult BakedFieldCollider::castSphere(Vec3 origin, Vec3 dir, float radius,
                                                              float maxDistance, double) const {
  CastResult out;
  if (!(radius < map_.bandWidth()) || !isFinite(origin) || !isFinite(dir)) return out;
  if (exact_ && settings_.nearRadius > 0.0f) {
    // Any active body's near ball within reach of the swept sphere: let the world march.
    const float reach = settings_.nearRadius + radius;
    for (const Vec3& a : active_) {
      const float s = std::clamp(glm::dot(a - origin, dir), 0.0f, maxDistance);
      const Vec3 q = origin + dir * s;
      if (glm::dot(a - q, a - q) <= reach * reach) return out;
    }
  }
  const BrickMap::RayHit h = map_.raycast(origin, dir, maxDistance, radius);
  out.handled = true;
  out.hit = h.hit;
  out.distance = h.distance;
  out.normal = h.normal;
  out.point = h.point - h.normal * radius;  // the contact on the surface
  return out;
}

}  // namespace floptle::physics
