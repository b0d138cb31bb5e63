// The `gravity` table (seed 001 section 7):
//   gravity.sample(p) -> vec3: the gravity at p now (m/s^2), no receiver's response: the
//     scene's field plus the added sources, or the mode of the region holding p; without
//     script changes the field `floptle query`'s gravity op answers.
//   gravity.set_response(node, r): the fraction of g the node's body, character or vehicle
//     obeys from this tick on (-).
//   gravity.align_to_field(node, on [, rate]): a character's up follows -g at `rate` (1/s,
//     default 10) or stays as it is (false).
//   gravity.set_mode(node, mode, opts): picks one tier, for a body, character or vehicle (its
//     own field, everywhere, from this tick on) or for a region (any other node with a shape:
//     the points within opts.reach (m, default 0) of its shape, as placed now; receivers
//     without a mode of their own there obey the region's tier). Modes:
//       "global" {strength (m/s^2, default 9.81), direction (vec3, default down)};
//       "sources": the scene's and the added sources;
//       "sdf_surface" {strength (m/s^2), range (m), epsilon (m)}: the pull onto the
//         simulation's collidable world;
//       "density" {cell (m), cadence (ticks), g_const (m^3/(kg s^2))}: the Poisson field of
//         the scene's matter (collidable fixed nodes at their materials' densities) on a grid
//         of its own, solved at the call (the scene's density settings are the defaults).
//   gravity.add_source(node, {mass (kg), g_const (m^3/(kg s^2)), r_outer (m)}): the node
//     emits gravity: a point mass pulling g_const m / d^2 towards the node's position,
//     following the node every tick, for every receiver of the scene's field and of a
//     "sources" mode.
// script_gravity.h composes these.
#include <algorithm>
#include <cmath>
#include <optional>

#include "floptle/gravity/gravity_field.h"
#include "floptle/gravity/scene_gravity.h"
#include "floptle/physics/field_collider.h"
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

/// The scene's own analytic sources (the settings' and the nodes' emitters).
std::vector<scene::GravitySource> sceneSources(const ScriptContext& ctx) {
  const auto* field = dynamic_cast<const gravity::GravityField*>(ctx.sceneGravity.get());
  return field ? field->desc().sources : std::vector<scene::GravitySource>{};
}

/// The mode named at index 2 with the options at index 3; a Lua error for a bad one.
GravityMode makeMode(lua_State* L, const std::string& mode) {
  ScriptContext& ctx = contextOf(L);
  physics::Simulation& sim = simulationOf(L);
  const char* fn = "gravity.set_mode";
  scene::GravityFieldDesc d;
  d.G = ctx.G;
  GravityMode m;
  m.name = mode;
  std::shared_ptr<gravity::DensityGravity> density;
  if (mode == "global") {
    const float strength = optNumberField(L, 3, "strength", 9.81f, fn);
    Vec3 direction(0.0f, -1.0f, 0.0f);
    if (lua_istable(L, 3)) {
      lua_getfield(L, 3, "direction");
      if (!lua_isnil(L, -1)) direction = checkVec3(L, lua_gettop(L));
      lua_pop(L, 1);
    }
    const float length = glm::length(direction);
    if (!(length > 0.0f)) luaL_error(L, "gravity.set_mode: direction must not be zero");
    d.global = strength * direction / length;
  } else if (mode == "sources") {
    d.sources = sceneSources(ctx);
    m.withAddedSources = true;
  } else if (mode == "sdf_surface") {
    scene::GravitySdfDesc sdf;
    sdf.strength = optNumberField(L, 3, "strength", sdf.strength, fn);
    sdf.range = optNumberField(L, 3, "range", sdf.range, fn);
    sdf.epsilon = optNumberField(L, 3, "epsilon", sdf.epsilon, fn);
    if (!(sdf.range > 0.0f)) luaL_error(L, "gravity.set_mode: range must be > 0 (m)");
    if (!(sdf.epsilon > 0.0f)) luaL_error(L, "gravity.set_mode: epsilon must be > 0 (m)");
    d.sdf = sdf;
  } else if (mode == "density") {
    const auto* field = dynamic_cast<const gravity::GravityField*>(ctx.sceneGravity.get());
    scene::GravityDensityDesc grid =
        field && field->desc().density ? *field->desc().density : scene::GravityDensityDesc{};
    grid.cell = optNumberField(L, 3, "cell", grid.cell, fn);
    const float cadence = optNumberField(L, 3, "cadence", float(grid.cadence), fn);
    d.G = optNumberField(L, 3, "g_const", ctx.G, fn);
    if (!(grid.cell > 0.0f)) luaL_error(L, "gravity.set_mode: cell must be > 0 (m)");
    if (!(cadence >= 1.0f) || cadence != std::floor(cadence) || cadence > 1e6f)
      luaL_error(L, "gravity.set_mode: cadence must be a whole number of ticks >= 1");
    if (!(d.G > 0.0f)) luaL_error(L, "gravity.set_mode: g_const must be > 0");
    grid.cadence = int(cadence);
    d.density = grid;
    auto made = gravity::sceneDensityGravity(ctx.scene, d, sim.world());
    if (!made) luaL_error(L, "gravity.set_mode: density: %s", made.error().message().c_str());
    density = std::move(made.value());
  } else {
    luaL_error(L, "gravity.set_mode: unknown mode '%s' (global, sources, sdf_surface, density)",
               mode.c_str());
  }
  auto field = std::make_shared<gravity::GravityField>(std::move(d));
  field->setSurface(&sim.world());
  field->setDensity(std::move(density));
  m.field = std::move(field);
  return m;
}

