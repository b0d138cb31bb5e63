#pragma once
// The field graph's authoring form: a tree of FieldNode values (what the scene document
// stores and the inspector edits). It is compiled into a flat FieldProgram for evaluation
// (field_program.h) and emitted as GLSL (field_glsl.h). Units: meters, radians, seconds; +Y up.
//
// Every node type has a fixed, ordered list of scalar parameters described by a NodeSpec
// (node_spec.h): JSON keys, defaults, valid ranges, units. Vector parameters (half_extents,
// a, b, normal, position, rotation, period) occupy consecutive scalar slots. One table drives
// JSON I/O, validation, the inspector and GLSL uniforms.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "floptle/core/field/animated_scalar.h"
#include "floptle/core/math.h"

namespace floptle::field {

enum class NodeType : std::uint8_t {
  // primitives
  Sphere,
  Box,
  RoundBox,
  Capsule,
  Cylinder,
  Torus,
  Plane,
  Wedge,
  Stairs,
  // rigid transform (translate, rotate, uniform scale), exactly one child
  Transform,
  // CSG, one or more children (subtraction: first minus the union of the rest)
  Union,
  Intersection,
  Subtraction,
  SmoothUnion,
  SmoothIntersection,
  SmoothSubtraction,
  // domain operations, exactly one child
  Repeat,
  Twist,
  // Morph displacement terms (seed 002), exactly one child: f(p) = child(p + d(p, t)). A
  // displacement node whose child is another displacement node adds its term to the same d,
  // so a chain of them is one sum of terms, all read at the chain's input point.
  DisplaceSine,
  DisplaceNoise,
  // fractals
  Mandelbulb,
  Menger,
  Mandelbox,
  // Not a node type: how many there are. It stays last, so a new type is counted and every
  // table sized by kNodeTypeCount (node_spec.cpp) refuses to compile until it has a row.
  Count,
};

inline constexpr std::size_t kNodeTypeCount = static_cast<std::size_t>(NodeType::Count);

/// Material index into the scene's material table; 0 = none (drawn in the default colour).
using MaterialIndex = std::uint16_t;

struct FieldNode {
  NodeType type = NodeType::Sphere;
  /// Scalar parameters in the order of nodeSpec(type).params (components expanded).
  std::vector<AnimatedScalar> params;
  std::vector<FieldNode> children;
  /// Material of this node's surface; children without their own inherit it.
  MaterialIndex material = 0;
  /// True when `material` was set on this node (and so is written back to JSON).
  bool hasOwnMaterial = false;

  bool operator==(const FieldNode&) const = default;
};

}  // namespace floptle::field
