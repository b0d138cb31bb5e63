#pragma once
// ScriptContext: what the API functions reach while a script runs (the running simulation,
// the scene as the scripts changed it, the tick, the running script's node, the log), and
// the helpers every API table shares: node arguments, the simulation, raising errors.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <lua.hpp>

#include "floptle/core/scene/scene.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/script_stage.h"
#include "script/script_gravity.h"

namespace floptle::runtime::script {

/// A blend_into in progress: the merge k between two nodes' materials ramps linearly from
/// kFrom at `start` to kTo at start + seconds (then holds).
struct BlendRamp {
  std::string node;
  std::string other;
  physics::ColliderId collider;  ///< the composed collider of the two
  double start = 0.0;            ///< (s)
  double seconds = 0.0;          ///< (s)
};

struct ScriptContext {
  /// The simulation of the last step (null before the first): the one that owns the stage,
  /// so it outlives this context; a reload between ticks reads it. Not owned.
  physics::Simulation* simulation = nullptr;
  /// The scene as the scripts changed it (interactions, shapes, transforms); starts as the
  /// scene the simulation was built from.
  scene::Scene scene;
  std::uint64_t tick = 0;  ///< the tick being run (-)
  double time = 0.0;       ///< its start (s)
  float dt = 0.0f;         ///< (s)
  /// The node of the running script ("" for a scene-level script).
  std::string node;
  std::vector<ScriptLog> logs;
  /// What the scripts set of gravity (gravity.set_mode / add_source; script_gravity.h).
  ScriptGravityState gravity;
  /// The simulation's own gravity sampler as built (null: uniform), taken at the first tick:
  /// the scene's field under what the scripts set.
  std::shared_ptr<const physics::GravitySampler> sceneGravity;
  float G = 1.0f;  ///< the scene's gravitational constant (m^3/(kg s^2))
  std::vector<BlendRamp> ramps;
  /// The nodes whose transform, shape or blend the scripts changed (sorted, unique), and
  /// how many such changes there were (the viewport redraws the scene when it moves).
  std::vector<int> changedNodes;
  std::uint64_t sceneRevision = 0;
};

ScriptContext& contextOf(lua_State* L);
/// The running simulation; a Lua error outside a step (top-level code runs inside one).
physics::Simulation& simulationOf(lua_State* L);

/// A node argument: a node handle (scene.node) or a node name. Raises "fn: no node 'x'".
int checkNode(lua_State* L, int index, const char* function);
const scene::SceneNode& nodeAt(lua_State* L, int node);

/// What a node is in the running simulation.
struct NodeParts {
  std::optional<physics::BodyId> body;  ///< a free dynamic body
  std::optional<physics::CharacterId> character;
  std::optional<physics::VehicleId> vehicle;
  std::optional<physics::ColliderId> collider;  ///< its world collider (static / kinematic)
};
NodeParts partsOf(lua_State* L, const scene::SceneNode& node);

/// Optional number field `key` of the table at `index` (or `fallback`); a Lua error naming
/// `function` and the key for a non-number.
float optNumberField(lua_State* L, int index, const char* key, float fallback,
                     const char* function);

/// Pushes a node handle for scene node `node`.
void pushNode(lua_State* L, int node);
/// A node's position now (m): a body's centre of mass, a character's capsule centre, a
/// vehicle's chassis'; other nodes' world position as the scripts last set it.
Vec3 nodePosition(lua_State* L, int node);

/// Installs ctx.gravity as the simulation's sampler (ScriptGravity over ctx.sceneGravity), or
/// the scene's own sampler again when the scripts set nothing.
void installGravity(ScriptContext& ctx, physics::Simulation& sim);
/// Moves each added source to its node's position now (then installs).
void followSources(lua_State* L);

void openGravity(lua_State* L);
void openMatter(lua_State* L);
void openScene(lua_State* L);
void openWorld(lua_State* L);
void openInput(lua_State* L);
void openLog(lua_State* L);

}  // namespace floptle::runtime::script
