#pragma once
// ScriptGravity: the field the simulation samples once a script changed gravity (seed 001
// section 7: each body carries its own field, or a shared one). With
//   S(p) = the scene's field (the simulation's sampler as built, or its uniform vector)
//          + the sources scripts added (gravity.add_source, each riding its node)
// a body or character given a mode (gravity.set_mode on it) obeys that mode's field M(p)
// everywhere; any other receiver, and gravity.sample(p), read the region containing p (the
// last in scene node order where regions overlap): M(p) of that region's mode, else S(p).
// A region is a shaped node's interior grown by its reach: the points where the node's field
// (at the node's transform when the mode was set) is <= reach (m).
// A mode is one tier: "global" a constant vector, "sources" the scene's and the added
// sources, "sdf_surface" the pull onto the simulation's collidable world, "density" the
// Poisson field of the scene's matter (a grid of its own, solved when the mode is set).
// The state (the modes, regions and added sources) is a value: copies share the fields,
// which never change once made, so a snapshot is a copy.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floptle/core/scene/gravity_desc.h"
#include "floptle/gravity/gravity_field.h"
#include "floptle/physics/collision_shape.h"
#include "floptle/physics/gravity_sampler.h"

namespace floptle::runtime::script {

/// One tier picked by gravity.set_mode.
struct GravityMode {
  std::string name;  ///< "global", "sources", "sdf_surface" or "density"
  /// The tier's field ("sources": the scene's own sources).
  std::shared_ptr<const gravity::GravityField> field;
  /// "sources": the added sources are summed too.
  bool withAddedSources = false;
};

/// A source a script added: a point mass at its node's position, updated every tick.
struct AddedSource {
  int node = -1;                ///< index into the scene's nodes
  scene::GravitySource source;  ///< Point; mass is g_const m / G
};

struct GravityRegion {
  int node = -1;  ///< index into the scene's nodes (the order where regions overlap)
  std::shared_ptr<const physics::CollisionShape> shape;  ///< the node's field, placed
  float reach = 0.0f;                                    ///< (m)
  GravityMode mode;
};

struct GravityReceiverMode {
  physics::GravityReceiver receiver;
  std::string node;
  GravityMode mode;
};

struct ScriptGravityState {
  std::vector<AddedSource> sources;
  std::vector<GravityRegion> regions;          ///< sorted by node
  std::vector<GravityReceiverMode> receivers;  ///< one per receiver
  bool empty() const { return sources.empty() && regions.empty() && receivers.empty(); }
};

class ScriptGravity final : public physics::GravitySampler {
 public:
  /// `base`: the simulation's own sampler (null: `uniform` everywhere); G: the scene's.
  ScriptGravity(std::shared_ptr<const physics::GravitySampler> base, Vec3 uniform, float G,
                ScriptGravityState state);

  Vec3 sample(Vec3 p, double t) const override;
  Vec3 sampleFor(physics::GravityReceiver receiver, Vec3 p, double t) const override;
  float easingRate() const override { return base_ ? base_->easingRate() : 0.0f; }
  void beginTick(const physics::Simulation& simulation, double tStart) const override;

  /// S(p): the scene's field plus the added sources, no region.
  Vec3 sceneField(Vec3 p, double t) const;
  /// M(p) of `mode`.
  Vec3 modeField(const GravityMode& mode, Vec3 p, double t) const;

 private:
  Vec3 addedSources(Vec3 p) const;

  std::shared_ptr<const physics::GravitySampler> base_;
  Vec3 uniform_;
  float G_;
  ScriptGravityState state_;
};

}  // namespace floptle::runtime::script
