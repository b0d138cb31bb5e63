// sceneGravityField: the settings' gravity plus the nodes' emitters.
#include "floptle/gravity/scene_gravity.h"

#include "floptle/core/scene/component_values.h"
#include "floptle/core/scene/scene.h"

namespace floptle::gravity {

bool isUniform(const scene::Scene& sc) {
  if (sc.settings.gravityField) return false;
  for (const scene::SceneNode& node : sc.nodes)
    if (node.hasComponent("gravity_source")) return false;
  return true;
}

Expected<scene::GravityFieldDesc> sceneGravityField(const scene::Scene& sc) {
  scene::GravityFieldDesc desc;
  if (sc.settings.gravityField)
    desc = *sc.settings.gravityField;
  else
    desc.global = sc.settings.gravity;
  for (const scene::SceneNode& node : sc.nodes) {
    if (!node.hasComponent("gravity_source")) continue;
    const std::string where = node.pointer + "/gravity_source";
    auto in =
        scene::ComponentReader::open(node.components["gravity_source"], "gravity_source", where);
    if (!in) return in.error();
    std::string type;
    scene::GravitySource s;
    s.type = scene::GravitySource::Type::Planet;
    s.center = node.world.position;
    if (auto r = scene::firstRefusal({in->string("type", type), in->number("strength", s.strength),
                                      in->number("r_outer", s.rOuter)});
        !r)
      return r.error();
    if (type != "planet")
      return Error{
          where + "/type",
          "\"" + type + "\" emitters are not supported by this build yet (use \"planet\")"};
    desc.sources.push_back(s);
  }
  return desc;
}

}  // namespace floptle::gravity
