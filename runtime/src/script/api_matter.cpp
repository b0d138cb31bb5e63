// The `matter` table (seed 002 section 6):
//   matter.set_tier(node, "rigid" | "morph" | "blend" | "soft" | "visco", knobs): a node keeps
//     the tier its scene gave it (a call naming that tier is accepted); a change of tier at run
//     time is refused with what to do instead.
//   matter.set_sticky(node, {strength (0..1), break_strain (-)}): a visco body's stickiness
//     and break strain from the next step on; any other node is refused by name.
//   matter.blend_into(node, other, {k_from (m), k_to (m), seconds (s)}): the two static nodes'
//     materials merge (smooth union) with a blend radius k ramping linearly from k_from now
//     to k_to `seconds` later, then holding; their colliders become one composed collider.
//   matter.wake(node): wakes a sleeping rigid or soft body.
#include <cmath>

#include "floptle/core/scene/scene.h"
#include "floptle/matter/soft_body_stage.h"
#include "floptle/runtime/scene_matter.h"
#include "script/collider_swap.h"
#include "script/script_context.h"

namespace floptle::runtime::script {
namespace {

/// The soft body of `name` in the simulation's matter stage, or null.
matter::SoftBody* softBodyOf(physics::Simulation& sim, const std::string& name) {
  // The matter stage runtime installs is always a SoftBodyStage (runtime/scene_matter.h).
  auto* stage = static_cast<matter::SoftBodyStage*>(sim.matterStage());
  if (!stage) return nullptr;
  for (matter::SoftBody& b : stage->bodies())
    if (b.name() == name) return &b;
  return nullptr;
}

/// The tier names scripts use, in the component's spelling ("blend" -> "field_blend").
std::string componentTier(const std::string& tier) {
  if (tier == "blend") return "field_blend";
  if (tier == "soft") return "soft_body";
  return tier;
}

int setTier(lua_State* L) {
  const int node = checkNode(L, 1, "matter.set_tier");
  const std::string tier = componentTier(luaL_checkstring(L, 2));
  const scene::SceneNode& n = nodeAt(L, node);
  if (tier != "rigid" && tier != "morph" && tier != "field_blend" && tier != "soft_body" &&
      tier != "visco")
    return luaL_error(L, "matter.set_tier: unknown tier '%s' (rigid, morph, blend, soft, visco)",
                      luaL_checkstring(L, 2));
  std::string current = "rigid";
  if (n.hasComponent("matter")) {
    const nlohmann::ordered_json& component = n.components["matter"];
    if (component.contains("tier") && component["tier"].is_string())
      current = component["tier"].get<std::string>();
  }
  if (current != tier)
    return luaL_error(L,
                      "matter.set_tier: '%s' is %s; changing a node's tier while the "
                      "simulation runs is not available (set its \"matter\" component)",
                      n.name.c_str(), current.c_str());
  return 0;
}

int setSticky(lua_State* L) {
  const int node = checkNode(L, 1, "matter.set_sticky");
  luaL_checktype(L, 2, LUA_TTABLE);
  const scene::SceneNode& n = nodeAt(L, node);
  matter::SoftBody* body = softBodyOf(simulationOf(L), n.name);
  if (!body || !body->desc().visco)
    return luaL_error(L,
                      "matter.set_sticky: '%s' is not a visco body (sticky bonds are the "
                      "'visco' tier's; set its \"matter\" tier to \"visco\")",
                      n.name.c_str());
  matter::ViscoKnobs knobs = body->desc().viscoKnobs;
  const float strength = optNumberField(L, 2, "strength", knobs.stickiness, "matter.set_sticky");
  const float breakStrain =
      optNumberField(L, 2, "break_strain", knobs.breakStrain, "matter.set_sticky");
  if (!(strength >= 0.0f && strength <= 1.0f))
    return luaL_error(L, "matter.set_sticky: strength must be in [0, 1], got %f", strength);
  if (!(breakStrain > 0.0f && std::isfinite(breakStrain)))
    return luaL_error(L, "matter.set_sticky: break_strain must be > 0, got %f", breakStrain);
  knobs.stickiness = strength;
  knobs.breakStrain = breakStrain;
  // Every piece of the node (a split body's components keep its name).
  auto* stage = static_cast<matter::SoftBodyStage*>(simulationOf(L).matterStage());
  for (matter::SoftBody& b : stage->bodies())
    if (b.name() == n.name) b.setViscoKnobs(knobs);
  return 0;
}

int wake(lua_State* L) {
  const int node = checkNode(L, 1, "matter.wake");
  physics::Simulation& sim = simulationOf(L);
  const scene::SceneNode& n = nodeAt(L, node);
  if (auto body = sim.findBody(n.name)) {
    sim.bodies().wake(body->index);
  } else if (matter::SoftBody* soft = softBodyOf(sim, n.name)) {
    soft->state().asleep = false;
    soft->state().stillTime = 0.0f;
  } else {
    return luaL_error(L, "matter.wake: '%s' is not a rigid or soft body", n.name.c_str());
  }
  return 0;
}

/// Sets the rule of the ordered pair (a, b) to merge with blend radius k.
void setMerge(scene::Scene& sc, field::MaterialIndex a, field::MaterialIndex b,
              const field::AnimatedScalar& k) {
  for (scene::Interaction& i : sc.interactions)
    if (i.a == a && i.b == b) {
      i.rule = scene::InteractionRule::Merge;
      i.k = k;
      return;
    }
  scene::Interaction i;
  i.a = a;
  i.b = b;
  i.rule = scene::InteractionRule::Merge;
  i.k = k;
  i.pointer = "/interactions (script)";
  sc.interactions.push_back(i);
}

int blendInto(lua_State* L) {
  const int node = checkNode(L, 1, "matter.blend_into");
  const int other = checkNode(L, 2, "matter.blend_into");
  luaL_checktype(L, 3, LUA_TTABLE);
  const float kFrom = optNumberField(L, 3, "k_from", 0.0f, "matter.blend_into");
  const float kTo = optNumberField(L, 3, "k_to", kFrom, "matter.blend_into");
  const float seconds = optNumberField(L, 3, "seconds", 0.0f, "matter.blend_into");
  if (kFrom < 0.0f || kTo < 0.0f || seconds < 0.0f)
    return luaL_error(L, "matter.blend_into: k_from, k_to (m) and seconds (s) must be >= 0");
  ScriptContext& ctx = contextOf(L);
  physics::Simulation& sim = simulationOf(L);
  const scene::SceneNode& a = ctx.scene.nodes[std::size_t(node)];
  const scene::SceneNode& b = ctx.scene.nodes[std::size_t(other)];
  if (node == other) return luaL_error(L, "matter.blend_into: a node cannot blend into itself");
  for (const scene::SceneNode* n : {&a, &b}) {
    const NodeParts parts = partsOf(L, *n);
    if (!n->shape || !parts.collider)
      return luaL_error(L, "matter.blend_into: '%s' is not a static node with a shape",
                        n->name.c_str());
  }
  const field::MaterialIndex ma = a.material, mb = b.material;
  if (ma == 0 || mb == 0 || ma == mb)
    return luaL_error(L,
                      "matter.blend_into: '%s' and '%s' need two different materials (the "
                      "interaction matrix pairs materials)",
                      a.name.c_str(), b.name.c_str());
  field::AnimatedScalar k(kFrom);
  if (seconds > 0.0f && kTo != kFrom) {
    k.driver = field::AnimatedScalar::Driver::Keys;
    k.keys = {{ctx.time, kFrom}, {ctx.time + double(seconds), kTo}};
  } else {
    k = field::AnimatedScalar(kTo);
  }
  setMerge(ctx.scene, ma, mb, k);
  setMerge(ctx.scene, mb, ma, k);
  std::vector<int> members{node, other};
  std::sort(members.begin(), members.end());  // scene order, as the scene build composes
  auto id = replaceColliders(ctx, sim, members);
  if (!id) return luaL_error(L, "matter.blend_into: %s", id.error().message().c_str());
  ctx.ramps.push_back({a.name, b.name, *id, ctx.time, double(seconds)});
  return 0;
}

}  // namespace

void openMatter(lua_State* L) {
  static const luaL_Reg kMatter[] = {{"set_tier", setTier},
                                     {"set_sticky", setSticky},
                                     {"blend_into", blendInto},
                                     {"wake", wake},
                                     {nullptr, nullptr}};
  luaL_newlib(L, kMatter);
  lua_setglobal(L, "matter");
}

}  // namespace floptle::runtime::script
