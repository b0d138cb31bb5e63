#pragma once
// The one composition of a scene's field: every node's shape placed at its world transform,
// nodes of different materials combined by the interaction matrix. The viewport's shader, the
// CPU renderer, physics' colliders and `floptle query` all read it; none composes again.
//
// Pair rules, for nodes (or groups) a and b of materials A and B (Scene::interactions):
//   merge k   smin(a, b, k), the seed's polynomial smooth minimum:
//             h = max(k - |a - b|, 0) / k,  smin = min(a, b) - h^2 k / 4  (k = 0: min)
//   carve k   (A, B) carve: b bites a dent into a and keeps its own shape:
//             min(smax(a, -b, k), b) with smax(a, b, k) = -smin(-a, -b, k)
//   hard      min(a, b)
//   ignore    the two pass through each other: drawn and queried as min(a, b); in physics
//             each collides on its own (its own collider).
// k may be a driver of t (keys, sine): the composed field then changes with t.
//
// More than two materials, step by step (deterministic, and independent of the order of the
// interactions list):
//  1. Nodes of one material M are combined first, in document order, by M's own rule (M, M):
//     merge k folds smin, carve k lets each later node bite into the earlier ones; with no
//     rule of its own (or hard / ignore) they combine by hard union.
//  2. Materials joined by a merge or carve rule (set for (A, B) or (B, A), A != B) form blend
//     groups: the connected components of that graph over the materials the nodes use.
//     Material 0 (none) joins no group.
//  3. Inside a group, materials are folded breadth-first from the group's lowest material
//     index, neighbours in ascending index. Each next material M meets the accumulated field
//     F by the rule of the earliest-folded material X that has a merge or carve rule with it:
//     (X, M) when the document sets that pair (F is a, M's nodes are b), else (M, X) (M's
//     nodes are a, F is b). So with goo merging into a fractal and metal carving the goo,
//     metal bites into the blend of the two.
//  4. The scene's field is the hard union, in document order, of every node whose material
//     is in no blend group and has no merge / carve rule of its own, and of every other part
//     (a material with a rule of its own, a blend group) at the place of its first node.
// A node whose matter tier is morph takes part with its displaced shape (morphedShape).
// A surface takes the material of the nearer child where two fields meet (smin and min), the
// cut one's where carve cuts (field_program.h); so a hit on a blended surface names the node
// whose field is nearer there.
#include <span>
#include <vector>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_node.h"
#include "floptle/core/field/union_field.h"
#include "floptle/core/scene/scene.h"

namespace floptle::scene {

/// A node's shape (it has one) in its own space, displaced by its Morph terms when its
/// "matter" tier is morph (field/morph.h): the node's field as every reader sees it.
field::FieldNode morphedShape(const SceneNode& node);

/// The material a node's surface has, which places it in the composition: its shape's root
/// material (the node's own when the shape names none).
MaterialIndex surfaceMaterialOf(const SceneNode& node);

/// One term of the scene's hard union: a lone node, or nodes composed by their rules.
struct CompositionPart {
  /// Indices into Scene::nodes, in document order.
  std::vector<int> nodes;
  /// True when the part combines its nodes by merge or carve rules (a blend group, or one
  /// material with a merge / carve rule of its own); false for a lone node.
  bool blended = false;
};

/// The parts of the composition of `nodes` (indices into scene.nodes of nodes with a shape),
/// in the order the union takes them (step 4 above).
std::vector<CompositionPart> compositionParts(const Scene& scene, std::span<const int> nodes);

/// What a composed field's surface material names.
enum class SurfaceLabel {
  /// The scene's materials (drawing, the CPU renderer, the shader).
  Material,
  /// The composed node's position in `nodes` + 1, for each whole shape: which node's field
  /// decides the surface (physics names the hit's node by it).
  NodeOrdinal,
};

/// The field of `nodes` composed by the rules above, in world space.
field::FieldNode composeNodes(const Scene& scene, std::span<const int> nodes,
                              SurfaceLabel label = SurfaceLabel::Material);

/// The fields of `parts` (compositionParts of `nodes`), each composed in world space: the
/// terms of the scene's hard union, in its order.
std::vector<field::FieldNode> composeParts(const Scene& scene, std::span<const int> nodes,
                                           std::span<const CompositionPart> parts,
                                           SurfaceLabel label = SurfaceLabel::Material);

/// Indices of the nodes with a shape (with collidableOnly, of those whose collider collides).
std::vector<int> shapedNodes(const Scene& scene, bool collidableOnly = false);

/// The scene's field as a UnionField of its composition parts (one program each), with the
/// part each term came from: what the CPU renderer, `floptle query` and the viewport read, so
/// a scene of many props costs what the props near a point cost.
struct SceneUnion {
  std::vector<CompositionPart> parts;
  field::UnionField field;
};
/// Compiles every part; the error names the part's first node. A scene without shapes is
/// refused (an empty union is not a field).
Expected<SceneUnion> compileSceneUnion(const Scene& scene, double time);

/// Depth below the origin of the empty scene's one point (m): past any ray's march.
inline constexpr float kEmptySceneDepth = 1e6f;
/// The field of a scene without shapes (nothing, or only baked fields drawn from brick maps):
/// a union of one point kEmptySceneDepth below the origin, which no ray reaches, since the
/// renderers and the viewport march a UnionField and an empty union is not a field.
field::UnionField emptySceneField(double time);

}  // namespace floptle::scene
