// ScriptStage: compiling, running and snapshotting a scene's scripts (script_stage.h).
#include "floptle/runtime/script_stage.h"

#include <algorithm>

#include "floptle/core/fnv_hash.h"
#include "floptle/core/scene/scene.h"
#include "script/lua_vm.h"
#include "script/script_context.h"
#include "script/vec3.h"

namespace floptle::runtime {

using script::contextOf;
using script::LuaVm;

struct ScriptStage::Snapshot final : physics::SimulationStageSnapshot {
  bool started = false;
  std::optional<ScriptFailure> failure;
  std::vector<std::pair<std::string, std::string>> touching;
  script::ScriptGravityState gravity;
};

ScriptStage::ScriptStage() = default;
ScriptStage::~ScriptStage() {
  scripts_.clear();
  vm_.reset();  // before the context its user pointer names
}

namespace {

/// The "file" of a script object, or an error naming `pointer`.
Expected<std::string> scriptFile(const nlohmann::ordered_json& object, const std::string& pointer) {
  if (!object.is_object() || !object.contains("file") || !object["file"].is_string() ||
      object["file"].get<std::string>().empty())
    return Error{pointer + "/file", "a script needs \"file\": the Lua file's path"};
  return object["file"].get<std::string>();
}

/// The pair of names, the smaller first.
std::pair<std::string, std::string> orderedPair(const std::string& a, const std::string& b) {
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

}  // namespace

Expected<std::unique_ptr<ScriptStage>> ScriptStage::build(
    const scene::Scene& scene, const nlohmann::ordered_json& sceneScripts,
    const std::filesystem::path& sceneDir, std::uint64_t seed, const ScriptStageLimits& limits) {
  std::vector<Script> scripts;
  if (!sceneScripts.is_array()) return Error{"/scripts", "expected an array of {\"file\": ...}"};
  for (std::size_t i = 0; i < sceneScripts.size(); ++i) {
    const std::string pointer = "/scripts/" + std::to_string(i);
    auto file = scriptFile(sceneScripts[i], pointer);
    if (!file) return file.error();
    scripts.push_back({*file, "", -1, pointer, 0, 0});
  }
  for (std::size_t n = 0; n < scene.nodes.size(); ++n) {
    const scene::SceneNode& node = scene.nodes[n];
    if (!node.hasComponent("script")) continue;
    const std::string pointer = node.pointer + "/script";
    auto file = scriptFile(node.components["script"], pointer);
    if (!file) return file.error();
    scripts.push_back({*file, node.name, int(n), pointer, 0, 0});
  }
  if (scripts.empty()) return std::unique_ptr<ScriptStage>();

  std::unique_ptr<ScriptStage> stage(new ScriptStage());
  auto vm = LuaVm::create(sceneDir, seed, limits);
  if (!vm) return vm.error();
  stage->vm_ = std::move(vm.value());
  stage->context_ = std::make_unique<script::ScriptContext>();
  stage->context_->scene = scene;
  if (scene.settings.gravityField) stage->context_->G = scene.settings.gravityField->G;
  stage->vm_->user = stage->context_.get();
  lua_State* L = stage->vm_->state();
  script::openVec3(L);
  script::openGravity(L);
  script::openMatter(L);
  script::openScene(L);
  script::openWorld(L);
  script::openInput(L);
  script::openLog(L);
  for (Script& s : scripts) {
    if (auto compiled = stage->compile(s); !compiled)
      return Error{s.pointer + "/file", compiled.error().message()};
  }
  stage->scripts_ = std::move(scripts);
  return stage;
}

Expected<void> ScriptStage::compile(Script& s) {
  lua_State* L = vm_->state();
  if (auto loaded = vm_->loadFile(s.file); !loaded) return loaded.error();
  if (s.environment == 0) {
    vm_->pushNewEnvironment();
    if (s.nodeIndex >= 0) {
      script::pushNode(L, s.nodeIndex);
      lua_setfield(L, -2, "self");
    }
    s.environment = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, s.environment);
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);  // the chunk's _ENV
  if (s.chunk != 0) luaL_unref(L, LUA_REGISTRYINDEX, s.chunk);
  s.chunk = luaL_ref(L, LUA_REGISTRYINDEX);
  return {};
}

void ScriptStage::fail(const Script& s, const std::string& message) {
  failure_ = ScriptFailure{context_->tick, s.node, s.file, message};
}

template <typename Push>
bool ScriptStage::callFunction(const Script& s, const char* function, Push&& push) {
  lua_State* L = vm_->state();
  lua_rawgeti(L, LUA_REGISTRYINDEX, s.environment);
  lua_getfield(L, -1, function);
  lua_remove(L, -2);
  if (!lua_isfunction(L, -1)) {
    lua_pop(L, 1);
    return true;
  }
  context_->node = s.node;
  const int nargs = push(L);
  auto called = vm_->call(nargs, 0);
  if (!called) {
    fail(s, called.error().what);
    return false;
  }
  return true;
}

void ScriptStage::step(physics::Simulation& simulation, double tEnd, float dt) {
  if (failure_) return;
  script::ScriptContext& ctx = *context_;
  if (!ctx.simulation) ctx.sceneGravity = simulation.gravitySampler();
  ctx.simulation = &simulation;
  ctx.tick = simulation.tick();
  ctx.dt = dt;
  ctx.time = tEnd - double(dt);
  vm_->beginTick();
  lua_State* L = vm_->state();
  script::followSources(L);  // the scripts see the added sources where their nodes are now
  const auto noArgs = [](lua_State*) { return 0; };
  if (!started_) {
    started_ = true;
    // Every chunk runs (defining its functions), then every on_start, in script order.
    for (const Script& s : scripts_) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, s.chunk);
      ctx.node = s.node;
      if (auto ran = vm_->call(0, 0); !ran) return fail(s, ran.error().what);
    }
    for (const Script& s : scripts_)
      if (!callFunction(s, "on_start", noArgs)) return;
  }
  runContacts(simulation);
  if (failure_) return;
  for (const Script& s : scripts_) {
    const bool ok = callFunction(s, "on_tick", [&](lua_State* l) {
      lua_pushinteger(l, static_cast<lua_Integer>(ctx.tick));
      lua_pushnumber(l, double(dt));
      return 2;
    });
    if (!ok) return;
  }
  // Added sources ride their nodes: where they are as gravity is sampled.
  script::followSources(L);
  // Blends being ramped: their composed colliders' boxes follow k.
  std::vector<physics::ColliderId> ramping;
  for (const script::BlendRamp& r : ctx.ramps)
    if (simulation.world().valid(r.collider) && ctx.time <= r.start + r.seconds + double(dt))
      ramping.push_back(r.collider);
  if (!ramping.empty()) simulation.world().refitColliders(ramping, tEnd);
}

