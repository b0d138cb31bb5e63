// Reading the "matter" component through the component table.
#include "floptle/matter/matter_model.h"

#include "floptle/core/scene/component_values.h"

namespace floptle::matter {

Expected<MatterModel> readMatterModel(const nlohmann::ordered_json& component,
                                      const std::string& pointer) {
  MatterModel model;
  if (component.is_null()) return model;
  auto in = scene::ComponentReader::open(component, "matter", pointer);
  if (!in) return in.error();
  std::string tier = "rigid";
  if (auto r = in->string("tier", tier); !r) return r.error();
  if (tier == "rigid") {
    if (auto r = in->onlyKnownKeys(); !r) return r.error();
    return model;
  }
  if (tier != "soft_body")
    return Error{pointer + "/tier", "the matter tier \"" + tier + "\" is not built yet"};
  model.tier = MatterTier::SoftBody;
  auto soft = scene::ComponentReader::open(component, "matter_soft_body", pointer);
  if (!soft) return soft.error();
  SoftBodyKnobs& k = model.softBody;
  if (auto r = scene::firstRefusal(
          {soft->integer("particles", k.particles), soft->number("stiffness", k.stiffness),
           soft->number("volume_preserve", k.volumePreserve),
           soft->number("shape_match", k.shapeMatch), soft->integer("substeps", k.substeps),
           soft->number("damping", k.damping), soft->onlyKnownKeys()});
      !r)
    return r.error();
  return model;
}

}  // namespace floptle::matter
