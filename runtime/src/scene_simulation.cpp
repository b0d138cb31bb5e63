// The assembly of a scene's physics simulation, and the tuning it takes live.
#include "floptle/runtime/scene_simulation.h"

#include <cmath>
#include <string_view>
#include <unordered_map>

#include <glm/gtx/quaternion.hpp>

#include "floptle/core/field/field_program.h"
#include "floptle/core/scene/component_values.h"
#include "floptle/core/scene/scene.h"
#include "floptle/gravity/gravity_field.h"
#include "floptle/gravity/mass.h"
#include "floptle/gravity/scene_gravity.h"
#include "floptle/gravity/surface_bake.h"
#include "floptle/physics/mesh_collider.h"
#include "floptle/physics/scene_collision.h"
#include "floptle/runtime/controller_descs.h"
#include "floptle/runtime/scene_matter.h"
#include "floptle/runtime/script_stage.h"
#include "world_surfaces.h"

namespace floptle::runtime {
namespace {

using physics::BodyKind;
using physics::ColliderId;
using physics::CollisionWorld;
using physics::SurfaceMaterial;
constexpr float kDegrees = 3.14159265358979f / 180.0f;

/// The body of a dynamic node: its shape about the centre of mass, and where the centre is.
struct BodyPlacement {
  physics::BodyShape shape = physics::BodyShape::sphere(0.5f);
  Vec3 centreLocal{0.0f};             ///< centre of mass in the node frame (m)
  Quat axis{1.0f, 0.0f, 0.0f, 0.0f};  ///< body axes in the node frame
};

Expected<BodyPlacement> bodyFromShape(const field::FieldNode& shape, float scale,
                                      const std::string& where) {
  auto p = [&](int i) { return shape.params[std::size_t(i)].at(0.0) * scale; };
  BodyPlacement b;
  switch (shape.type) {
    case field::NodeType::Sphere:
      b.shape = physics::BodyShape::sphere(p(0));
      return b;
    case field::NodeType::Box:
      b.shape = physics::BodyShape::box(Vec3(p(0), p(1), p(2)));
      return b;
    case field::NodeType::Capsule: {
      const Vec3 a(p(0), p(1), p(2)), e(p(3), p(4), p(5));
      const float half = 0.5f * glm::length(e - a);
      b.shape = physics::BodyShape::capsule(half, p(6));
      b.centreLocal = 0.5f * (a + e) / scale;
      if (half > 1e-6f) b.axis = glm::rotation(Vec3(0, 1, 0), glm::normalize(e - a));
      return b;
    }
    default: {
      auto program = field::FieldProgram::compile(shape);
      if (!program) return Error{where, program.error().message()};
      Vec3 com(0.0f);
      auto convex = physics::BodyShape::convexField(
          std::make_shared<const field::FieldProgram>(std::move(program.value())), com);
      if (!convex) return Error{where, convex.error().what};
      if (scale != 1.0f) return Error{where, "a dynamic field body must have scale 1"};
      b.shape = std::move(convex.value());
      b.centreLocal = com;
      return b;
    }
  }
}

/// The body of a dynamic mesh node (triangles are no body shape): a box over the mesh's
/// bounds in the node frame, centred on them; the same mesh the node's collider reads,
/// through the same cache.
Expected<BodyPlacement> bodyFromMesh(const scene::SceneNode& node, const BuildOptions& options) {
  const std::string where = node.pointer + "/mesh";
  Transform scaled;
  scaled.scale = node.world.scale;  // the node's own frame, at its scale (m)
  auto request = physics::meshColliderRequest(node.components["mesh"], options.sceneDir, scaled);
  if (!request) return Error{where + request.error().where.substr(4), request.error().what};
  request->bakeField = false;
  auto built = physics::buildMeshCollider(*request, options.meshCache);
  if (!built) return Error{where + "/" + built.error().where, built.error().what};
  const Aabb box = built->mesh->aabb(0.0);
  const Vec3 half = 0.5f * (box.max - box.min);
  if (!(half.x > 0.0f && half.y > 0.0f && half.z > 0.0f))
    return Error{where, "a dynamic mesh body needs a mesh with volume (its bounds are flat)"};
  BodyPlacement b;
  b.shape = physics::BodyShape::box(half);
  b.centreLocal = 0.5f * (box.min + box.max) / node.world.scale;
  return b;
}

/// The scene node of each world collider, by collider index (-1 for a free slot or a name the
/// scene does not hold): one hashed pass, so that a level of 100,000 nodes pays neither a scan
/// of the scene per collider (Scene::findNode) nor a tree's string compares per lookup.
std::vector<int> colliderNodes(const scene::Scene& sc, const CollisionWorld& world) {
  std::unordered_map<std::string_view, int> byName;
  byName.reserve(sc.nodes.size());
  for (std::size_t i = 0; i < sc.nodes.size(); ++i)
    byName.emplace(sc.nodes[i].name, static_cast<int>(i));  // the first, as findNode
  std::vector<int> nodes(world.slotCount(), -1);
  for (ColliderId id : world.ids()) {
    const auto found = byName.find(world.nodeName(id));
    if (found != byName.end()) nodes[id.index] = found->second;
  }
  return nodes;
}

/// worldSurfaces with the collider nodes in hand (colliderNodes).
std::vector<SurfaceMaterial> worldSurfaces(const scene::Scene& sc, const CollisionWorld& world,
                                           const std::vector<int>& nodeOf) {
  std::vector<SurfaceMaterial> surfaces(world.slotCount());
  for (ColliderId id : world.ids()) {
    SurfaceMaterial& surface = surfaces[id.index];
    surface.morphs = world.shape(id).changesWithTime();
    const int n = nodeOf[id.index];
    if (n < 0) continue;
    if (const scene::Material* m = sc.material(sc.nodes[std::size_t(n)].material)) {
      surface.friction = m->friction;
      surface.restitution = m->restitution;
    }
  }
  return surfaces;
}

}  // namespace

std::vector<SurfaceMaterial> worldSurfaces(const scene::Scene& sc, const CollisionWorld& world) {
  return worldSurfaces(sc, world, colliderNodes(sc, world));
}

namespace {

/// The material of a node, or the default material when it names none.
const scene::Material& materialOf(const scene::Scene& sc, const scene::SceneNode& node) {
  static const scene::Material fallback;
  const scene::Material* m = sc.material(node.material);
  return m ? *m : fallback;
}

/// A node's "gravity" receiver component (the defaults without one).
struct GravityReceiver {
  float response = 1.0f;    ///< fraction of g obeyed (-)
  float alignRate = 10.0f;  ///< a character's up easing rate (1/s)
};

Expected<GravityReceiver> gravityReceiverOf(const scene::SceneNode& node) {
  GravityReceiver receiver;
  if (!node.hasComponent("gravity")) return receiver;
  auto in = scene::ComponentReader::open(node.components["gravity"], "gravity",
                                         node.pointer + "/gravity");
  if (!in) return in.error();
  if (auto r = in->number("response", receiver.response); !r) return r.error();
  if (auto r = in->number("align_rate", receiver.alignRate); !r) return r.error();
  return receiver;
}

/// A dynamic node's "collider" velocity at the start (m/s), zero when absent.
Expected<Vec3> startVelocityOf(const scene::SceneNode& node) {
  Vec3 v(0.0f);
  if (!node.hasComponent("collider")) return v;
  auto in = scene::ComponentReader::open(node.components["collider"], "collider",
                                         node.pointer + "/collider");
  if (!in) return in.error();
  if (auto r = in->vec3("velocity", v); !r) return r.error();
  return v;
}

}  // namespace

Expected<physics::Simulation> buildSimulation(const scene::Scene& sc, const BuildOptions& options) {
  physics::SimulationSettings settings;
  settings.fixedDt = sc.settings.fixedDt;
  settings.gravity = sc.settings.gravity;
  settings.slopeLimit = sc.settings.slopeLimitDegrees * kDegrees;
  if (!(settings.fixedDt > 0.0) || !std::isfinite(settings.fixedDt))
    return Error{"/settings/fixed_dt", "must be a positive number of seconds"};

  physics::ColliderBuildOptions colliders;
  colliders.meshCache = options.meshCache;
  colliders.progress = options.progress;
  colliders.cancel = options.cancel;
  auto built = physics::buildCollisionWorld(sc, options.sceneDir, colliders);
  if (!built) return built.error();
  CollisionWorld world = std::move(built.value());
  // Only fixed geometry answers world queries: moving bodies and controllers are simulated.
  const std::vector<int> nodeOf = colliderNodes(sc, world);
  for (ColliderId id : world.ids()) {
    const int n = nodeOf[id.index];
    if (n < 0) continue;
    const scene::SceneNode& node = sc.nodes[std::size_t(n)];
    auto soft = isSoftBody(node);
    if (!soft) return soft.error();
    if (world.body(id) == BodyKind::Dynamic || node.hasComponent("character") ||
        node.hasComponent("vehicle") || node.hasComponent("drift") || soft.value())
      world.setCollidable(id, false);
  }
  std::vector<SurfaceMaterial> surfaces = worldSurfaces(sc, world, nodeOf);
  physics::Simulation sim(settings, std::move(world), std::move(surfaces));
  if (!gravity::isUniform(sc)) {
    auto field = gravity::sceneGravityField(sc);
    if (!field) return field.error();
    auto density = gravity::sceneDensityGravity(sc, field.value(), sim.world());
    if (!density) return density.error();
    auto sampler = std::make_shared<gravity::GravityField>(std::move(field.value()));
    sampler->setSurface(&sim.world());  // the world keeps its address when sim is moved
    sampler->setDensity(std::move(density.value()));
    if (const auto& sdf = sampler->desc().sdf; sdf && sdf->bakedCell > 0.0f) {
      BakeProgress progress;
      if (options.progress)
        progress = [&options](float f, std::string_view) {
          options.progress(f, "baking the surface gravity");
        };
      auto baked = gravity::bakeSurfaceGravity(sim.world(), *sdf, 0.0, progress, options.cancel);
      if (!baked) return Error{"/settings/gravity/sdf/" + baked.error().where, baked.error().what};
      sampler->setBakedSurface(std::move(baked).value());
    }
    sim.setGravitySampler(std::move(sampler));
  }

  for (const scene::SceneNode& node : sc.nodes) {
    auto receiver = gravityReceiverOf(node);
    if (!receiver) return receiver.error();
    if (node.hasComponent("character")) {
      auto d = characterFromNode(node, sc);
      if (!d) return d.error();
      d->gravityResponse = receiver->response;
      d->alignRate = receiver->alignRate;
      sim.addCharacter(d.value());
      continue;
    }
    if (node.hasComponent("vehicle")) {
      auto d = vehicleFromNode(node, sc);
      if (!d) return d.error();
      d->gravityResponse = receiver->response;
      sim.addVehicle(d.value());
      continue;
    }
    if (!node.collider || node.collider->body != scene::BodyType::Dynamic ||
        !node.collider->collidable)
      continue;
    if (!node.shape && !node.hasComponent("mesh")) continue;
    if (auto soft = isSoftBody(node); !soft || soft.value()) continue;  // read above
    auto placed = node.shape ? bodyFromShape(*node.shape, node.world.scale, node.pointer + "/shape")
                             : bodyFromMesh(node, options);
    if (!placed) return placed.error();
    physics::RigidBodyDesc d;
    d.name = node.name;
    d.shape = placed->shape;
    d.motion = physics::BodyMotion::Dynamic;
    d.rotation = glm::normalize(node.world.rotation * placed->axis);
    d.position = node.world.applyToPoint(placed->centreLocal);
    const scene::Material& mat = materialOf(sc, node);
    d.mass = gravity::massOf(mat.density, d.shape.volume());
    d.friction = mat.friction;
    d.restitution = mat.restitution;
    d.gravityResponse = receiver->response;
    auto velocity = startVelocityOf(node);
    if (!velocity) return velocity.error();
    d.linearVelocity = *velocity;
    if (!(d.mass > 0.0f) || !std::isfinite(d.mass))
      return Error{node.pointer, "a dynamic body needs a positive mass (density x volume)"};
    sim.addBody(d);
  }
  auto soft = buildSoftBodies(sc, sim.world());
  if (!soft) return soft.error();
  if (soft.value()) sim.setMatterStage(std::move(soft.value()));
  const nlohmann::ordered_json noScripts = nlohmann::ordered_json::array();
  const nlohmann::ordered_json& sceneScripts =
      options.sceneScripts ? *options.sceneScripts : noScripts;
  auto scripts =
      ScriptStage::build(sc, sceneScripts, options.sceneDir, scriptSeed(sc, sceneScripts));
  if (!scripts) return scripts.error();
  if (scripts.value()) sim.setScriptStage(std::move(scripts.value()));
  return sim;
}

void applyTuning(const scene::Scene& sc, physics::Simulation& sim) {
  sim.bodies().setWorldMaterials(worldSurfaces(sc, sim.world()));
  for (std::uint32_t i = 0; i < sim.bodies().size(); ++i) {
    physics::RigidBodyDesc& desc = sim.bodies().desc(i);
    const int n = sc.findNode(desc.name);
    if (n < 0) continue;
    const scene::Material& mat = materialOf(sc, sc.nodes[std::size_t(n)]);
    desc.friction = mat.friction;
    desc.restitution = mat.restitution;
    if (desc.motion == physics::BodyMotion::Dynamic) {
      const float mass = gravity::massOf(mat.density, desc.shape.volume());
      if (mass > 0.0f && std::isfinite(mass) && mass != desc.mass) {
        desc.mass = mass;
        sim.bodies().refreshMass(i);
      }
    }
    sim.bodies().wake(i);
  }
  // Controllers: only the tunable values are taken; the rest is fixed at build.
  for (physics::CharacterController& c : sim.characters()) {
    const int n = sc.findNode(c.desc().name);
    if (n < 0) continue;
    const auto tuned = characterFromNode(sc.nodes[std::size_t(n)], sc);
    if (!tuned) continue;
    physics::CharacterDesc& d = c.desc();
    d.speed = tuned->speed;
    d.jumpSpeed = tuned->jumpSpeed;
    d.stepHeight = tuned->stepHeight;
    d.slopeLimit = tuned->slopeLimit;
  }
  for (physics::Vehicle& v : sim.vehicles()) {
    const int n = sc.findNode(v.desc().name);
    if (n < 0) continue;
    const auto tuned = vehicleFromNode(sc.nodes[std::size_t(n)], sc);
    if (!tuned) continue;
    physics::VehicleDesc& d = v.desc();
    d.antiRoll = tuned->antiRoll;
    d.friction = tuned->friction;
    for (std::size_t w = 0; w < d.wheels.size() && w < tuned->wheels.size(); ++w) {
      physics::WheelDesc& wd = d.wheels[w];
      const physics::WheelDesc& t = tuned->wheels[w];
      wd.stiffness = t.stiffness;
      wd.damping = t.damping;
      wd.grip = t.grip;
      wd.drive = t.drive;
      wd.steer = t.steer;
    }
  }
}

Expected<void> recomposeStatics(const scene::Scene& sc, physics::Simulation& sim) {
  auto added = physics::recomposeBlendedColliders(sc, sim.world(), sim.time());
  if (!added) return added.error();
  sim.bodies().setWorldMaterials(worldSurfaces(sc, sim.world()));
  for (std::uint32_t i = 0; i < sim.bodies().size(); ++i) sim.bodies().wake(i);
  return {};
}

}  // namespace floptle::runtime
