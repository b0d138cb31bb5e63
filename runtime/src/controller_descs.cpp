// The "character" and "vehicle" components of a scene node, checked into controller descs.
#include "floptle/runtime/controller_descs.h"

#include <string>

#include "floptle/core/scene/component_values.h"
#include "floptle/core/scene/scene.h"

namespace floptle::runtime {
namespace {

using physics::CharacterDesc;
using physics::VehicleDesc;
using physics::WheelDesc;
constexpr float kDegrees = 3.14159265358979f / 180.0f;

}  // namespace

Expected<CharacterDesc> characterFromNode(const scene::SceneNode& node, const scene::Scene& sc) {
  const std::string where = node.pointer + "/character";
  auto in = scene::ComponentReader::open(node.components["character"], "character", where);
  if (!in) return in.error();
  CharacterDesc d;
  d.name = node.name;
  d.position = node.world.position;
  float slopeDegrees = sc.settings.slopeLimitDegrees;
  auto read = scene::firstRefusal(
      {in->number("radius", d.radius), in->number("height", d.height), in->number("speed", d.speed),
       in->number("jump_speed", d.jumpSpeed), in->number("slope_limit", slopeDegrees),
       in->number("step_height", d.stepHeight), in->number("mass", d.mass)});
  if (!read) return read.error();
  if (d.height < 2.0f * d.radius)
    return Error{where + "/height", "must be at least twice the radius (end to end)"};
  d.slopeLimit = slopeDegrees * kDegrees;
  return d;
}

Expected<VehicleDesc> vehicleFromNode(const scene::SceneNode& node, const scene::Scene& sc) {
  auto in = scene::ComponentReader::open(node.components["vehicle"], "vehicle",
                                         node.pointer + "/vehicle");
  if (!in) return in.error();
  VehicleDesc d;
  d.name = node.name;
  d.position = node.world.position;
  d.rotation = node.world.rotation;
  if (const scene::Material* m = sc.material(node.material)) d.friction = m->friction;
  auto read =
      scene::firstRefusal({in->vec3("half_extents", d.halfExtents), in->number("mass", d.mass),
                           in->number("anti_roll", d.antiRoll)});
  if (!read) return read.error();
  auto wheels = in->objects("wheels");
  if (!wheels) return wheels.error();
  for (const scene::ComponentReader& w : *wheels) {
    WheelDesc wd;
    float steerDegrees = 0.0f;
    auto wheel = scene::firstRefusal(
        {w.vec3("position", wd.position), w.number("radius", wd.radius),
         w.number("rest_length", wd.restLength), w.number("travel", wd.travel),
         w.number("stiffness", wd.stiffness), w.number("damping", wd.damping),
         w.number("grip", wd.grip), w.number("drive", wd.drive), w.number("steer", steerDegrees)});
    if (!wheel) return wheel.error();
    wd.steer = steerDegrees * kDegrees;
    d.wheels.push_back(wd);
  }
  return d;
}

}  // namespace floptle::runtime
