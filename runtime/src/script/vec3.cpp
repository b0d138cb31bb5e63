// The scripts' vec3 userdata (vec3.h).
#include "script/vec3.h"

#include <cmath>

namespace floptle::runtime::script {
namespace {

constexpr const char* kMeta = "floptle.vec3";

Vec3* toUserdata(lua_State* L, int index) {
  return static_cast<Vec3*>(luaL_testudata(L, index, kMeta));
}

/// A number for arithmetic: raises a clear error for anything else.
float checkScalar(lua_State* L, int index, const char* op) {
  if (!lua_isnumber(L, index))
    luaL_error(L, "vec3 %s: expected a number, got %s", op, luaL_typename(L, index));
  return static_cast<float>(lua_tonumber(L, index));
}

int add(lua_State* L) {
  pushVec3(L, checkVec3(L, 1) + checkVec3(L, 2));
  return 1;
}
int sub(lua_State* L) {
  pushVec3(L, checkVec3(L, 1) - checkVec3(L, 2));
  return 1;
}
int mul(lua_State* L) {
  if (lua_isnumber(L, 1)) {
    pushVec3(L, static_cast<float>(lua_tonumber(L, 1)) * checkVec3(L, 2));
  } else {
    pushVec3(L, checkVec3(L, 1) * checkScalar(L, 2, "*"));
  }
  return 1;
}
int div(lua_State* L) {
  pushVec3(L, checkVec3(L, 1) / checkScalar(L, 2, "/"));
  return 1;
}
int unm(lua_State* L) {
  pushVec3(L, -checkVec3(L, 1));
  return 1;
}
int eq(lua_State* L) {
  lua_pushboolean(L, checkVec3(L, 1) == checkVec3(L, 2));
  return 1;
}
int toString(lua_State* L) {
  const Vec3 v = checkVec3(L, 1);
  lua_pushfstring(L, "vec3(%f, %f, %f)", double(v.x), double(v.y), double(v.z));
  return 1;
}
int length(lua_State* L) {
  lua_pushnumber(L, glm::length(checkVec3(L, 1)));
  return 1;
}
int normalized(lua_State* L) {
  const Vec3 v = checkVec3(L, 1);
  const float n = glm::length(v);
  if (!(n > 0.0f)) return luaL_error(L, "vec3:normalized(): the zero vector has no direction");
  pushVec3(L, v / n);
  return 1;
}
int dot(lua_State* L) {
  lua_pushnumber(L, glm::dot(checkVec3(L, 1), checkVec3(L, 2)));
  return 1;
}
int cross(lua_State* L) {
  pushVec3(L, glm::cross(checkVec3(L, 1), checkVec3(L, 2)));
  return 1;
}

int index(lua_State* L) {
  const Vec3 v = checkVec3(L, 1);
  const char* key = luaL_checkstring(L, 2);
  if (key[0] != '\0' && key[1] == '\0' && key[0] >= 'x' && key[0] <= 'z') {
    lua_pushnumber(L, v[key[0] - 'x']);
    return 1;
  }
  luaL_getmetatable(L, kMeta);
  lua_getfield(L, -1, "methods");
  lua_getfield(L, -1, key);
  if (lua_isnil(L, -1)) return luaL_error(L, "vec3 has no field '%s'", key);
  return 1;
}

int construct(lua_State* L) {
  const auto component = [L](int i) {
    return static_cast<float>(lua_isnoneornil(L, i) ? 0.0 : luaL_checknumber(L, i));
  };
  pushVec3(L, Vec3(component(1), component(2), component(3)));
  return 1;
}

}  // namespace

void openVec3(lua_State* L) {
  static const luaL_Reg kMetamethods[] = {
      {"__add", add},           {"__sub", sub},     {"__mul", mul},
      {"__div", div},           {"__unm", unm},     {"__eq", eq},
      {"__tostring", toString}, {"__index", index}, {nullptr, nullptr}};
  static const luaL_Reg kMethods[] = {{"length", length},
                                      {"normalized", normalized},
                                      {"dot", dot},
                                      {"cross", cross},
                                      {nullptr, nullptr}};
  luaL_newmetatable(L, kMeta);
  luaL_setfuncs(L, kMetamethods, 0);
  luaL_newlib(L, kMethods);
  lua_setfield(L, -2, "methods");
  lua_pop(L, 1);
  lua_pushcfunction(L, construct);
  lua_setglobal(L, "vec3");
}

void pushVec3(lua_State* L, Vec3 v) {
  auto* u = static_cast<Vec3*>(lua_newuserdatauv(L, sizeof(Vec3), 0));
  *u = v;
  luaL_setmetatable(L, kMeta);
}

bool isVec3(lua_State* L, int index) {
  if (toUserdata(L, index)) return true;
  if (!lua_istable(L, index)) return false;
  lua_geti(L, index, 1);
  const bool array = lua_isnumber(L, -1);
  lua_pop(L, 1);
  if (array) return true;
  lua_getfield(L, index, "x");
  const bool named = lua_isnumber(L, -1);
  lua_pop(L, 1);
  return named;
}

Vec3 checkVec3(lua_State* L, int index) {
  if (const Vec3* u = toUserdata(L, index)) return *u;
  if (!lua_istable(L, index))
    luaL_error(L, "argument %d: expected a vec3 or a table {x, y, z}, got %s", index,
               luaL_typename(L, index));
  index = lua_absindex(L, index);
  Vec3 v(0.0f);
  lua_geti(L, index, 1);
  const bool array = !lua_isnil(L, -1);
  lua_pop(L, 1);
  static const char* kNames[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (array) {
      lua_geti(L, index, i + 1);
    } else {
      lua_getfield(L, index, kNames[i]);
    }
    if (!lua_isnumber(L, -1))
      luaL_error(L, "argument %d: a vector table needs three numbers {x, y, z}", index);
    v[i] = static_cast<float>(lua_tonumber(L, -1));
    lua_pop(L, 1);
  }
  if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
    luaL_error(L, "argument %d: the vector must be finite", index);
  return v;
}

}  // namespace floptle::runtime::script