void ScriptStage::runContacts(physics::Simulation& simulation) {
  // The pairs touching after the last tick: characters on their ground, bodies' contacts.
  struct Touch {
    std::string a, b;
    Vec3 point, normal;  ///< (m), unit from b towards a
  };
  std::vector<Touch> touches;
  const physics::CollisionWorld& world = simulation.world();
  for (const physics::CharacterController& c : simulation.characters()) {
    const physics::CharacterState& s = c.state();
    if (!s.grounded || !world.valid(s.groundCollider)) continue;
    touches.push_back(
        {c.desc().name, world.nodeName(s.groundCollider), s.groundPoint, s.groundNormal});
  }
  const physics::RigidBodySystem& bodies = simulation.bodies();
  for (const physics::Contact& k : bodies.contacts()) {
    std::string other;
    if (k.bodyB >= 0) {
      other = bodies.desc(std::uint32_t(k.bodyB)).name;
    } else if (k.worldCollider >= 0) {
      for (physics::ColliderId id : world.ids())
        if (id.index == std::uint32_t(k.worldCollider)) other = world.nodeName(id);
    }
    if (other.empty()) continue;
    touches.push_back({bodies.desc(k.bodyA).name, other, k.point, k.normal});
  }
  std::vector<std::pair<std::string, std::string>> now;
  for (const Touch& t : touches) now.push_back(orderedPair(t.a, t.b));
  std::sort(now.begin(), now.end());
  now.erase(std::unique(now.begin(), now.end()), now.end());
  std::vector<std::pair<std::string, std::string>> began;
  std::set_difference(now.begin(), now.end(), touching_.begin(), touching_.end(),
                      std::back_inserter(began));
  touching_ = std::move(now);
  const scene::Scene& sc = context_->scene;
  for (const auto& pair : began) {
    // The first touch of the pair (in the order found) stands for its contact.
    const Touch* touch = nullptr;
    for (const Touch& t : touches)
      if (orderedPair(t.a, t.b) == pair) {
        touch = &t;
        break;
      }
    for (const Script& s : scripts_) {
      // Node scripts hear of their own node's pairs, as (self, other); scene scripts of all.
      std::string self = pair.first, other = pair.second;
      if (s.nodeIndex >= 0) {
        if (s.node == pair.second) std::swap(self, other);
        if (s.node != self) continue;
      }
      const int selfIndex = sc.findNode(self), otherIndex = sc.findNode(other);
      if (selfIndex < 0 || otherIndex < 0) continue;
      const bool ok = callFunction(s, "on_contact", [&](lua_State* L) {
        script::pushNode(L, selfIndex);
        script::pushNode(L, otherIndex);
        lua_createtable(L, 0, 2);
        script::pushVec3(L, touch->point);
        lua_setfield(L, -2, "point");
        script::pushVec3(L, self == touch->a ? touch->normal : -touch->normal);
        lua_setfield(L, -2, "normal");
        return 3;
      });
      if (!ok) return;
    }
  }
}

