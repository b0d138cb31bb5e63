#pragma once
// Small worlds for the play-mode tests: analytic field colliders built from field nodes.
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "floptle/core/field/field_node.h"
#include "floptle/core/field/node_spec.h"
#include "floptle/physics/field_collider.h"
#include "floptle/physics/simulation.h"

namespace floptle::physics::testing {

inline constexpr float kPi = 3.14159265358979f;
inline float degrees(float d) {
  return d * kPi / 180.0f;
}

inline void setParam(field::FieldNode& node, const char* key, std::vector<float> values) {
  const int offset = field::paramSlotOffset(node.type, key);
  for (std::size_t i = 0; i < values.size(); ++i) node.params[std::size_t(offset) + i] = values[i];
}

/// Half-space below the plane dot(p, n) = offset.
inline field::FieldNode planeNode(Vec3 normal, float offset = 0.0f) {
  field::FieldNode n = field::makeDefaultNode(field::NodeType::Plane);
  setParam(n, "normal", {normal.x, normal.y, normal.z});
  setParam(n, "offset", {offset});
  return n;
}

inline field::FieldNode boxNode(Vec3 half) {
  field::FieldNode n = field::makeDefaultNode(field::NodeType::Box);
  setParam(n, "half_extents", {half.x, half.y, half.z});
  return n;
}

/// Closed-form test colliders (independent of the field interpreter).
/// Half-space below dot(p, n) = offset(t); offset = base + rate t + amplitude sin(2 pi f t).
struct PlaneShape final : CollisionShape {
  Vec3 n{0, 1, 0};
  Vec3 origin{0.0f};
  float amplitude = 0.0f, frequency = 0.0f;
  float offset(double t) const {
    return amplitude * float(std::sin(2.0 * 3.14159265358979 * double(frequency) * t));
  }
  float distance(Vec3 p, double t) const override { return glm::dot(p - origin, n) - offset(t); }
  Vec3 normal(Vec3, double) const override { return n; }
  Aabb aabb(double) const override { return {Vec3(-1e30f), Vec3(1e30f)}; }
};

/// Axis-aligned box (half extents h) centred at c.
struct BoxShape final : CollisionShape {
  Vec3 c{0.0f}, h{0.5f};
  float distance(Vec3 p, double) const override {
    Vec3 q = glm::abs(p - c) - h;
    return glm::length(glm::max(q, Vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
  }
  Vec3 normal(Vec3 p, double t) const override {
    const float e = 1e-4f;
    Vec3 g(distance(p + Vec3(e, 0, 0), t) - distance(p - Vec3(e, 0, 0), t),
           distance(p + Vec3(0, e, 0), t) - distance(p - Vec3(0, e, 0), t),
           distance(p + Vec3(0, 0, e), t) - distance(p - Vec3(0, 0, e), t));
    return glm::normalize(g);
  }
  Aabb aabb(double) const override { return Aabb::fromCenterHalf(c, h); }
};

inline std::unique_ptr<CollisionShape> plane(Vec3 normal, Vec3 origin = Vec3(0.0f)) {
  auto s = std::make_unique<PlaneShape>();
  s->n = glm::normalize(normal);
  s->origin = origin;
  return s;
}
inline std::unique_ptr<CollisionShape> box(Vec3 centre, Vec3 half) {
  auto s = std::make_unique<BoxShape>();
  s->c = centre;
  s->h = half;
  return s;
}

/// A world of colliders and the surface material of each.
struct TestWorld {
  CollisionWorld world;
  std::vector<SurfaceMaterial> materials;

  void add(const field::FieldNode& shape, const Transform& at, SurfaceMaterial material,
           std::string name = "ground") {
    auto collider = FieldCollider::make(shape, at);
    if (!collider.ok()) throw std::runtime_error(collider.error().message());
    material.morphs = collider.value().program().animated();
    world.add(std::make_unique<FieldCollider>(std::move(collider.value())), std::move(name));
    materials.push_back(material);
  }

  void add(std::unique_ptr<CollisionShape> shape, SurfaceMaterial material, bool morphs = false,
           std::string name = "ground") {
    material.morphs = morphs;
    world.add(std::move(shape), std::move(name));
    materials.push_back(material);
  }

  Simulation simulation(SimulationSettings settings) {
    return Simulation(settings, std::move(world), std::move(materials));
  }
};

/// A slope through the origin descending towards +x at angle theta (rad).
inline Vec3 slopeNormal(float theta) {
  return Vec3(std::sin(theta), std::cos(theta), 0.0f);
}
/// Unit vector down the slope.
inline Vec3 downSlope(float theta) {
  return Vec3(std::cos(theta), -std::sin(theta), 0.0f);
}

}  // namespace floptle::physics::testing
