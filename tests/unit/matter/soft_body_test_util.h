#pragma once
// Helpers for the soft-body tests: a world with a floor, and soft bodies built from closed
// form shapes (the same lattice cage buildSimulation makes from a node's collider).
#include <gtest/gtest.h>

#include "../physics/collision_fixtures.h"
#include "floptle/matter/soft_body.h"

namespace floptle::matter::test {

/// A world whose only collider is the plane y = 0 (solid below).
inline physics::CollisionWorld floorWorld() {
  physics::CollisionWorld world;
  world.add(physics::testing::placed(physics::testing::planeNode(Vec3(0, 1, 0), 0.0f),
                                     physics::testing::pose(Vec3(0))),
            "floor");
  return world;
}

/// A soft cube of half size `half` centred at `centre`.
inline SoftBody softCube(Vec3 centre, float half, SoftBodyKnobs knobs,
                         const ViscoKnobs* visco = nullptr) {
  SoftBodyDesc desc;
  desc.name = "cube";
  desc.knobs = knobs;
  if (visco) desc.visco = true, desc.viscoKnobs = *visco;
  auto field = [=](Vec3 p) {
    const Vec3 q = glm::abs(p - centre) - Vec3(half);
    return glm::length(glm::max(q, Vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
  };
  auto body = SoftBody::build(desc, field, Aabb{centre - Vec3(half), centre + Vec3(half)}, "/t");
  EXPECT_TRUE(body) << (body ? "" : body.error().message());
  return std::move(body.value());
}

/// A soft box of half sizes `half` centred at `centre`, from a whole description (material
/// constants included).
inline SoftBody softBox(Vec3 centre, Vec3 half, const SoftBodyDesc& desc) {
  auto field = [=](Vec3 p) {
    const Vec3 q = glm::abs(p - centre) - half;
    return glm::length(glm::max(q, Vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
  };
  auto body = SoftBody::build(desc, field, Aabb{centre - half, centre + half}, "/t");
  EXPECT_TRUE(body) << (body ? "" : body.error().message());
  return std::move(body.value());
}

/// A soft ball of radius r centred at `centre`.
inline SoftBody softBall(Vec3 centre, float r, SoftBodyKnobs knobs) {
  SoftBodyDesc desc;
  desc.name = "ball";
  desc.knobs = knobs;
  auto field = [=](Vec3 p) { return glm::length(p - centre) - r; };
  auto body = SoftBody::build(desc, field, Aabb{centre - Vec3(r), centre + Vec3(r)}, "/t");
  EXPECT_TRUE(body) << (body ? "" : body.error().message());
  return std::move(body.value());
}

}  // namespace floptle::matter::test
