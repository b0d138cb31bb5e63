#pragma once
// Shared by the collision tests: field nodes for the primitives, a world of placed field
// colliders, and closed-form (double precision) references for distances and ray entries.
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "floptle/core/field/field_node.h"
#include "floptle/core/field/node_spec.h"
#include "floptle/core/math.h"
#include "floptle/physics/collision_world.h"
#include "floptle/physics/field_collider.h"

namespace floptle::physics::testing {

using field::FieldNode;
using field::NodeType;
using DV = glm::dvec3;

inline FieldNode sphereNode(float r) {
  FieldNode n = field::makeDefaultNode(NodeType::Sphere);
  n.params[0] = r;
  return n;
}
/// The same sphere as the only child of a union: a field FieldCollider does not recognise as
/// one sphere, so casts against it are sphere-marched instead of answered in closed form.
inline FieldNode marchedSphereNode(float r) {
  FieldNode u = field::makeDefaultNode(NodeType::Union);
  u.children.push_back(sphereNode(r));
  return u;
}
inline FieldNode boxNode(Vec3 h) {
  FieldNode n = field::makeDefaultNode(NodeType::Box);
  for (int i = 0; i < 3; ++i) n.params[static_cast<std::size_t>(i)] = h[i];
  return n;
}
inline FieldNode capsuleNode(Vec3 a, Vec3 b, float r) {
  FieldNode n = field::makeDefaultNode(NodeType::Capsule);
  for (int i = 0; i < 3; ++i) {
    n.params[static_cast<std::size_t>(i)] = a[i];
    n.params[static_cast<std::size_t>(3 + i)] = b[i];
  }
  n.params[6] = r;
  return n;
}
inline FieldNode planeNode(Vec3 normal, float offset) {
  FieldNode n = field::makeDefaultNode(NodeType::Plane);
  for (int i = 0; i < 3; ++i) n.params[static_cast<std::size_t>(i)] = normal[i];
  n.params[3] = offset;
  return n;
}

inline std::unique_ptr<CollisionShape> placed(const FieldNode& node, const Transform& world) {
  auto c = FieldCollider::make(node, world);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message());
  if (!c.ok()) return nullptr;
  return std::make_unique<FieldCollider>(std::move(c.value()));
}

inline Transform pose(Vec3 position, Quat rotation = Quat(1, 0, 0, 0)) {
  Transform t;
  t.position = position;
  t.rotation = rotation;
  return t;
}

inline Quat randomRotation(std::mt19937& rng) {
  std::normal_distribution<float> g(0.0f, 1.0f);
  return glm::normalize(Quat(g(rng), g(rng), g(rng), g(rng)));
}
inline Vec3 randomUnit(std::mt19937& rng) {
  std::normal_distribution<float> g(0.0f, 1.0f);
  Vec3 v;
  do v = Vec3(g(rng), g(rng), g(rng));
  while (glm::length(v) < 1e-3f);
  return glm::normalize(v);
}

// ---- closed forms (double) -------------------------------------------------------------

/// Entry distance of a ray (unit d) into a sphere, or nullopt.
/// Every reference re-normalizes d in double: a float-normalized direction is unit only to
/// ~6e-8, which the capsule's quadratic amplifies past 1e-4 m for rays near its axis.
inline std::optional<double> rayEnterSphere(DV o, DV d, DV c, double r) {
  d = glm::normalize(d);
  DV oc = o - c;
  double b = glm::dot(oc, d), cc = glm::dot(oc, oc) - r * r;
  double h = b * b - cc;
  if (h < 0) return std::nullopt;
  double s = -b - std::sqrt(h);
  if (s < 0) return std::nullopt;
  return s;
}

/// Entry distance into an axis-aligned box centred at 0 (half extents h), ray in box space.
inline std::optional<double> rayEnterBox(DV o, DV d, DV h) {
  d = glm::normalize(d);
  double t0 = 0, t1 = 1e300;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d[i]) < 1e-300) {
      if (std::abs(o[i]) > h[i]) return std::nullopt;
      continue;
    }
    double a = (-h[i] - o[i]) / d[i], b = (h[i] - o[i]) / d[i];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return std::nullopt;
  }
  return t0;
}

/// Entry distance into a capsule (segment pa..pb, radius r) (after Inigo Quilez).
inline std::optional<double> rayEnterCapsule(DV o, DV d, DV pa, DV pb, double r) {
  d = glm::normalize(d);
  DV ba = pb - pa, oa = o - pa;
  double baba = glm::dot(ba, ba), bard = glm::dot(ba, d), baoa = glm::dot(ba, oa);
  double rdoa = glm::dot(d, oa), oaoa = glm::dot(oa, oa);
  double a = baba - bard * bard, b = baba * rdoa - baoa * bard;
  double c = baba * oaoa - baoa * baoa - r * r * baba;
  double h = b * b - a * c;
  if (a > 1e-12 && h >= 0) {
    double s = (-b - std::sqrt(h)) / a;
    double y = baoa + s * bard;
    if (y > 0 && y < baba) return s >= 0 ? std::optional<double>(s) : std::nullopt;
  }
  // End caps: the nearer entry of the two end spheres.
  std::optional<double> best;
  for (DV e : {pa, pb}) {
    auto s = rayEnterSphere(o, d, e, r);
    if (s && (!best || *s < *best)) best = s;
  }
  return best;
}

/// Entry into a box of half extents h rounded by r (the Minkowski sum a sphere cast sees):
/// the three boxes grown along one axis and the twelve edge capsules.
inline std::optional<double> rayEnterRoundedBox(DV o, DV d, DV h, double r) {
  std::optional<double> best;
  auto take = [&](std::optional<double> s) {
    if (s && (!best || *s < *best)) best = s;
  };
  for (int axis = 0; axis < 3; ++axis) {
    DV g = h;
    g[axis] += r;
    take(rayEnterBox(o, d, g));
  }
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    for (int su = -1; su <= 1; su += 2)
      for (int sv = -1; sv <= 1; sv += 2) {
        DV a(0.0), b(0.0);
        a[axis] = -h[axis];
        b[axis] = h[axis];
        a[u] = b[u] = su * h[u];
        a[v] = b[v] = sv * h[v];
        take(rayEnterCapsule(o, d, a, b, r));
      }
  }
  return best;
}

inline double sdBox(DV p, DV h) {
  DV q = glm::abs(p) - h;
  return glm::length(glm::max(q, DV(0.0))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0);
}

inline DV toD(Vec3 v) {
  return DV(v);
}

}  // namespace floptle::physics::testing
