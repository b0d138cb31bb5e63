#pragma once
// Shared by the baked-field simulation tests: a sphere whose radius grows with time, baked
// into the only collider of a simulation without gravity, and a pebble to put near it.
#include <memory>

#include <gtest/gtest.h>

#include "floptle/physics/baked_field_collider.h"
#include "floptle/physics/simulation.h"

namespace floptle::physics::testing {

/// Sphere about the origin whose radius grows: r(t) = 1 + 0.25 t (m). Its box covers r <= 2.
class GrowingSphere final : public CollisionShape {
 public:
  static float radius(double t) { return 1.0f + 0.25f * static_cast<float>(t); }
  float distance(Vec3 p, double t) const override { return glm::length(p) - radius(t); }
  Vec3 normal(Vec3 p, double) const override { return glm::normalize(p); }
  Aabb aabb(double) const override { return Aabb::fromCenterHalf(Vec3(0.0f), Vec3(2.0f)); }
};

inline constexpr float kCell = 0.1f;

/// The growing sphere baked at t = 0 (cells kCell, re-bake radius 1 m) as collider "blob".
inline Simulation simulationWithBakedSphere(float nearRadius, int budget, int threads = 1) {
  BakedFieldSettings settings;
  settings.cellSize = kCell;
  settings.nearRadius = nearRadius;
  settings.rebakeBudget = budget;
  settings.rebakeRadius = 1.0f;
  settings.threads = threads;
  auto baked = BakedFieldCollider::bake(std::make_unique<GrowingSphere>(), settings, 0.0);
  EXPECT_TRUE(baked.ok());
  CollisionWorld world;
  world.add(std::move(baked).value(), "blob");
  SimulationSettings sim;
  sim.gravity = Vec3(0.0f);
  return Simulation(sim, std::move(world), {SurfaceMaterial{0.5f, 0.0f, true}});
}

/// The simulation's baked collider (its first).
inline const BakedFieldCollider& bakedBlob(const Simulation& sim) {
  return static_cast<const BakedFieldCollider&>(sim.world().shape(*sim.world().ids().begin()));
}

inline RigidBodyDesc pebbleAt(Vec3 p, Vec3 velocity = Vec3(0.0f)) {
  RigidBodyDesc d;
  d.name = "pebble";
  d.shape = BodyShape::sphere(0.02f);
  d.position = p;
  d.linearVelocity = velocity;
  return d;
}

}  // namespace floptle::physics::testing