/// The receiver that stands for a node (a vehicle's chassis body), if any.
std::optional<physics::GravityReceiver> receiverOf(lua_State* L, const NodeParts& parts) {
  using Kind = physics::GravityReceiver::Kind;
  if (parts.body) return physics::GravityReceiver{Kind::Body, parts.body->index};
  if (parts.character) return physics::GravityReceiver{Kind::Character, parts.character->index};
  if (parts.vehicle)
    return physics::GravityReceiver{Kind::Body,
                                    simulationOf(L).vehicles()[parts.vehicle->index].chassis()};
  return std::nullopt;
}

int setMode(lua_State* L) {
  const int node = checkNode(L, 1, "gravity.set_mode");
  const std::string mode = luaL_checkstring(L, 2);
  if (!lua_isnoneornil(L, 3)) luaL_checktype(L, 3, LUA_TTABLE);
  ScriptContext& ctx = contextOf(L);
  const scene::SceneNode& n = nodeAt(L, node);
  const NodeParts parts = partsOf(L, n);
  const std::optional<physics::GravityReceiver> receiver = receiverOf(L, parts);
  const float reach = optNumberField(L, 3, "reach", 0.0f, "gravity.set_mode");
  if (receiver && lua_istable(L, 3)) {
    lua_getfield(L, 3, "reach");
    const bool hasReach = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (hasReach)
      return luaL_error(L,
                        "gravity.set_mode: 'reach' is a region's option; '%s' is a body, "
                        "character or vehicle (its mode is its own, everywhere)",
                        n.name.c_str());
  }
  if (!receiver && !n.shape)
    return luaL_error(L,
                      "gravity.set_mode: '%s' is neither a body, character or vehicle (its own "
                      "field) nor a node with a shape (a region)",
                      n.name.c_str());
  if (!(reach >= 0.0f)) return luaL_error(L, "gravity.set_mode: reach must be >= 0 (m)");
  GravityMode m = makeMode(L, mode);
  ScriptGravityState& state = ctx.gravity;
  if (receiver) {
    auto same = std::find_if(state.receivers.begin(), state.receivers.end(), [&](const auto& r) {
      return r.receiver.kind == receiver->kind && r.receiver.index == receiver->index;
    });
    if (same == state.receivers.end())
      state.receivers.push_back({*receiver, n.name, std::move(m)});
    else
      same->mode = std::move(m);
  } else {
    auto placed = physics::FieldCollider::make(*n.shape, n.world);
    if (!placed)
      return luaL_error(L, "gravity.set_mode: '%s': %s", n.name.c_str(),
                        placed.error().message().c_str());
    GravityRegion region{node, std::make_shared<physics::FieldCollider>(std::move(*placed)), reach,
                         std::move(m)};
    auto at = std::lower_bound(state.regions.begin(), state.regions.end(), node,
                               [](const GravityRegion& r, int i) { return r.node < i; });
    if (at != state.regions.end() && at->node == node)
      *at = std::move(region);
    else
      state.regions.insert(at, std::move(region));
  }
  installGravity(ctx, simulationOf(L));
  return 0;
}

int addSource(lua_State* L) {
  const int node = checkNode(L, 1, "gravity.add_source");
  luaL_checktype(L, 2, LUA_TTABLE);
  ScriptContext& ctx = contextOf(L);
  const float mass = optNumberField(L, 2, "mass", 1.0f, "gravity.add_source");
  const float gConst = optNumberField(L, 2, "g_const", ctx.G, "gravity.add_source");
  const float rOuter = optNumberField(L, 2, "r_outer", 0.0f, "gravity.add_source");
  if (!(mass > 0.0f) || !(gConst > 0.0f) || rOuter < 0.0f)
    return luaL_error(L, "gravity.add_source: mass and g_const must be > 0, r_outer >= 0");
  scene::GravitySource s;
  s.type = scene::GravitySource::Type::Point;
  s.center = nodePosition(L, node);
  // The field has one G; this source's own constant goes into its mass: G m' = g_const m.
  s.mass = mass * gConst / ctx.G;
  s.rOuter = rOuter;
  ctx.gravity.sources.push_back({node, s});
  installGravity(ctx, simulationOf(L));
  return 0;
}

}  // namespace

void installGravity(ScriptContext& ctx, physics::Simulation& sim) {
  if (ctx.gravity.empty()) {
    sim.setGravitySampler(ctx.sceneGravity);
    return;
  }
  sim.setGravitySampler(std::make_shared<ScriptGravity>(ctx.sceneGravity, sim.settings().gravity,
                                                        ctx.G, ctx.gravity));
}

void followSources(lua_State* L) {
  ScriptContext& ctx = contextOf(L);
  if (ctx.gravity.sources.empty()) return;
  for (AddedSource& s : ctx.gravity.sources) s.source.center = nodePosition(L, s.node);
  installGravity(ctx, simulationOf(L));
}

void openGravity(lua_State* L) {
  static const luaL_Reg kGravity[] = {
      {"sample", sample},    {"set_response", setResponse}, {"align_to_field", alignToField},
      {"set_mode", setMode}, {"add_source", addSource},     {nullptr, nullptr}};
  luaL_newlib(L, kGravity);
  lua_setglobal(L, "gravity");
}

}  // namespace floptle::runtime::script
