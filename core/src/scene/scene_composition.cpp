// The one composition of a scene's field (scene_composition.h states the rules).
#include "floptle/core/scene/scene_composition.h"

#include <algorithm>
#include <map>
#include <utility>

#include "floptle/core/field/morph.h"
#include "floptle/core/field/node_spec.h"

namespace floptle::scene {
namespace {

using field::FieldNode;
using field::NodeType;

bool blends(const Interaction* rule) {
  return rule && (rule->rule == InteractionRule::Merge || rule->rule == InteractionRule::Carve);
}

/// The merge or carve rule of the ordered pair (a, b), or null.
const Interaction* blendRule(const Scene& scene, MaterialIndex a, MaterialIndex b) {
  const Interaction* rule = scene.findInteraction(a, b);
  return blends(rule) ? rule : nullptr;
}

bool blendsWith(const Scene& scene, MaterialIndex a, MaterialIndex b) {
  return blendRule(scene, a, b) || blendRule(scene, b, a);
}

/// Every node of a shape's subtree labelled `label` (its own material, so nothing inherits).
void relabel(FieldNode& node, MaterialIndex label) {
  node.material = label;
  node.hasOwnMaterial = true;
  for (FieldNode& child : node.children) relabel(child, label);
}

FieldNode smoothUnion(FieldNode a, FieldNode b, const field::AnimatedScalar& k) {
  FieldNode n = field::makeDefaultNode(NodeType::SmoothUnion);
  n.params.assign(1, k);
  n.children.push_back(std::move(a));
  n.children.push_back(std::move(b));
  return n;
}

/// b bites a dent into a and keeps its own shape: min(smax(a, -b, k), b).
FieldNode carve(FieldNode a, FieldNode b, const field::AnimatedScalar& k) {
  FieldNode cut = field::makeDefaultNode(NodeType::SmoothSubtraction);
  cut.params.assign(1, k);
  cut.children.push_back(std::move(a));
  cut.children.push_back(b);
  FieldNode both = field::makeDefaultNode(NodeType::Union);
  both.children.push_back(std::move(cut));
  both.children.push_back(std::move(b));
  return both;
}

/// The pair (a, b) combined by `rule` (a merge or carve rule).
FieldNode combine(FieldNode a, FieldNode b, const Interaction& rule) {
  if (rule.rule == InteractionRule::Merge) return smoothUnion(std::move(a), std::move(b), rule.k);
  return carve(std::move(a), std::move(b), rule.k);
}

class Composer {
 public:
  Composer(const Scene& scene, std::span<const int> nodes, SurfaceLabel label)
      : scene_(scene), nodes_(nodes), label_(label) {}

  /// One node's shape at its world transform, labelled as asked.
  FieldNode placed(int index) const {
    const SceneNode& node = scene_.nodes[static_cast<std::size_t>(index)];
    FieldNode shape = morphedShape(node);
    if (label_ == SurfaceLabel::NodeOrdinal) {
      const auto at = std::find(nodes_.begin(), nodes_.end(), index) - nodes_.begin();
      relabel(shape, static_cast<MaterialIndex>(at + 1));
    }
    // The node's material becomes the shape's own, so that no enclosing node's inheritance
    // can replace it once the shapes share one tree.
    if (shape.material != 0) shape.hasOwnMaterial = true;
    return node.world.isIdentity() ? shape : placeShape(node.world, std::move(shape));
  }

  /// Nodes of one material combined by that material's own rule (step 1).
  FieldNode material(MaterialIndex m, const std::vector<int>& nodes) const {
    const Interaction* own = m != 0 ? blendRule(scene_, m, m) : nullptr;
    FieldNode folded = placed(nodes.front());
    if (nodes.size() == 1) return folded;
    if (!own) {
      FieldNode all = field::makeDefaultNode(NodeType::Union);
      all.children.push_back(std::move(folded));
      for (std::size_t i = 1; i < nodes.size(); ++i) all.children.push_back(placed(nodes[i]));
      return all;
    }
    for (std::size_t i = 1; i < nodes.size(); ++i)
      folded = combine(std::move(folded), placed(nodes[i]), *own);
    return folded;
  }

  /// A blend group's materials folded breadth-first (step 3); `byMaterial` holds each
  /// material's nodes in document order.
  FieldNode group(const std::vector<MaterialIndex>& order,
                  const std::map<MaterialIndex, std::vector<int>>& byMaterial) const {
    FieldNode folded = material(order.front(), byMaterial.at(order.front()));
    for (std::size_t i = 1; i < order.size(); ++i) {
      const MaterialIndex m = order[i];
      FieldNode next = material(m, byMaterial.at(m));
      for (std::size_t j = 0; j < i; ++j) {
        const MaterialIndex x = order[j];
        if (const Interaction* rule = blendRule(scene_, x, m)) {
          folded = combine(std::move(folded), std::move(next), *rule);
          break;
        }
        if (const Interaction* rule = blendRule(scene_, m, x)) {
          folded = combine(std::move(next), std::move(folded), *rule);
          break;
        }
      }
    }
    return folded;
  }

