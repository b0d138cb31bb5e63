// The `gravity` table (seed 001 section 7):
//   gravity.sample(p) -> vec3: the gravity the simulation samples at p now (m/s^2), the same
//     field `floptle query`'s gravity op answers, no receiver's response.
//   gravity.set_response(node, r): the fraction of g the node's body, character or vehicle
//     obeys from this tick on (-).
//   gravity.align_to_field(node, on [, rate]): a character's up follows -g at `rate` (1/s,
//     default 10) or stays as it is (false).
//   gravity.set_mode(node, "global" | "sources" | "sdf_surface" | "density", opts): picks the
//     tier of the scene's field: "global" {strength (m/s^2), direction (vec3, default down)},
//     "sources" (the scene's and the added sources), "sdf_surface" {strength, range (m)}.
//     The simulation samples one field for every body, so the mode is the scene's (node only
//     names the asker); "density" cannot be switched on by a script (the scene's density
//     tier is built with the simulation).
//   gravity.add_source(node, {mass (kg), g_const (m^3/(kg s^2)), r_outer (m)}): a point mass
//     at the node's position now, pulling g_const m / d^2 towards it.
#include <cmath>

#include "floptle/gravity/gravity_field.h"
#include "script/script_context.h"
#include "script/vec3.h"

namespace floptle::runtime::script {
namespace {

int sample(lua_State* L) {
  const Vec3 p = checkVec3(L, 1);
  physics::Simulation& sim = simulationOf(L);
  pushVec3(L, sim.gravityAt(p, contextOf(L).time));
  return 1;
}

int setResponse(lua_State* L) {
  const int node = checkNode(L, 1, "gravity.set_response");
  const double r = luaL_checknumber(L, 2);
  if (!std::isfinite(r) || r < -100.0 || r > 100.0)
    return luaL_error(L, "gravity.set_response: r must be a finite number in [-100, 100]");
  const float response = static_cast<float>(r);
  const NodeParts parts = partsOf(L, nodeAt(L, node));
  physics::Simulation& sim = simulationOf(L);
  auto setBody = [&](std::uint32_t i) {
    physics::RigidBodyDesc& d = sim.bodies().desc(i);
    d.gravityResponse = response;
    sim.bodies().wake(i);
  };
  if (parts.body) {
    setBody(parts.body->index);
  } else if (parts.character) {
    sim.characters()[parts.character->index].desc().gravityResponse = response;
  } else if (parts.vehicle) {
    physics::Vehicle& v = sim.vehicles()[parts.vehicle->index];
    v.desc().gravityResponse = response;
    setBody(v.chassis());
  } else {
    return luaL_error(L, "gravity.set_response: '%s' is not a dynamic body, character or vehicle",
                      nodeAt(L, node).name.c_str());
  }
  return 0;
}

int alignToField(lua_State* L) {
  const int node = checkNode(L, 1, "gravity.align_to_field");
  luaL_checktype(L, 2, LUA_TBOOLEAN);
  const bool on = lua_toboolean(L, 2);
  const double rate = luaL_optnumber(L, 3, 10.0);
  if (!std::isfinite(rate) || rate < 0.0)
    return luaL_error(L, "gravity.align_to_field: rate must be a number >= 0 (1/s)");
  const NodeParts parts = partsOf(L, nodeAt(L, node));
  if (!parts.character)
    return luaL_error(L, "gravity.align_to_field: '%s' is not a character",
                      nodeAt(L, node).name.c_str());
  simulationOf(L).characters()[parts.character->index].desc().alignRate =
      on ? static_cast<float>(rate) : 0.0f;
  return 0;
}

/// Installs ctx.gravity into the simulation: a constant vector stays uniform gravity (no
/// sampler), anything else becomes a GravityField over the simulation's world.
void installField(lua_State* L) {
  ScriptContext& ctx = contextOf(L);
  physics::Simulation& sim = simulationOf(L);
  const scene::GravityFieldDesc& d = ctx.gravity;
  if (d.boxes.empty() && d.spheres.empty() && d.sources.empty() && !d.sdf && !d.density &&
      !d.bodiesAttract) {
    sim.settings().gravity = d.global.value_or(Vec3(0.0f));
    sim.setGravitySampler(nullptr);
    return;
  }
  auto field = std::make_shared<gravity::GravityField>(d);
  field->setSurface(&sim.world());
  sim.setGravitySampler(std::move(field));
}

int setMode(lua_State* L) {
  checkNode(L, 1, "gravity.set_mode");
  const std::string mode = luaL_checkstring(L, 2);
  ScriptContext& ctx = contextOf(L);
  scene::GravityFieldDesc d;
  d.G = ctx.gravity.G;
  if (mode == "global") {
    const float strength = optNumberField(L, 3, "strength", 9.81f, "gravity.set_mode");
    Vec3 direction(0.0f, -1.0f, 0.0f);
    if (lua_istable(L, 3)) {
      lua_getfield(L, 3, "direction");
      if (!lua_isnil(L, -1)) direction = checkVec3(L, lua_gettop(L));
      lua_pop(L, 1);
    }
    const float length = glm::length(direction);
    if (!(length > 0.0f)) return luaL_error(L, "gravity.set_mode: direction must not be zero");
    d.global = strength * direction / length;
  } else if (mode == "sources") {
    d.sources = ctx.gravity.sources;
  } else if (mode == "sdf_surface") {
    scene::GravitySdfDesc sdf;
    sdf.strength = optNumberField(L, 3, "strength", sdf.strength, "gravity.set_mode");
    sdf.range = optNumberField(L, 3, "range", sdf.range, "gravity.set_mode");
    if (!(sdf.range > 0.0f)) return luaL_error(L, "gravity.set_mode: range must be > 0 (m)");
    d.sdf = sdf;
    d.sources = {};
  } else if (mode == "density") {
    return luaL_error(L,
                      "gravity.set_mode: 'density' cannot be switched on by a script (the "
                      "scene's settings/gravity/density tier is built with the simulation)");
  } else {
    return luaL_error(L,
                      "gravity.set_mode: unknown mode '%s' (global, sources, sdf_surface, "
                      "density)",
                      mode.c_str());
  }
  ctx.gravity = d;
  installField(L);
  return 0;
}

int addSource(lua_State* L) {
  const int node = checkNode(L, 1, "gravity.add_source");
  luaL_checktype(L, 2, LUA_TTABLE);
  ScriptContext& ctx = contextOf(L);
  const float mass = optNumberField(L, 2, "mass", 1.0f, "gravity.add_source");
  const float gConst = optNumberField(L, 2, "g_const", ctx.gravity.G, "gravity.add_source");
  const float rOuter = optNumberField(L, 2, "r_outer", 0.0f, "gravity.add_source");
  if (!(mass > 0.0f) || !(gConst > 0.0f) || rOuter < 0.0f)
    return luaL_error(L, "gravity.add_source: mass and g_const must be > 0, r_outer >= 0");
  // The node's position now: the same reading as its handle's.
  pushNode(L, node);
  lua_getfield(L, -1, "position");
  const Vec3 at = checkVec3(L, -1);
  lua_pop(L, 2);
  scene::GravitySource s;
  s.type = scene::GravitySource::Type::Point;
  s.center = at;
  // The field has one G; this source's own constant goes into its mass: G m' = g_const m.
  s.mass = mass * gConst / ctx.gravity.G;
  s.rOuter = rOuter;
  ctx.gravity.sources.push_back(s);
  installField(L);
  return 0;
}

}  // namespace

void openGravity(lua_State* L) {
  static const luaL_Reg kGravity[] = {
      {"sample", sample},    {"set_response", setResponse}, {"align_to_field", alignToField},
      {"set_mode", setMode}, {"add_source", addSource},     {nullptr, nullptr}};
  luaL_newlib(L, kGravity);
  lua_setglobal(L, "gravity");
}

}  // namespace floptle::runtime::script
