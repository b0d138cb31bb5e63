// What every API table shares (script_context.h): the context, node arguments, options.
#include <cmath>

#include "script/lua_vm.h"
#include "script/script_context.h"

namespace floptle::runtime::script {

ScriptContext& contextOf(lua_State* L) {
  return *static_cast<ScriptContext*>(LuaVm::of(L).user);
}

physics::Simulation& simulationOf(lua_State* L) {
  ScriptContext& ctx = contextOf(L);
  if (!ctx.simulation) luaL_error(L, "the simulation is not running");
  return *ctx.simulation;
}

int checkNode(lua_State* L, int index, const char* function) {
  if (const int* handle = static_cast<const int*>(luaL_testudata(L, index, "floptle.node")))
    return *handle;
  if (!lua_isstring(L, index))
    luaL_error(L, "%s: argument %d: expected a node (scene.node(name)) or a node name, got %s",
               function, index, luaL_typename(L, index));
  const char* name = lua_tostring(L, index);
  const int node = contextOf(L).scene.findNode(name);
  if (node < 0) luaL_error(L, "%s: no node '%s' in the scene", function, name);
  return node;
}

const scene::SceneNode& nodeAt(lua_State* L, int node) {
  return contextOf(L).scene.nodes[std::size_t(node)];
}

NodeParts partsOf(lua_State* L, const scene::SceneNode& node) {
  physics::Simulation& sim = simulationOf(L);
  NodeParts parts;
  parts.body = sim.findBody(node.name);
  parts.character = sim.findCharacter(node.name);
  parts.vehicle = sim.findVehicle(node.name);
  if (!parts.body && !parts.character && !parts.vehicle)
    parts.collider = sim.world().find(node.name);
  return parts;
}

float optNumberField(lua_State* L, int index, const char* key, float fallback,
                     const char* function) {
  if (lua_isnoneornil(L, index)) return fallback;
  luaL_checktype(L, index, LUA_TTABLE);
  lua_getfield(L, index, key);
  float value = fallback;
  if (!lua_isnil(L, -1)) {
    if (!lua_isnumber(L, -1))
      luaL_error(L, "%s: option '%s' must be a number, got %s", function, key,
                 luaL_typename(L, -1));
    value = static_cast<float>(lua_tonumber(L, -1));
    if (!std::isfinite(value)) luaL_error(L, "%s: option '%s' must be finite", function, key);
  }
  lua_pop(L, 1);
  return value;
}

}  // namespace floptle::runtime::script
