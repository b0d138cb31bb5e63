// DensityGravity: the density grid's matter from the world's colliders, its cadence, and the
// bodies' Barnes-Hut tree.
#include "floptle/gravity/density_gravity.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "floptle/physics/collision_world.h"
#include "floptle/physics/simulation.h"

namespace floptle::gravity {

Expected<std::unique_ptr<DensityGravity>> DensityGravity::create(
    const scene::GravityFieldDesc& desc, const physics::CollisionWorld& world,
    std::vector<float> densityOfCollider, const std::string& where) {
  std::unique_ptr<DensityGravity> d(new DensityGravity());
  d->world_ = &world;
  d->densityOfCollider_ = std::move(densityOfCollider);
  d->densityOfCollider_.resize(world.slotCount(), 0.0f);
  d->G_ = desc.G;
  d->bodiesAttract_ = desc.bodiesAttract;
  d->theta_ = desc.theta;
  if (!desc.density) return d;
  const scene::GravityDensityDesc& density = *desc.density;
  d->cadence_ = std::max(1, density.cadence);
  Aabb bounds;
  bool unbounded = false;
  for (physics::ColliderId id : world.ids()) {
    if (!(d->densityOfCollider_[id.index] > 0.0f)) continue;
    const physics::CollisionShape& shape = world.shape(id);
    if (shape.changesWithTime() || shape.updatesEachStep()) d->matterChanges_ = true;
    const Aabb box = shape.aabb(0.0);
    if (!isFinite(box.min) || !isFinite(box.max) || glm::length(box.max - box.min) > 1e6f)
      unbounded = true;
    else
      box.empty() ? void() : bounds.expand(box);
  }
  if (density.bounds) {
    bounds = *density.bounds;
  } else {
    if (unbounded)
      return Error{where + "/density/bounds",
                   "the collidable matter is unbounded (a plane or a repeat): give the grid's "
                   "bounds"};
    if (bounds.empty()) bounds = Aabb::fromCenterHalf(Vec3(0.0f), Vec3(density.cell));
    const Vec3 extent = bounds.max - bounds.min;
    bounds = bounds.inflated(2.0f * density.cell + 0.1f * std::max({extent.x, extent.y, extent.z}));
  }
  auto grid = DensityGrid::create(bounds, density.cell, desc.G, where + "/density");
  if (!grid) return grid.error();
  d->grid_.emplace(std::move(grid.value()));
  d->solveAt(0.0);
  return d;
}

void DensityGravity::solveAt(double t) {
  DensityGrid& grid = *grid_;
  grid.clear();
  for (physics::ColliderId id : world_->ids()) {
    const float rho = densityOfCollider_[id.index];
    if (!(rho > 0.0f)) continue;
    const physics::CollisionShape& shape = world_->shape(id);
    grid.addMatter(shape.aabb(t), rho, [&](Vec3 p) { return shape.distance(p, t); });
  }
  grid.solve();
  ++solveCount_;
}

DensityGravity::Key DensityGravity::keyOf(Vec3 p) {
  return {std::bit_cast<std::uint32_t>(p.x), std::bit_cast<std::uint32_t>(p.y),
          std::bit_cast<std::uint32_t>(p.z)};
}

Vec3 DensityGravity::bodyPull(Vec3 p) const {
  const Key key = keyOf(p);
  const auto at = std::lower_bound(atBody_.begin(), atBody_.end(), std::pair(key, 0u));
  if (at != atBody_.end() && at->first == key) return bodyPull_[at->second];
  return bodies_.accel(p, G_, theta_, kSoftening);
}

Vec3 DensityGravity::sample(Vec3 p) const {
  Vec3 g(0.0f);
  if (grid_) g += grid_->sample(p);
  if (bodiesAttract_) g += bodyPull(p);
  return g;
}

void DensityGravity::beginTick(const physics::Simulation& simulation, double /*tStart*/) {
  const std::uint64_t tick = simulation.tick();
  if (grid_ && matterChanges_) {
    const std::uint64_t due = tick - tick % std::uint64_t(cadence_);
    if (due != solvedTick_) {
      solveAt(double(due) * simulation.settings().fixedDt);
      solvedTick_ = due;
    }
  }
  if (bodiesAttract_) {
    const physics::RigidBodySystem& bodies = simulation.bodies();
    bodyPositions_.clear();
    bodyMasses_.clear();
    for (std::uint32_t i = 0; i < bodies.size(); ++i) {
      if (bodies.desc(i).motion != physics::BodyMotion::Dynamic) continue;
      bodyPositions_.push_back(bodies.state(i).position);
      bodyMasses_.push_back(bodies.desc(i).mass);
    }
    bodies_.build(bodyPositions_, bodyMasses_);
    // Each body's pull at its own position, by the grouped walk, keyed by the position's bits.
    bodyPull_.resize(bodyPositions_.size());
    bodies_.accelAll(G_, theta_, kSoftening, bodyPull_);
    atBody_.clear();
    for (std::size_t i = 0; i < bodyPositions_.size(); ++i)
      atBody_.push_back({keyOf(bodyPositions_[i]), std::uint32_t(i)});
    std::sort(atBody_.begin(), atBody_.end());
  }
}

}  // namespace floptle::gravity
