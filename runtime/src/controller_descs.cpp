// The "character" and "vehicle" components of a scene node, checked into controller descs.
#include "floptle/runtime/controller_descs.h"

#include <cmath>
#include <string>

#include "floptle/core/scene/scene.h"

namespace floptle::runtime {
namespace {

using Json = nlohmann::ordered_json;
using physics::CharacterDesc;
using physics::VehicleDesc;
using physics::WheelDesc;
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

}  // namespace floptle::runtime
