// Simulation::fromScene: the scene's nodes, typed into colliders, bodies and controllers.
#include <cmath>

#include <glm/gtx/quaternion.hpp>

#include "floptle/core/field/field_program.h"
#include "floptle/core/scene/scene.h"
#include "floptle/physics/field_collider.h"
#include "floptle/physics/scene_collision.h"
#include "floptle/physics/simulation.h"

namespace floptle::physics {
namespace {

using Json = nlohmann::ordered_json;
constexpr float kDegrees = 3.14159265358979f / 180.0f;

/// Reads an optional number `key` of a component into `out`, checking its range.
Expected<void> readNumber(const Json& c, const char* key, const std::string& where, float lo,
                          float hi, float& out) {
  if (!c.contains(key)) return {};
  const Json& v = c[key];
  if (!v.is_number()) return Error{where + "/" + key, "must be a number"};
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < lo || d > hi)
    return Error{where + "/" + key,
                 "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
  out = static_cast<float>(d);
  return {};
}

Expected<void> readVec3(const Json& c, const char* key, const std::string& where, Vec3& out) {
  if (!c.contains(key)) return {};
  const Json& v = c[key];
  if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number())
    return Error{where + "/" + key, "must be [x, y, z]"};
  Vec3 r(v[0].get<float>(), v[1].get<float>(), v[2].get<float>());
  if (!isFinite(r)) return Error{where + "/" + key, "must be finite"};
  out = r;
  return {};
}

#define FLOPTLE_TRY(expr)          \
  do {                             \
    auto result_ = (expr);         \
    if (!result_) return result_.error(); \
  } while (0)

/// The body of a dynamic node: its shape about the centre of mass, and where the centre is.
struct BodyPlacement {
  BodyShape shape = BodyShape::sphere(0.5f);
  Vec3 centreLocal{0.0f};                 ///< centre of mass in the node frame (m)
  Quat axis{1.0f, 0.0f, 0.0f, 0.0f};      ///< body axes in the node frame
};

Expected<BodyPlacement> bodyFromShape(const field::FieldNode& shape, float scale,
                                      const std::string& where) {
  auto p = [&](int i) { return shape.params[std::size_t(i)].at(0.0) * scale; };
  BodyPlacement b;
  switch (shape.type) {
    case field::NodeType::Sphere:
      b.shape = BodyShape::sphere(p(0));
      return b;
    case field::NodeType::Box:
      b.shape = BodyShape::box(Vec3(p(0), p(1), p(2)));
      return b;
    case field::NodeType::Capsule: {
      const Vec3 a(p(0), p(1), p(2)), e(p(3), p(4), p(5));
      const float half = 0.5f * glm::length(e - a);
      b.shape = BodyShape::capsule(half, p(6));
      b.centreLocal = 0.5f * (a + e) / scale;
      if (half > 1e-6f) b.axis = glm::rotation(Vec3(0, 1, 0), glm::normalize(e - a));
      return b;
    }
    default: {
      auto program = field::FieldProgram::compile(shape);
      if (!program) return Error{where, program.error().message()};
      Vec3 com(0.0f);
      auto convex = BodyShape::convexField(
          std::make_shared<const field::FieldProgram>(std::move(program.value())), com);
      if (!convex) return Error{where, convex.error().what};
      if (scale != 1.0f) return Error{where, "a dynamic field body must have scale 1"};
      b.shape = std::move(convex.value());
      b.centreLocal = com;
      return b;
    }
  }
}

}  // namespace

Expected<CharacterDesc> characterFromNode(const scene::SceneNode& node, const scene::Scene& sc) {
  const Json& c = node.components["character"];
  const std::string where = node.pointer + "/character";
  CharacterDesc d;
  d.name = node.name;
  d.position = node.world.position;
  float slopeDegrees = sc.settings.slopeLimitDegrees;
  FLOPTLE_TRY(readNumber(c, "radius", where, 1e-4f, 1000.0f, d.radius));
  FLOPTLE_TRY(readNumber(c, "height", where, 0.0f, 1000.0f, d.height));
  FLOPTLE_TRY(readNumber(c, "speed", where, 0.0f, 10000.0f, d.speed));
  FLOPTLE_TRY(readNumber(c, "jump_speed", where, 0.0f, 10000.0f, d.jumpSpeed));
  FLOPTLE_TRY(readNumber(c, "slope_limit", where, 0.0f, 90.0f, slopeDegrees));
  FLOPTLE_TRY(readNumber(c, "step_height", where, 0.0f, 1000.0f, d.stepHeight));
  FLOPTLE_TRY(readNumber(c, "mass", where, 1e-3f, 1e6f, d.mass));
  if (d.height < 2.0f * d.radius)
    return Error{where + "/height", "must be at least twice the radius (end to end)"};
  d.slopeLimit = slopeDegrees * kDegrees;
  return d;
}

