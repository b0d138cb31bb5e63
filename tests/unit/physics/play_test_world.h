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
inline float degrees(float d) { return d * kPi / 180.0f; }

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

/// A world of field colliders and the surface material of each.
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

  Simulation simulation(SimulationSettings settings) {
    return Simulation(settings, std::move(world), std::move(materials));
  }
};

/// A slope through the origin descending towards +x at angle theta (rad).
inline Vec3 slopeNormal(float theta) { return Vec3(std::sin(theta), std::cos(theta), 0.0f); }
/// Unit vector down the slope.
inline Vec3 downSlope(float theta) { return Vec3(std::cos(theta), -std::sin(theta), 0.0f); }

}  // namespace floptle::physics::testing
