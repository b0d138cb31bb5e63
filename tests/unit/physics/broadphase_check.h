#pragma once
// Shared by the collision-world tests: random colliders, and the check that every query kind
// gives the same bits with the broadphase as with the brute-force scan.
#include <optional>
#include <random>

#include <gtest/gtest.h>

#include "collision_fixtures.h"

namespace floptle::physics::testing {

/// A sphere, box or capsule (by i % 3) of random size and pose in a 40 m cube at the origin.
inline std::unique_ptr<CollisionShape> randomCollider(std::mt19937& rng, int i) {
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  const Vec3 c = (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 40.0f;
  const Quat q = randomRotation(rng);
  const FieldNode node = i % 3 == 0   ? sphereNode(0.2f + U(rng))
                         : i % 3 == 1 ? boxNode(Vec3(0.1f + U(rng), 0.1f + U(rng), 0.1f + U(rng)))
                                      : capsuleNode(Vec3(0, -0.5f, 0), Vec3(0, 0.5f, 0), 0.3f);
  return placed(node, pose(c, q));
}

inline bool sameHit(const std::optional<Hit>& a, const std::optional<Hit>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return a->collider == b->collider && a->distance == b->distance && a->point == b->point &&
         a->normal == b->normal && a->inside == b->inside && a->toi == b->toi;
}

/// Runs `rounds` random rounds of the six query kinds (raycast, spherecast, closest,
/// sphereOverlap, capsuleOverlap, capsule sweep) in a 44 m cube and checks broadphase ==
/// brute force; returns how many queries hit.
inline int expectBroadphaseMatchesBruteForce(CollisionWorld& world, std::uint32_t seed, double t,
                                             int rounds = 200) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> U(0.0f, 1.0f);
  auto point = [&] { return (Vec3(U(rng), U(rng), U(rng)) - 0.5f) * 44.0f; };
  int hits = 0;
  for (int i = 0; i < rounds; ++i) {
    const Vec3 p = point(), d = randomUnit(rng), q = point();
    const float r = 0.05f + 2.0f * U(rng);
    std::optional<Hit> fast[6], slow[6];
    for (int pass = 0; pass < 2; ++pass) {
      world.setUseBroadphase(pass == 0);
      auto* out = pass == 0 ? fast : slow;
      out[0] = world.raycast(Ray{p, d}, 60.0f, t).value();
      out[1] = world.spherecast(p, d, r * 0.3f, 60.0f, t).value();
      out[2] = world.closest(p, t).value();
      out[3] = world.sphereOverlap(p, r, t).value();
      out[4] = world.capsuleOverlap(p, p + d * 3.0f, r * 0.5f, t).value();
      out[5] = world.sweep(SweepShape::capsule(p, p + Vec3(0, 1.5f, 0), 0.3f), q - p, t).value();
    }
    world.setUseBroadphase(true);
    for (int k = 0; k < 6; ++k) {
      EXPECT_TRUE(sameHit(fast[k], slow[k])) << "query " << i << " kind " << k;
      hits += fast[k].has_value() ? 1 : 0;
    }
  }
  return hits;
}

}  // namespace floptle::physics::testing
