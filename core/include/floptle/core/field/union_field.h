#pragma once
// UnionField: a field that is the hard union (min) of many parts, each a compiled program with
// conservative bounds, over a bounding-volume hierarchy of those bounds. A point only
// evaluates the parts whose boxes are nearer than the distance already found, nearest first,
// so a scene of 10,000 props costs what the few near the point cost. The scene's composition
// (scene::sceneParts) gives the parts; the CPU renderer, `floptle query` and the viewport's
// GPU buffers (render::packSceneBuffers) all read this one structure.
//
// Parts with an unbounded box (a ground plane, an infinite repeat) are not in the hierarchy:
// every point evaluates them. Bounds are those of FieldProgram::bounds at the fitted time;
// refit(t) refreshes the animated parts' boxes and the hierarchy's boxes (its topology stays).
// A query at another time than the fitted one evaluates every animated part (still exact).
#include <cstdint>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_program.h"
#include "floptle/core/math.h"

namespace floptle::field {

/// One node of the flattened hierarchy, depth first: an inner node's left child is the next
/// node, its right child is `right`; a leaf (count > 0) holds parts leafParts[first, +count).
struct UnionBvhNode {
  Aabb box;
  std::int32_t right = -1;
  std::int32_t first = 0;
  std::int32_t count = 0;
};

class UnionField {
 public:
  /// Most parts a leaf holds.
  static constexpr int kLeafSize = 2;
  /// Distance (m) from a part's box below which the render estimate evaluates the part
  /// itself; beyond it the box distance stands in. Larger than the raymarcher's widest hit
  /// epsilon (shading_model.h: 2e-4 + 6e-4 * 250 m), so no ray stops on a box.
  static constexpr float kRenderBoundMargin = 0.25f;

  /// Takes the parts and builds the hierarchy over their bounds at time t (binned SAH,
  /// O(N log N)). An empty list is refused: an empty union is not a field.
  static Expected<UnionField> build(std::vector<FieldProgram> parts, double time);

  /// Exact signed distance of the union at p (m), at time t (s).
  float distance(Vec3 p, double t) const;
  /// Distance and the material of the nearest part's surface.
  FieldSample sample(Vec3 p, double t) const;
  /// The index of the part whose field is nearest at p (the one `sample` names).
  int nearestPart(Vec3 p, double t) const;
  /// A lower bound of distance() with the same zero set, for sphere tracing: a part whose box
  /// is farther than `boundMargin` (at least kRenderBoundMargin) answers with its box distance.
  /// The viewport's shader evaluates exactly this, so the CPU reference render and the
  /// viewport draw alike. withUnbounded false leaves the unbounded parts out (a march that
  /// traces them apart).
  FieldSample renderSample(Vec3 p, double t, bool withUnbounded = true,
                           float boundMargin = kRenderBoundMargin) const;
  /// Outward unit normal at p (tetrahedron taps of distance(), epsilon of the nearest part).
  Vec3 normal(Vec3 p, double t) const;

  /// Union of the parts' boxes at the fitted time (infinite extent with an unbounded part).
  Aabb bounds() const;
  bool animated() const { return !animatedParts_.empty(); }
  double fittedTime() const { return fittedTime_; }
  /// Refreshes the boxes of the animated parts and of the hierarchy for time t.
  void refit(double t);
  /// Replaces part i's program (a node edited or moved) and refits its box at the fitted time;
  /// the hierarchy keeps its topology, so many moves in a row degrade culling gracefully until
  /// the next build.
  void replacePart(int index, FieldProgram program);

  int partCount() const { return int(parts_.size()); }
  const FieldProgram& part(int index) const { return parts_[std::size_t(index)]; }
  /// Part i's box at the fitted time (empty-safe; infinite for an unbounded part).
  const Aabb& partBox(int index) const { return boxes_[std::size_t(index)]; }
  const std::vector<UnionBvhNode>& nodes() const { return nodes_; }
  /// Parts in leaf order: leaves index into this.
  const std::vector<std::int32_t>& leafParts() const { return leafParts_; }
  /// Parts outside the hierarchy (unbounded boxes), evaluated at every point.
  const std::vector<std::int32_t>& unboundedParts() const { return unbounded_; }

 private:
  template <class Visit>
  void visitNear(Vec3 p, float& best, Visit&& visit) const;
  void refitNodes();
  bool fitted(double t) const { return t == fittedTime_ || animatedParts_.empty(); }

  std::vector<FieldProgram> parts_;
  std::vector<Aabb> boxes_;
  std::vector<UnionBvhNode> nodes_;
  std::vector<std::int32_t> leafParts_;
  std::vector<std::int32_t> unbounded_;
  std::vector<std::int32_t> animatedParts_;
  double fittedTime_ = 0.0;
};

}  // namespace floptle::field
