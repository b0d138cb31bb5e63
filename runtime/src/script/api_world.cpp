// The `world` table: the collision queries of `floptle query` (physics/query_protocol.h) at
// the tick's start time, answering the same tables (vectors as vec3):
//   world.raycast(origin, dir [, max]) -> {hit, distance, point, normal, node, material}
//   world.spherecast(origin, dir, radius [, max]) -> the same
//   world.closest(p) -> {distance, point, normal, node} ({distance = nil} for an empty world)
// Fixed geometry answers (dynamic bodies, characters and vehicles are simulated, not queried).
#include "floptle/physics/query_protocol.h"
#include "script/script_context.h"
#include "script/vec3.h"

namespace floptle::runtime::script {
namespace {

nlohmann::json vecJson(Vec3 v) {
  return nlohmann::json::array({v.x, v.y, v.z});
}

/// A query answer as a Lua table: 3-number arrays become vec3s; {"error": ...} raises.
void pushAnswer(lua_State* L, const nlohmann::ordered_json& answer, const char* function) {
  if (answer.contains("error"))
    luaL_error(L, "%s: %s", function, answer["error"].get<std::string>().c_str());
  lua_createtable(L, 0, int(answer.size()));
  for (const auto& [key, value] : answer.items()) {
    if (value.is_array() && value.size() == 3) {
      pushVec3(L, Vec3(value[0].get<float>(), value[1].get<float>(), value[2].get<float>()));
    } else if (value.is_boolean()) {
      lua_pushboolean(L, value.get<bool>());
    } else if (value.is_number()) {
      lua_pushnumber(L, value.get<double>());
    } else if (value.is_string()) {
      lua_pushstring(L, value.get<std::string>().c_str());
    } else {
      continue;  // null: absent in Lua
    }
    lua_setfield(L, -2, key.c_str());
  }
}

int answer(lua_State* L, nlohmann::json request, const char* function) {
  request["t"] = contextOf(L).time;
  pushAnswer(L, physics::answerQuery(simulationOf(L).world(), request), function);
  return 1;
}

int raycast(lua_State* L) {
  nlohmann::json request{
      {"op", "raycast"}, {"origin", vecJson(checkVec3(L, 1))}, {"dir", vecJson(checkVec3(L, 2))}};
  if (!lua_isnoneornil(L, 3)) request["max"] = luaL_checknumber(L, 3);
  return answer(L, std::move(request), "world.raycast");
}

int spherecast(lua_State* L) {
  nlohmann::json request{{"op", "spherecast"},
                         {"origin", vecJson(checkVec3(L, 1))},
                         {"dir", vecJson(checkVec3(L, 2))},
                         {"radius", luaL_checknumber(L, 3)}};
  if (!lua_isnoneornil(L, 4)) request["max"] = luaL_checknumber(L, 4);
  return answer(L, std::move(request), "world.spherecast");
}

int closest(lua_State* L) {
  return answer(L, {{"op", "closest"}, {"p", vecJson(checkVec3(L, 1))}}, "world.closest");
}

}  // namespace

void openWorld(lua_State* L) {
  static const luaL_Reg kWorld[] = {
      {"raycast", raycast}, {"spherecast", spherecast}, {"closest", closest}, {nullptr, nullptr}};
  luaL_newlib(L, kWorld);
  lua_setglobal(L, "world");
}

}  // namespace floptle::runtime::script
