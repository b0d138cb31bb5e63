// The `scene` table and node handles:
//   scene.node(name) -> handle (error when there is no such node); scene.tick(), scene.time()
//   handle.name; handle.position (m), handle.velocity (m/s): read for every node, written for
//   dynamic bodies, characters and (position) kinematic nodes; handle.rotation {x, y, z, w}
//   (a unit quaternion): read for every node, written (normalized) for dynamic bodies and
//   kinematic nodes;
//   handle:apply_impulse(v (N s) [, at (m)]) for dynamic bodies and characters;
//   handle:set_parameter(path, value): a field parameter of a static or kinematic node's shape
//   ("radius", "children/1/half_extents"; a number or a vector), its collider rebuilt.
// A body's position is its centre of mass, a character's its capsule centre, a vehicle's its
// chassis'; other nodes answer their world transform as the scripts last set it.
#include <charconv>
#include <cmath>
#include <string>

#include "floptle/core/field/node_spec.h"
#include "script/collider_swap.h"
#include "script/script_context.h"
#include "script/vec3.h"

namespace floptle::runtime::script {
namespace {

constexpr const char* kNodeMeta = "floptle.node";

/// The rigid body that stands for the node (a free body, or a vehicle's chassis), if any.
std::optional<std::uint32_t> bodyIndex(lua_State* L, const NodeParts& parts) {
  if (parts.body) return parts.body->index;
  if (parts.vehicle) return simulationOf(L).vehicles()[parts.vehicle->index].chassis();
  return std::nullopt;
}

}  // namespace

Vec3 nodePosition(lua_State* L, int node) {
  const NodeParts parts = partsOf(L, nodeAt(L, node));
  physics::Simulation& sim = simulationOf(L);
  if (auto b = bodyIndex(L, parts)) return sim.bodies().state(*b).position;
  if (parts.character) return sim.characters()[parts.character->index].state().position;
  return nodeAt(L, node).world.position;
}

namespace {

Vec3 velocityOf(lua_State* L, int node) {
  const NodeParts parts = partsOf(L, nodeAt(L, node));
  physics::Simulation& sim = simulationOf(L);
  if (auto b = bodyIndex(L, parts)) return sim.bodies().state(*b).linearVelocity;
  if (parts.character) return sim.characters()[parts.character->index].state().velocity;
  return Vec3(0.0f);
}

Quat rotationOf(lua_State* L, int node) {
  const NodeParts parts = partsOf(L, nodeAt(L, node));
  if (auto b = bodyIndex(L, parts)) return simulationOf(L).bodies().state(*b).rotation;
  return nodeAt(L, node).world.rotation;
}

int nodeIndex(lua_State* L) {
  const int node = *static_cast<int*>(luaL_checkudata(L, 1, kNodeMeta));
  const std::string key = luaL_checkstring(L, 2);
  if (key == "name") {
    lua_pushstring(L, nodeAt(L, node).name.c_str());
  } else if (key == "position") {
    pushVec3(L, nodePosition(L, node));
  } else if (key == "velocity") {
    pushVec3(L, velocityOf(L, node));
  } else if (key == "rotation") {
    const Quat q = rotationOf(L, node);
    lua_createtable(L, 0, 4);
    const float values[] = {q.x, q.y, q.z, q.w};
    const char* names[] = {"x", "y", "z", "w"};
    for (int i = 0; i < 4; ++i) {
      lua_pushnumber(L, values[i]);
      lua_setfield(L, -2, names[i]);
    }
  } else {
    luaL_getmetatable(L, kNodeMeta);
    lua_getfield(L, -1, "methods");
    lua_getfield(L, -1, key.c_str());
    if (lua_isnil(L, -1))
      return luaL_error(L, "node '%s' has no field '%s'", nodeAt(L, node).name.c_str(),
                        key.c_str());
  }
  return 1;
}

/// The quaternion {x, y, z, w} at `index`, normalized; a Lua error naming `what` otherwise.
Quat checkRotation(lua_State* L, int index, const char* what) {
  if (!lua_istable(L, index))
    luaL_error(L, "%s.rotation: expected a quaternion {x =, y =, z =, w =}, got %s", what,
               luaL_typename(L, index));
  float c[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  const char* names[] = {"x", "y", "z", "w"};
  for (int i = 0; i < 4; ++i) {
    lua_getfield(L, index, names[i]);
    if (!lua_isnumber(L, -1))
      luaL_error(L, "%s.rotation: '%s' must be a number, got %s", what, names[i],
                 luaL_typename(L, -1));
    c[i] = static_cast<float>(lua_tonumber(L, -1));
    lua_pop(L, 1);
  }
  const Quat q(c[3], c[0], c[1], c[2]);
  const float length = glm::length(q);
  if (!std::isfinite(length) || !(length > 1e-6f))
    luaL_error(L, "%s.rotation: the quaternion must be finite and not zero", what);
  return q / length;
}

int nodeNewIndex(lua_State* L) {
  const int node = *static_cast<int*>(luaL_checkudata(L, 1, kNodeMeta));
  const std::string key = luaL_checkstring(L, 2);
  ScriptContext& ctx = contextOf(L);
  scene::SceneNode& sceneNode = ctx.scene.nodes[std::size_t(node)];
  const NodeParts parts = partsOf(L, sceneNode);
  physics::Simulation& sim = simulationOf(L);
  const auto b = bodyIndex(L, parts);
  const bool kinematic = sceneNode.collider &&
                         sceneNode.collider->body == scene::BodyType::Kinematic && sceneNode.shape;
  if (key == "rotation") {
    const Quat q = checkRotation(L, 3, sceneNode.name.c_str());
    if (b) {
      sim.bodies().state(*b).rotation = q;
      sim.bodies().wake(*b);
    } else if (kinematic && !parts.character) {
      sceneNode.world.rotation = q;
      if (auto replaced = replaceColliders(ctx, sim, {node}); !replaced)
        return luaL_error(L, "%s.rotation: %s", sceneNode.name.c_str(),
                          replaced.error().message().c_str());
    } else {
      return luaL_error(L, "%s.rotation: writable for dynamic bodies and kinematic nodes only",
                        sceneNode.name.c_str());
    }
    return 0;
  }
  const Vec3 v = checkVec3(L, 3);
  if (key == "position") {
    if (b) {
      sim.bodies().state(*b).position = v;
      sim.bodies().wake(*b);
    } else if (parts.character) {
      sim.characters()[parts.character->index].state().position = v;
    } else if (kinematic) {
      sceneNode.world.position = v;
      if (auto replaced = replaceColliders(ctx, sim, {node}); !replaced)
        return luaL_error(L, "%s.position: %s", sceneNode.name.c_str(),
                          replaced.error().message().c_str());
    } else {
      return luaL_error(L,
                        "%s.position: writable for dynamic bodies, characters and kinematic "
                        "nodes only",
                        sceneNode.name.c_str());
    }
  } else if (key == "velocity") {
    if (b) {
      sim.bodies().state(*b).linearVelocity = v;
      sim.bodies().wake(*b);
    } else if (parts.character) {
      sim.characters()[parts.character->index].state().velocity = v;
    } else {
      return luaL_error(L, "%s.velocity: writable for dynamic bodies and characters only",
                        sceneNode.name.c_str());
    }
  } else {
    return luaL_error(L, "node '%s': '%s' cannot be set (position, velocity and rotation can)",
                      sceneNode.name.c_str(), key.c_str());
  }
  return 0;
}

int applyImpulse(lua_State* L) {
  const int node = checkNode(L, 1, "apply_impulse");
  const Vec3 impulse = checkVec3(L, 2);
  const NodeParts parts = partsOf(L, nodeAt(L, node));
  physics::Simulation& sim = simulationOf(L);
  if (auto b = bodyIndex(L, parts)) {
    const Vec3 at = lua_isnoneornil(L, 3) ? sim.bodies().state(*b).position : checkVec3(L, 3);
    sim.bodies().wake(*b);
    sim.bodies().applyImpulseAt(*b, at, impulse);
  } else if (parts.character) {
    physics::CharacterController& c = sim.characters()[parts.character->index];
    c.state().velocity += impulse / c.desc().mass;
  } else {
    return luaL_error(L, "apply_impulse: '%s' is not a dynamic body or a character",
                      nodeAt(L, node).name.c_str());
  }
  return 0;
}

/// The field node at `path` ("children/1/radius" -> children[1], key "radius").
field::FieldNode* findParameterNode(field::FieldNode& root, std::string path, std::string& key) {
  field::FieldNode* at = &root;
  while (path.rfind("children/", 0) == 0) {
    path = path.substr(9);
    const std::size_t slash = path.find('/');
    if (slash == std::string::npos) return nullptr;
    // An index with anything but digits, or too large for a size_t, names no child (std::stoul
    // threw for the latter: an exception out of an API function is a Lua error with no message).
    std::size_t i = 0;
    const char* end = path.data() + slash;
    const auto [stop, ec] = std::from_chars(path.data(), end, i);
    if (slash == 0 || ec != std::errc() || stop != end) return nullptr;
    if (i >= at->children.size()) return nullptr;
    at = &at->children[i];
    path = path.substr(slash + 1);
  }
  key = path;
  return at;
}

int setParameter(lua_State* L) {
  const int node = checkNode(L, 1, "set_parameter");
  const std::string path = luaL_checkstring(L, 2);
  ScriptContext& ctx = contextOf(L);
  scene::SceneNode& sceneNode = ctx.scene.nodes[std::size_t(node)];
  physics::Simulation& sim = simulationOf(L);
  const NodeParts parts = partsOf(L, sceneNode);
  if (!sceneNode.shape || !parts.collider)
    return luaL_error(L, "set_parameter: '%s' is not a static or kinematic node with a shape",
                      sceneNode.name.c_str());
  field::FieldNode shape = *sceneNode.shape;
  std::string key;
  field::FieldNode* target = findParameterNode(shape, path, key);
  const int slot = target ? field::paramSlotOffset(target->type, key) : -1;
  if (slot < 0)
    return luaL_error(L, "set_parameter: '%s' names no parameter of %s's shape", path.c_str(),
                      sceneNode.name.c_str());
  int components = 1;
  for (const field::ParamSpec& p : field::nodeSpec(target->type).params)
    if (p.key == key) components = p.components;
  if (components == 1) {
    target->params[std::size_t(slot)] = static_cast<float>(luaL_checknumber(L, 3));
  } else {
    const Vec3 v = checkVec3(L, 3);
    for (int i = 0; i < components && i < 3; ++i) target->params[std::size_t(slot + i)] = v[i];
  }
  if (auto valid = field::validateNode(shape, sceneNode.pointer + "/shape"); !valid)
    return luaL_error(L, "set_parameter: %s", valid.error().message().c_str());
  const field::FieldNode old = *sceneNode.shape;
  sceneNode.shape = std::move(shape);
  if (auto replaced = replaceColliders(ctx, sim, {node}); !replaced) {
    sceneNode.shape = old;
    return luaL_error(L, "set_parameter: %s", replaced.error().message().c_str());
  }
  return 0;
}

int sceneNodeFunction(lua_State* L) {
  pushNode(L, checkNode(L, 1, "scene.node"));
  return 1;
}

int sceneTick(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(contextOf(L).tick));
  return 1;
}

int sceneTime(lua_State* L) {
  lua_pushnumber(L, contextOf(L).time);
  return 1;
}

}  // namespace

void pushNode(lua_State* L, int node) {
  *static_cast<int*>(lua_newuserdatauv(L, sizeof(int), 0)) = node;
  luaL_setmetatable(L, kNodeMeta);
}

void openScene(lua_State* L) {
  static const luaL_Reg kMeta[] = {
      {"__index", nodeIndex}, {"__newindex", nodeNewIndex}, {nullptr, nullptr}};
  static const luaL_Reg kMethods[] = {
      {"apply_impulse", applyImpulse}, {"set_parameter", setParameter}, {nullptr, nullptr}};
  luaL_newmetatable(L, kNodeMeta);
  luaL_setfuncs(L, kMeta, 0);
  luaL_newlib(L, kMethods);
  lua_setfield(L, -2, "methods");
  lua_pop(L, 1);
  static const luaL_Reg kScene[] = {
      {"node", sceneNodeFunction}, {"tick", sceneTick}, {"time", sceneTime}, {nullptr, nullptr}};
  luaL_newlib(L, kScene);
  lua_setglobal(L, "scene");
}

}  // namespace floptle::runtime::script
