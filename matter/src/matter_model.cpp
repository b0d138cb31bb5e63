// Reading the "matter" component through the component table.
#include "floptle/matter/matter_model.h"

#include "floptle/core/field/morph.h"
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
  if (tier == "morph") {
    model.tier = MatterTier::Morph;
    for (const auto& [key, value] : component.items())
      if (key != "tier" && key != "displacement" && key != "bake")
        return Error{pointer + "/" + key, "is not a morph setting (displacement, bake)"};
    auto morph = field::readMorph(component, pointer);
    if (!morph) return morph.error();
    model.morph = std::move(morph.value());
    return model;
  }
  if (tier != "soft_body" && tier != "visco")
    return Error{pointer + "/tier", "the matter tier \"" + tier + "\" is not built yet"};
  const bool visco = tier == "visco";
  model.tier = visco ? MatterTier::Visco : MatterTier::SoftBody;
  auto soft =
      scene::ComponentReader::open(component, visco ? "matter_visco" : "matter_soft_body", pointer);
  if (!soft) return soft.error();
  SoftBodyKnobs& k = model.softBody;
  if (auto r = scene::firstRefusal(
          {soft->integer("particles", k.particles), soft->number("stiffness", k.stiffness),
           soft->number("volume_preserve", k.volumePreserve),
           soft->number("shape_match", k.shapeMatch), soft->integer("substeps", k.substeps),
           soft->number("damping", k.damping), soft->onlyKnownKeys()});
      !r)
    return r.error();
  if (visco) {
    ViscoKnobs& v = model.visco;
    if (auto r = scene::firstRefusal({soft->number("stickiness", v.stickiness),
                                      soft->number("break_strain", v.breakStrain),
                                      soft->number("yield_strain", v.yieldStrain),
                                      soft->number("contact_band", v.contactBand)});
        !r)
      return r.error();
  }
  return model;
}

}  // namespace floptle::matter