Expected<VehicleDesc> vehicleFromNode(const scene::SceneNode& node, const scene::Scene& sc) {
  const Json& c = node.components["vehicle"];
  const std::string where = node.pointer + "/vehicle";
  VehicleDesc d;
  d.name = node.name;
  d.position = node.world.position;
  d.rotation = node.world.rotation;
  if (const scene::Material* m = sc.material(node.material)) d.friction = m->friction;
  FLOPTLE_TRY(readVec3(c, "half_extents", where, d.halfExtents));
  if (d.halfExtents.x <= 0 || d.halfExtents.y <= 0 || d.halfExtents.z <= 0)
    return Error{where + "/half_extents", "must be positive"};
  FLOPTLE_TRY(readNumber(c, "mass", where, 1e-3f, 1e7f, d.mass));
  FLOPTLE_TRY(readNumber(c, "anti_roll", where, 0.0f, 1e8f, d.antiRoll));
  if (!c.contains("wheels") || !c["wheels"].is_array() || c["wheels"].empty())
    return Error{where + "/wheels", "a vehicle needs an array of wheels"};
  for (std::size_t i = 0; i < c["wheels"].size(); ++i) {
    const Json& w = c["wheels"][i];
    const std::string at = where + "/wheels/" + std::to_string(i);
    if (!w.is_object()) return Error{at, "a wheel must be an object"};
    WheelDesc wd;
    float steerDegrees = 0.0f;
    FLOPTLE_TRY(readVec3(w, "position", at, wd.position));
    FLOPTLE_TRY(readNumber(w, "radius", at, 1e-3f, 100.0f, wd.radius));
    FLOPTLE_TRY(readNumber(w, "rest_length", at, 0.0f, 100.0f, wd.restLength));
    FLOPTLE_TRY(readNumber(w, "travel", at, 0.0f, 100.0f, wd.travel));
    FLOPTLE_TRY(readNumber(w, "stiffness", at, 0.0f, 1e9f, wd.stiffness));
    FLOPTLE_TRY(readNumber(w, "damping", at, 0.0f, 1e9f, wd.damping));
    FLOPTLE_TRY(readNumber(w, "grip", at, 0.0f, 100.0f, wd.grip));
    FLOPTLE_TRY(readNumber(w, "drive", at, -1e7f, 1e7f, wd.drive));
    FLOPTLE_TRY(readNumber(w, "steer", at, -90.0f, 90.0f, steerDegrees));
    wd.steer = steerDegrees * kDegrees;
    d.wheels.push_back(wd);
  }
  return d;
}

Expected<Simulation> Simulation::fromScene(const scene::Scene& sc, const std::filesystem::path& sceneDir) {
  SimulationSettings settings;
  settings.fixedDt = sc.settings.fixedDt;
  settings.gravity = sc.settings.gravity;
  settings.slopeLimit = sc.settings.slopeLimitDegrees * kDegrees;
  if (!(settings.fixedDt > 0.0) || !std::isfinite(settings.fixedDt))
    return Error{"/settings/fixed_dt", "must be a positive number of seconds"};

  auto built = buildCollisionWorld(sc, sceneDir);
  if (!built) return built.error();
  CollisionWorld world = std::move(built.value());
  // Only fixed geometry answers world queries: moving bodies and controllers are simulated.
  std::vector<SurfaceMaterial> materials(world.size());
  for (ColliderId id = 0; id < world.size(); ++id) {
    const int n = sc.findNode(world.nodeName(id));
    if (n < 0) continue;
    const scene::SceneNode& node = sc.nodes[std::size_t(n)];
    if (world.body(id) == BodyKind::Dynamic || node.hasComponent("character") ||
        node.hasComponent("vehicle") || node.hasComponent("drift"))
      world.setCollidable(id, false);
    if (const scene::Material* m = sc.material(node.material))
      materials[id] = {m->friction, m->restitution, false};
    if (const auto* f = dynamic_cast<const FieldCollider*>(&world.shape(id)))
      materials[id].morphs = f->program().animated();
  }
  Simulation sim(settings, std::move(world), std::move(materials));

  for (const scene::SceneNode& node : sc.nodes) {
    if (node.hasComponent("character")) {
      auto d = characterFromNode(node, sc);
      if (!d) return d.error();
      sim.addCharacter(d.value());
      continue;
    }
    if (node.hasComponent("vehicle")) {
      auto d = vehicleFromNode(node, sc);
      if (!d) return d.error();
      sim.addVehicle(d.value());
      continue;
    }
    if (!node.collider || node.collider->body != scene::BodyType::Dynamic || !node.shape ||
        !node.collider->collidable)
      continue;
    auto placed = bodyFromShape(*node.shape, node.world.scale, node.pointer + "/shape");
    if (!placed) return placed.error();
    RigidBodyDesc d;
    d.name = node.name;
    d.shape = placed->shape;
    d.motion = BodyMotion::Dynamic;
    d.rotation = glm::normalize(node.world.rotation * placed->axis);
    d.position = node.world.applyToPoint(placed->centreLocal);
    const scene::Material* m = sc.material(node.material);
    const scene::Material fallback;
    const scene::Material& mat = m ? *m : fallback;
    d.mass = mat.density * d.shape.volume();
    d.friction = mat.friction;
    d.restitution = mat.restitution;
    if (!(d.mass > 0.0f) || !std::isfinite(d.mass))
      return Error{node.pointer, "a dynamic body needs a positive mass (density x volume)"};
    sim.addBody(d);
  }
  return sim;
}

}  // namespace floptle::physics
