#pragma once
// GravityField: the scene's gravity as the field bodies sample (seed 001, tiers 0 and 1):
//   g(p) = global + sum of the regions p is inside + sum of the sources
// Regions: a rotated box (strength x its unit world direction inside) and a sphere (radial,
// in or out, inside). Sources: a point mass, g = -G M (p - c) / |p - c|^3; a uniform ball,
// the same outside its radius and -G M (p - c) / R^3 inside (the shell theorem); a rod,
// g = -2 G lambda (p - c_perp) / |p - c_perp|^2 with c_perp the nearest point of the segment;
// a simple planet, -strength normalize(p - c). A source with rOuter > 0 pulls nothing at or
// past that distance. At a source's singular point (p on a point mass or on the rod) it
// pulls nothing. Tier 2 (sdf): -strength normalize(grad f) clamp(1 - f / range, 0, 1) over the
// surface the field is given (setSurface: the scene's collidable world), the gradient the
// tetrahedron difference of half size epsilon over a tetrahedron and its opposite (the 8
// corners of a cube: symmetric, so a crease pulls along its bisector); inside a baked grid
// of the surface (setBakedSurface, surface_bake.h), f is the grid's trilinear distance and
// the gradient its central difference a cell wide. Nothing without a surface, where f is past
// range, or where the gradient vanishes. Tier 3 (density, bodies as masses): a
// DensityGravity set with setDensity. Absent tiers cost nothing.
#include <memory>
#include <vector>

#include "floptle/core/brickmap/brick_map.h"

#include "floptle/core/scene/gravity_desc.h"
#include "floptle/gravity/density_gravity.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/gravity_sampler.h"

namespace floptle::gravity {

class GravityField final : public physics::GravitySampler {
 public:
  explicit GravityField(scene::GravityFieldDesc desc);

  Vec3 sample(Vec3 p, double t) const override;
  float easingRate() const override { return desc_.sdf ? desc_.sdf->ema : 0.0f; }
  /// The surface the sdf tier pulls onto (does not own it; it must outlive the field or be
  /// replaced). Without one the sdf tier contributes nothing.
  void setSurface(const physics::CollisionWorld* world) { surface_ = world; }
  /// Tier 3 (null: none). Owned with whoever else holds it; its cache follows the simulation
  /// through beginTick.
  void setDensity(std::shared_ptr<DensityGravity> density) { density_ = std::move(density); }
  const DensityGravity* density() const { return density_.get(); }
  void beginTick(const physics::Simulation& simulation, double tStart) const override {
    if (density_) density_->beginTick(simulation, tStart);
  }
  /// The baked, blurred surface the sdf tier reads inside its grid (outside it, the live
  /// difference over setSurface's world); null = none.
  void setBakedSurface(std::shared_ptr<const BrickMap> baked) {
    bakedBounds_ = baked ? baked->gridBounds() : Aabb{};
    baked_ = std::move(baked);
  }
  const BrickMap* bakedSurface() const { return baked_.get(); }
  /// The sdf tier alone at p (m/s^2).
  Vec3 surfacePull(Vec3 p, double t) const;
  const scene::GravityFieldDesc& desc() const { return desc_; }

  /// One term of the sum (m/s^2).
  static Vec3 sphereRegion(const scene::GravitySphereRegion& r, Vec3 p);
  static Vec3 source(const scene::GravitySource& s, float G, Vec3 p);

 private:
  /// A box region as sampled: the world-to-box rotation and the vector it applies.
  struct Box {
    Mat3 toLocal;
    Vec3 center;
    Vec3 halfExtents;
    Vec3 g;  ///< strength x direction (m/s^2)
  };
  static Vec3 box(const Box& b, Vec3 p);

  scene::GravityFieldDesc desc_;
  std::vector<Box> boxes_;
  const physics::CollisionWorld* surface_ = nullptr;
  std::shared_ptr<DensityGravity> density_;
  std::shared_ptr<const BrickMap> baked_;
  Aabb bakedBounds_;  ///< where baked_ answers (its grid)
};

}  // namespace floptle::gravity
