// ScriptGravity: the scene's field, the added sources, regions and receivers' own modes
// (script_gravity.h).
#include "script/script_gravity.h"

namespace floptle::runtime::script {

ScriptGravity::ScriptGravity(std::shared_ptr<const physics::GravitySampler> base, Vec3 uniform,
                             float G, ScriptGravityState state)
    : base_(std::move(base)), uniform_(uniform), G_(G), state_(std::move(state)) {}

Vec3 ScriptGravity::addedSources(Vec3 p) const {
  Vec3 g(0.0f);
  for (const AddedSource& s : state_.sources) g += gravity::GravityField::source(s.source, G_, p);
  return g;
}

Vec3 ScriptGravity::sceneField(Vec3 p, double t) const {
  const Vec3 g = (base_ ? base_->sample(p, t) : uniform_) + addedSources(p);
  return isFinite(g) ? g : Vec3(0.0f);
}

Vec3 ScriptGravity::modeField(const GravityMode& mode, Vec3 p, double t) const {
  Vec3 g = mode.field->sample(p, t);
  if (mode.withAddedSources) g += addedSources(p);
  return isFinite(g) ? g : Vec3(0.0f);
}

Vec3 ScriptGravity::sample(Vec3 p, double t) const {
  // The last region in scene node order that holds p.
  for (auto r = state_.regions.rbegin(); r != state_.regions.rend(); ++r)
    if (r->shape->distance(p, t) <= r->reach) return modeField(r->mode, p, t);
  return sceneField(p, t);
}

Vec3 ScriptGravity::sampleFor(physics::GravityReceiver receiver, Vec3 p, double t) const {
  for (const GravityReceiverMode& m : state_.receivers)
    if (m.receiver.kind == receiver.kind && m.receiver.index == receiver.index)
      return modeField(m.mode, p, t);
  return sample(p, t);
}

void ScriptGravity::beginTick(const physics::Simulation& simulation, double tStart) const {
  if (base_) base_->beginTick(simulation, tStart);
  for (const GravityRegion& r : state_.regions) r.mode.field->beginTick(simulation, tStart);
  for (const GravityReceiverMode& m : state_.receivers) m.mode.field->beginTick(simulation, tStart);
}

}  // namespace floptle::runtime::script
