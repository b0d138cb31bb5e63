// sceneGravityField: the settings' gravity plus the nodes' emitters; sceneDensityGravity: the
// density tier's matter.
#include "floptle/gravity/scene_gravity.h"

#include <cmath>

#include "floptle/core/field/field_program.h"
#include "floptle/core/scene/component_values.h"
#include "floptle/core/scene/scene.h"
#include "floptle/gravity/density_gravity.h"
#include "floptle/gravity/mass.h"
#include "floptle/physics/collision_world.h"

namespace floptle::gravity {
namespace {

constexpr float kPi = 3.14159265358979f;

/// The density of a node's material (kg/m^3); the default material's without one.
float densityOf(const scene::Scene& sc, const scene::SceneNode& node) {
  const scene::Material* m = sc.material(node.material);
  return m ? m->density : scene::Material{}.density;
}

/// A "newtonian" emitter: a uniform ball of the node's mass at its world centroid.
Expected<scene::GravitySource> newtonianSource(const scene::Scene& sc, const scene::SceneNode& node,
                                               const std::string& where) {
  if (!node.shape) return Error{where, "a newtonian emitter needs the node's shape (its volume)"};
  auto program = field::FieldProgram::compile(*node.shape);
  if (!program) return Error{node.pointer + "/shape", program.error().message()};
  auto v = fieldVolume(program.value(), 0.0, where);
  if (!v) return v.error();
  const float scale = node.world.scale;
  const float volume = v->volume * scale * scale * scale;
  scene::GravitySource s;
  s.type = scene::GravitySource::Type::Sphere;
  s.center = node.world.applyToPoint(v->centroid);
  s.mass = massOf(densityOf(sc, node), volume);
  s.radius = std::cbrt(3.0f * volume / (4.0f * kPi));
  return s;
}

}  // namespace

bool isUniform(const scene::Scene& sc) {
  if (sc.settings.gravityField) return false;
  for (const scene::SceneNode& node : sc.nodes)
    if (node.hasComponent("gravity_source")) return false;
  return true;
}

Expected<scene::GravityFieldDesc> sceneGravityField(const scene::Scene& sc) {
  scene::GravityFieldDesc desc;
  if (sc.settings.gravityField)
    desc = *sc.settings.gravityField;
  else
    desc.global = sc.settings.gravity;
  for (const scene::SceneNode& node : sc.nodes) {
    if (!node.hasComponent("gravity_source")) continue;
    const std::string where = node.pointer + "/gravity_source";
    auto in =
        scene::ComponentReader::open(node.components["gravity_source"], "gravity_source", where);
    if (!in) return in.error();
    std::string type;
    scene::GravitySource s;
    s.type = scene::GravitySource::Type::Planet;
    s.center = node.world.position;
    if (auto r = scene::firstRefusal({in->onlyKnownKeys(), in->string("type", type),
                                      in->number("strength", s.strength),
                                      in->number("r_outer", s.rOuter)});
        !r)
      return r.error();
    if (type == "newtonian") {
      if (in->has("strength"))
        return Error{where + "/strength",
                     "a newtonian emitter pulls with its mass (material density x volume), "
                     "not a strength"};
      auto ball = newtonianSource(sc, node, where);
      if (!ball) return ball.error();
      ball->rOuter = s.rOuter;
      s = ball.value();
    }
    desc.sources.push_back(s);
  }
  return desc;
}

Expected<std::shared_ptr<DensityGravity>> sceneDensityGravity(
    const scene::Scene& sc, const scene::GravityFieldDesc& desc,
    const physics::CollisionWorld& world) {
  if (!desc.density && !desc.bodiesAttract) return std::shared_ptr<DensityGravity>();
  std::vector<float> density(world.slotCount(), 0.0f);
  for (physics::ColliderId id : world.ids()) {
    const int n = sc.findNode(world.nodeName(id));
    if (n < 0) continue;
    const scene::SceneNode& node = sc.nodes[std::size_t(n)];
    if (node.collider &&
        (!node.collider->collidable || node.collider->body == scene::BodyType::Dynamic))
      continue;
    if (node.hasComponent("character") || node.hasComponent("vehicle") ||
        node.hasComponent("drift"))
      continue;
    density[id.index] = densityOf(sc, node);
  }
  auto made = DensityGravity::create(desc, world, std::move(density), "/settings/gravity");
  if (!made) return made.error();
  return std::shared_ptr<DensityGravity>(std::move(made.value()));
}

}  // namespace floptle::gravity