 private:
  const Scene& scene_;
  std::span<const int> nodes_;
  SurfaceLabel label_;
};

/// The blend groups of step 2, each in its fold order (step 3), over the materials present.
std::vector<std::vector<MaterialIndex>> blendGroups(const Scene& scene,
                                                    const std::vector<MaterialIndex>& present) {
  std::vector<std::vector<MaterialIndex>> groups;
  std::map<MaterialIndex, bool> placedInGroup;
  for (MaterialIndex start : present) {  // ascending
    if (start == 0 || placedInGroup[start]) continue;
    std::vector<MaterialIndex> order{start};
    placedInGroup[start] = true;
    for (std::size_t head = 0; head < order.size(); ++head) {
      for (MaterialIndex other : present) {
        if (other == 0 || placedInGroup[other] || !blendsWith(scene, order[head], other)) continue;
        placedInGroup[other] = true;
        order.push_back(other);
      }
    }
    groups.push_back(std::move(order));
  }
  return groups;
}

}  // namespace

FieldNode morphedShape(const SceneNode& node) {
  if (node.hasComponent("matter"))
    if (auto morph = field::morphOf(node.components["matter"]))
      return field::applyMorph(*morph, *node.shape);
  return *node.shape;
}

MaterialIndex surfaceMaterialOf(const SceneNode& node) {
  return node.shape && node.shape->material != 0 ? node.shape->material : node.material;
}

std::vector<CompositionPart> compositionParts(const Scene& scene, std::span<const int> nodes) {
  std::map<MaterialIndex, std::vector<int>> byMaterial;
  for (int index : nodes)
    byMaterial[surfaceMaterialOf(scene.nodes[static_cast<std::size_t>(index)])].push_back(index);
  std::vector<MaterialIndex> present;
  for (const auto& [m, members] : byMaterial) present.push_back(m);

  // Which part each material belongs to: a blended group, or none (its nodes stand alone).
  std::map<MaterialIndex, std::size_t> partOf;
  std::vector<CompositionPart> groupParts;
  for (const std::vector<MaterialIndex>& group : blendGroups(scene, present)) {
    const bool blended = group.size() > 1 || (byMaterial[group.front()].size() > 1 &&
                                              blendRule(scene, group.front(), group.front()));
    if (!blended) continue;
    CompositionPart part{{}, true};
    for (MaterialIndex m : group) {
      partOf[m] = groupParts.size();
      part.nodes.insert(part.nodes.end(), byMaterial[m].begin(), byMaterial[m].end());
    }
    std::sort(part.nodes.begin(), part.nodes.end());
    groupParts.push_back(std::move(part));
  }

  std::vector<CompositionPart> parts;
  std::vector<bool> emitted(groupParts.size(), false);
  for (int index : nodes) {
    const auto group = partOf.find(surfaceMaterialOf(scene.nodes[static_cast<std::size_t>(index)]));
    if (group == partOf.end()) {
      parts.push_back({{index}, false});
    } else if (!emitted[group->second]) {
      emitted[group->second] = true;
      parts.push_back(std::move(groupParts[group->second]));
    }
  }
  return parts;
}

std::vector<FieldNode> composeParts(const Scene& scene, std::span<const int> nodes,
                                    std::span<const CompositionPart> parts, SurfaceLabel label) {
  const Composer composer(scene, nodes, label);
  std::vector<FieldNode> out;
  out.reserve(parts.size());
  for (const CompositionPart& part : parts) {
    if (!part.blended) {
      out.push_back(composer.placed(part.nodes.front()));
      continue;
    }
    std::map<MaterialIndex, std::vector<int>> byMaterial;
    for (int index : part.nodes)
      byMaterial[surfaceMaterialOf(scene.nodes[static_cast<std::size_t>(index)])].push_back(index);
    std::vector<MaterialIndex> present;
    for (const auto& [m, members] : byMaterial) present.push_back(m);
    const std::vector<std::vector<MaterialIndex>> groups = blendGroups(scene, present);
    out.push_back(composer.group(groups.front(), byMaterial));
  }
  return out;
}

FieldNode composeNodes(const Scene& scene, std::span<const int> nodes, SurfaceLabel label) {
  FieldNode all = field::makeDefaultNode(NodeType::Union);
  all.children = composeParts(scene, nodes, compositionParts(scene, nodes), label);
  return all;
}

std::vector<int> shapedNodes(const Scene& scene, bool collidableOnly) {
  std::vector<int> nodes;
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    const SceneNode& node = scene.nodes[i];
    if (!node.shape) continue;
    if (collidableOnly && !(node.collider && node.collider->collidable)) continue;
    nodes.push_back(static_cast<int>(i));
  }
  return nodes;
}

field::FieldNode sceneField(const Scene& scene, bool collidableOnly) {
  return composeNodes(scene, shapedNodes(scene, collidableOnly));
}

Expected<SceneUnion> compileSceneUnion(const Scene& scene, double time) {
  SceneUnion out;
  const std::vector<int> nodes = shapedNodes(scene, false);
  if (nodes.empty()) return Error{"nodes", "the scene has no node with a shape"};
  out.parts = compositionParts(scene, nodes);
  std::vector<FieldNode> fields = composeParts(scene, nodes, out.parts, SurfaceLabel::Material);
  std::vector<field::FieldProgram> programs;
  programs.reserve(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    Expected<field::FieldProgram> program = field::FieldProgram::compile(fields[i]);
    if (!program) {
      const SceneNode& first = scene.nodes[static_cast<std::size_t>(out.parts[i].nodes.front())];
      return Error{"nodes/" + first.name + program.error().where, program.error().what};
    }
    programs.push_back(std::move(*program));
  }
  Expected<field::UnionField> field = field::UnionField::build(std::move(programs), time);
  if (!field) return field.error();
  out.field = std::move(*field);
  return out;
}

field::UnionField emptySceneField(double time) {
  FieldNode point = field::makeDefaultNode(NodeType::Sphere);
  point.params[0] = 0.0f;
  Transform far;
  far.position = Vec3(0.0f, -kEmptySceneDepth, 0.0f);
  Expected<field::FieldProgram> program = field::FieldProgram::compile(placeShape(far, point));
  std::vector<field::FieldProgram> parts;
  parts.push_back(std::move(program.value()));  // a fixed, valid node: compiles
  return std::move(field::UnionField::build(std::move(parts), time).value());
}

}  // namespace floptle::scene
