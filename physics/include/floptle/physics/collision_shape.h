#pragma once
// CollisionShape: anything physics can query (seed 000, "The collision world").
// Implemented by analytic field colliders, baked sparse brickmaps and triangle-mesh BVHs.
// All queries are const and thread-safe. Positions in world meters, time t in seconds.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "floptle/core/math.h"

namespace floptle::physics {

class CollisionShape {
 public:
  virtual ~CollisionShape() = default;

  /// Signed distance at world point p at time t (m). Negative inside.
  virtual float distance(Vec3 p, double t) const = 0;
  /// Outward unit normal at p (analytic where available, else finite differences).
  virtual Vec3 normal(Vec3 p, double t) const = 0;
  /// Conservative world AABB at time t (may grow with morph); used by the broadphase.
  virtual Aabb aabb(double t) const = 0;

  /// Whether distance(p, t) depends on t (an animated field, a posed body, a near field read
  /// from an animated source): contacts then carry its df/dt surface velocity and the world
  /// refits its box every step. Asked instead of looking the type up.
  virtual bool changesWithTime() const { return false; }
  /// Whether the shape keeps state the simulation updates once a step (a re-baked brickmap).
  virtual bool updatesEachStep() const { return false; }
  /// Once a step, before any query of that step (single-threaded): the positions of the
  /// bodies that matter this step (m) and the step's end time t (s). Only called when
  /// updatesEachStep().
  virtual void updateForStep(std::span<const Vec3> /*activeBodies*/, double /*t*/) {}

  /// What updateForStep changed, for Simulation::save / restore: a value of the shape's own
  /// kind, opaque to everyone else. Immutable once saved; may be restored many times.
  class StepState {
   public:
    virtual ~StepState() = default;
  };
  /// The shape's step state now; null for shapes that keep none.
  virtual std::shared_ptr<const StepState> saveStepState() const { return nullptr; }
  /// Puts back a state that saveStepState() of this same shape returned: afterwards the shape
  /// answers, and updates, bit for bit as it did when it was saved.
  virtual void restoreStepState(const StepState& /*state*/) {}
  /// FNV-1a 64 of the step state's bits (0 without one), for Simulation::stateHash.
  virtual std::uint64_t stepStateHash() const { return 0; }

  /// Label of the face nearest p (a material slot index), only for shapes with several
  /// surfaces (meshes). Costs its own closest-point search: read on demand, never on the
  /// query path. Shapes with one surface answer nullopt, deliberately.
  virtual std::optional<std::uint16_t> faceLabel(Vec3 /*p*/) const { return std::nullopt; }
  /// Name of a face label (the mesh's material slot name); empty when unknown.
  virtual std::string labelName(std::uint16_t /*label*/) const { return {}; }

  /// A shape composed of several nodes' fields (a blend of the interaction matrix) names
  /// the node whose field decides the surface at p at time t, and that node's material id
  /// ("" for none). Both strings are owned by the shape. Shapes of one node answer nullopt:
  /// their collider's node is the name.
  struct Member {
    const std::string* node = nullptr;
    const std::string* material = nullptr;
  };
  virtual std::optional<Member> memberAt(Vec3 /*p*/, double /*t*/) const { return std::nullopt; }

  /// Optional fast paths. Shapes that can answer a ray or sphere cast faster than sphere
  /// marching (a mesh BVH) override these; `handled` false means "march me".
  struct CastResult {
    bool handled = false;
    bool hit = false;
    /// The cast started inside (ray) or overlapping (sphere): distance 0.
    bool inside = false;
    float distance = 0.0f;  ///< along the unit direction (m)
    Vec3 point{0.0f};
    Vec3 normal{0.0f};
    /// True when `normal` is exactly this shape's normal(origin + unitDir * distance, t), so
    /// the world's hit builder need not ask for it again (same bits either way).
    bool normalIsShapeNormal = false;
  };
  virtual CastResult castSphere(Vec3 /*origin*/, Vec3 /*unitDir*/, float /*radius*/,
                                float /*maxDistance*/, double /*t*/) const {
    return {};
  }
};

}  // namespace floptle::physics
