#pragma once
// FieldProgram: a field graph compiled once into a flat instruction list, evaluated per point
// and in batches without walking a tree of virtual calls. Evaluation is const and keeps its
// scratch on the caller's stack, so one program may be evaluated from many threads at once.
#include <cstdint>
#include <span>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_node.h"
#include "floptle/core/math.h"

namespace floptle::field {

struct FieldSample {
  /// Signed distance (m); negative inside.
  float distance = 0.0f;
  /// Material of the surface nearest the point.
  MaterialIndex material = 0;
};

class FieldProgram {
 public:
  /// Validates and compiles `root`. Refuses (with where and what) negative radii, non-finite
  /// parameters, CSG nodes without children, wrong child counts.
  static Expected<FieldProgram> compile(const FieldNode& root);

  /// Signed distance at p (m) at time t (s). A static graph goes straight to an evaluator
  /// chosen at compile time (one indirect call; a lone primitive skips the interpreter).
  float distance(Vec3 p, double t) const {
    return staticDistance_ ? staticDistance_(*impl_, p) : distanceAt(p, t);
  }
  FieldSample sample(Vec3 p, double t) const;
  /// Outward unit normal at p: analytic where the graph has one, else the 4-tap tetrahedron
  /// difference with an epsilon scaled to the graph (gradientEpsilon()).
  Vec3 normal(Vec3 p, double t) const;
  /// Distances of many points at one time; out.size() must equal points.size().
  void distanceBatch(std::span<const Vec3> points, double t, std::span<float> out) const;

  /// Conservative world bounds at time t (infinite extent for planes / repeats).
  Aabb bounds(double t) const;
  /// True when some parameter is animated (the field changes with t).
  bool animated() const;
  /// Tetrahedron-gradient epsilon (m), ~1e-3 of the graph's scale.
  float gradientEpsilon() const;

  /// Every parameter slot's value at time t, in slot order: the GLSL uniform array.
  std::vector<float> parameterValues(double t) const;
  int parameterCount() const;

  // Internals (instruction list, parameter table) are private to field_program.cpp. A move
  // takes the internals without allocating: a moved-from program may only be assigned to or
  // destroyed (a level compiles one program a node and moves each twice).
  struct Impl;
  FieldProgram();
  FieldProgram(const FieldProgram&);
  FieldProgram(FieldProgram&&) noexcept;
  FieldProgram& operator=(const FieldProgram&);
  FieldProgram& operator=(FieldProgram&&) noexcept;
  ~FieldProgram();
  const Impl& impl() const { return *impl_; }

 private:
  float distanceAt(Vec3 p, double t) const;
  Impl* impl_;
  /// Set for graphs without animated parameters (their distance does not depend on t).
  float (*staticDistance_)(const Impl&, Vec3) = nullptr;
};

}  // namespace floptle::field
