#pragma once
// vec3: the scripts' vector, a small userdata made by vec3(x, y, z), with + - (vectors),
// * / (by a number, either side for *), unary -, ==, .x .y .z, :length(), :normalized(),
// :dot(v), :cross(v) and tostring. Every API function that takes a point or direction also
// takes a table {x, y, z} (or {x =, y =, z =}).
#include <lua.hpp>

#include "floptle/core/math.h"

namespace floptle::runtime::script {

/// Installs the vec3 metatable and the global constructor `vec3`.
void openVec3(lua_State* L);
void pushVec3(lua_State* L, Vec3 v);
/// The vector at `index` (a vec3 or a table of three numbers); raises a Lua error naming the
/// argument otherwise, and for non-finite components.
Vec3 checkVec3(lua_State* L, int index);
/// Whether the value at `index` is a vec3 or a vector table.
bool isVec3(lua_State* L, int index);

}  // namespace floptle::runtime::script