std::vector<ScriptLog> ScriptStage::takeLogs() {
  std::vector<ScriptLog> logs = std::move(context_->logs);
  context_->logs.clear();
  return logs;
}

Expected<void> ScriptStage::reload(const std::string& file) {
  for (Script& s : scripts_) {
    if (s.file != file) continue;
    const int oldChunk = s.chunk;
    s.chunk = 0;
    if (auto compiled = compile(s); !compiled) {
      s.chunk = oldChunk;
      return Error{s.pointer + "/file", compiled.error().message()};
    }
    luaL_unref(vm_->state(), LUA_REGISTRYINDEX, oldChunk);
    failure_.reset();  // the fixed script runs on from the next tick
    if (started_) {
      // Redefine its functions now; on_start is not run again.
      lua_State* L = vm_->state();
      lua_rawgeti(L, LUA_REGISTRYINDEX, s.chunk);
      vm_->beginTick();
      if (auto ran = vm_->call(0, 0); !ran) return Error{s.pointer + "/file", ran.error().what};
    }
  }
  return {};
}

std::vector<std::string> ScriptStage::files() const {
  std::vector<std::string> files;
  for (const Script& s : scripts_) files.push_back(s.file);
  return files;
}

std::shared_ptr<const physics::SimulationStageSnapshot> ScriptStage::save() const {
  auto s = std::make_shared<Snapshot>();
  s->started = started_;
  s->failure = failure_;
  s->touching = touching_;
  s->gravity = context_->gravity;
  return s;
}

void ScriptStage::restore(const physics::SimulationStageSnapshot& snapshot) {
  const auto& s = static_cast<const Snapshot&>(snapshot);
  started_ = s.started;
  failure_ = s.failure;
  touching_ = s.touching;
  context_->gravity = s.gravity;
  if (context_->simulation) script::installGravity(*context_, *context_->simulation);
}

std::uint64_t ScriptStage::stateHash() const {
  Fnv1a64 h;
  h.u64(started_);
  h.u64(failure_ ? failure_->tick + 1 : 0);
  for (const auto& [a, b] : touching_) {
    h.bytes(a.data(), a.size());
    h.bytes(b.data(), b.size());
  }
  // What the scripts set of gravity (nothing for scripts that leave it alone).
  const script::ScriptGravityState& g = context_->gravity;
  for (const script::AddedSource& s : g.sources)
    h.u64(std::uint64_t(s.node)), h.vec(s.source.center), h.f32(s.source.mass);
  for (const script::GravityRegion& r : g.regions)
    h.u64(std::uint64_t(r.node)), h.bytes(r.mode.name.data(), r.mode.name.size());
  for (const script::GravityReceiverMode& r : g.receivers)
    h.u64(std::uint64_t(r.receiver.kind)), h.u64(r.receiver.index),
        h.bytes(r.mode.name.data(), r.mode.name.size());
  return h.value();
}

const scene::Scene& ScriptStage::scene() const {
  return context_->scene;
}

const std::vector<int>& ScriptStage::changedNodes() const {
  return context_->changedNodes;
}

std::uint64_t ScriptStage::sceneRevision() const {
  return context_->sceneRevision;
}

ScriptStage* scriptStageOf(physics::Simulation& simulation) {
  // runtime's buildSimulation is the only one to install a script stage, always this class.
  return static_cast<ScriptStage*>(simulation.scriptStage());
}

const ScriptStage* scriptStageOf(const physics::Simulation& simulation) {
  return static_cast<const ScriptStage*>(simulation.scriptStage());
}

std::uint64_t scriptSeed(const scene::Scene& scene, const nlohmann::ordered_json& sceneScripts) {
  Fnv1a64 h;
  for (const scene::SceneNode& node : scene.nodes) h.bytes(node.name.data(), node.name.size());
  const std::string scripts = sceneScripts.dump();
  h.bytes(scripts.data(), scripts.size());
  return h.value();
}

std::string describeFailure(const ScriptFailure& failure) {
  std::string text = failure.message + " (tick " + std::to_string(failure.tick);
  if (!failure.node.empty()) text += ", node '" + failure.node + "'";
  return text + ")";
}

}  // namespace floptle::runtime
