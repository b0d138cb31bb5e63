// The `input` table: the play-mode controls as the simulation holds them this tick (after the
// tick's inputs were applied), read-only:
//   input.move(node) -> x, z     a character's move stick, |move| <= 1 (-)
//   input.jump(node) -> bool     a jump is pending for the character
//   input.vehicle(node) -> {throttle, brake, steer}   a vehicle's controls (-)
#include "script/script_context.h"

namespace floptle::runtime::script {
namespace {

physics::CharacterId characterArgument(lua_State* L, const char* function) {
  const int node = checkNode(L, 1, function);
  const auto id = simulationOf(L).findCharacter(nodeAt(L, node).name);
  if (!id) luaL_error(L, "%s: '%s' is not a character", function, nodeAt(L, node).name.c_str());
  return *id;
}

int move(lua_State* L) {
  const auto id = characterArgument(L, "input.move");
  const physics::CharacterInput& in = simulationOf(L).characterInput(id.index);
  lua_pushnumber(L, in.move.x);
  lua_pushnumber(L, in.move.y);
  return 2;
}

int jump(lua_State* L) {
  const auto id = characterArgument(L, "input.jump");
  lua_pushboolean(L, simulationOf(L).characterInput(id.index).jump);
  return 1;
}

int vehicle(lua_State* L) {
  const int node = checkNode(L, 1, "input.vehicle");
  const auto id = simulationOf(L).findVehicle(nodeAt(L, node).name);
  if (!id)
    return luaL_error(L, "input.vehicle: '%s' is not a vehicle", nodeAt(L, node).name.c_str());
  const physics::VehicleInput& in = simulationOf(L).vehicleInput(id->index);
  lua_createtable(L, 0, 3);
  lua_pushnumber(L, in.throttle);
  lua_setfield(L, -2, "throttle");
  lua_pushnumber(L, in.brake);
  lua_setfield(L, -2, "brake");
  lua_pushnumber(L, in.steer);
  lua_setfield(L, -2, "steer");
  return 1;
}

}  // namespace

void openInput(lua_State* L) {
  static const luaL_Reg kInput[] = {
      {"move", move}, {"jump", jump}, {"vehicle", vehicle}, {nullptr, nullptr}};
  luaL_newlib(L, kInput);
  lua_setglobal(L, "input");
}

}  // namespace floptle::runtime::script
