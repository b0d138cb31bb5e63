// MorphCollider: a rolling brickmap bake of a displaced field, and the same lattice on demand.
#include "floptle/physics/morph_collider.h"

#include <cmath>

#include "floptle/core/fnv_hash.h"

namespace floptle::physics {

Expected<std::unique_ptr<MorphCollider>> MorphCollider::make(
    const field::FieldNode& displaced, const Transform& world,
    const MorphColliderSettings& settings) {
  if (!(settings.cell > 0.0f)) return Error{"bake/cell", "must be > 0 (m)"};
  auto exact = FieldCollider::make(displaced, world);
  if (!exact) return exact.error();
  auto owned = std::make_unique<FieldCollider>(std::move(exact.value()));
  const FieldCollider* source = owned.get();
  BakedFieldSettings bake;
  bake.cellSize = settings.cell;
  bake.rebakeBudget = settings.rebakeBudget;
  bake.rebakeRadius = settings.rebakeRadius;
  auto baked = BakedFieldCollider::bake(std::move(owned), bake, 0.0);
  if (!baked) return baked.error();
  return std::unique_ptr<MorphCollider>(new MorphCollider(std::move(baked.value()), source));
}

MorphCollider::MorphCollider(std::unique_ptr<BakedFieldCollider> baked, const FieldCollider* exact)
    : baked_(std::move(baked)), exact_(exact) {}

void MorphCollider::updateForStep(std::span<const Vec3> activeBodies, double t) {
  baked_->updateForStep(activeBodies, t);
  bakedAt_ = t;
}

namespace {
struct MorphStepState final : CollisionShape::StepState {
  std::shared_ptr<const CollisionShape::StepState> baked;
  double bakedAt = 0.0;
};
}  // namespace

std::shared_ptr<const CollisionShape::StepState> MorphCollider::saveStepState() const {
  auto state = std::make_shared<MorphStepState>();
  state->baked = baked_->saveStepState();
  state->bakedAt = bakedAt_;
  return state;
}

void MorphCollider::restoreStepState(const StepState& state) {
  const auto& s = static_cast<const MorphStepState&>(state);
  if (s.baked) baked_->restoreStepState(*s.baked);
  bakedAt_ = s.bakedAt;
}

std::uint64_t MorphCollider::stepStateHash() const {
  Fnv1a64 h;
  h.u64(baked_->stepStateHash());
  h.bytes(&bakedAt_, sizeof bakedAt_);
  return h.value();
}

bool MorphCollider::fromBrickmap(Vec3 p, double t) const {
  return t == bakedAt_ && baked_->brickMap().sampledInLastRound(p);
}

float MorphCollider::latticeDistance(Vec3 p, double t, Vec3* gradient) const {
  const BrickMap& map = baked_->brickMap();
  const float h = map.cellSize(), inv = 1.0f / h;
  const Vec3 l = (p - map.origin()) * inv;
  const Vec3 cell = glm::floor(l);
  const Vec3 f = l - cell;
  const Vec3 base = map.origin() + cell * h;
  float c[2][2][2];
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        c[i][j][k] = exact_->distance(base + Vec3(float(i), float(j), float(k)) * h, t);
  const float x00 = c[0][0][0] + (c[1][0][0] - c[0][0][0]) * f.x;
  const float x10 = c[0][1][0] + (c[1][1][0] - c[0][1][0]) * f.x;
  const float x01 = c[0][0][1] + (c[1][0][1] - c[0][0][1]) * f.x;
  const float x11 = c[0][1][1] + (c[1][1][1] - c[0][1][1]) * f.x;
  const float y0 = x00 + (x10 - x00) * f.y, y1 = x01 + (x11 - x01) * f.y;
  if (gradient) {
    const float dx0 =
        (c[1][0][0] - c[0][0][0]) + ((c[1][1][0] - c[0][1][0]) - (c[1][0][0] - c[0][0][0])) * f.y;
    const float dx1 =
        (c[1][0][1] - c[0][0][1]) + ((c[1][1][1] - c[0][1][1]) - (c[1][0][1] - c[0][0][1])) * f.y;
    gradient->x = (dx0 + (dx1 - dx0) * f.z) * inv;
    gradient->y = ((x10 - x00) + ((x11 - x01) - (x10 - x00)) * f.z) * inv;
    gradient->z = (y1 - y0) * inv;
  }
  return y0 + (y1 - y0) * f.z;
}

float MorphCollider::distance(Vec3 p, double t) const {
  if (fromBrickmap(p, t)) return baked_->distance(p, t);
  return latticeDistance(p, t, nullptr);
}

Vec3 MorphCollider::normal(Vec3 p, double t) const {
  if (fromBrickmap(p, t)) return baked_->normal(p, t);
  Vec3 g;
  latticeDistance(p, t, &g);
  const float len = glm::length(g);
  return len > 0.0f ? g / len : kUp;
}

Aabb MorphCollider::aabb(double t) const {
  return exact_->aabb(t).inflated(baked_->brickMap().cellSize());
}

}  // namespace floptle::physics
