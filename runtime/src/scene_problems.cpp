// findSceneProblems: what is wrong or suspicious in a valid scene, with its fix.
#include "floptle/runtime/scene_problems.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "floptle/core/field/field_program.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_files.h"
#include "floptle/runtime/controller_descs.h"

namespace floptle::runtime {
namespace {

using scene::Scene;
using scene::SceneNode;

/// Samples per axis of the zero-volume test (-).
constexpr int kVolumeSamples = 24;
/// Bounds beyond this are unbounded (planes, repeats): not tested for volume (m).
constexpr float kUnbounded = 1e5f;
/// How far a capsule may dip into a surface before it counts as inside (m).
constexpr float kSpawnTolerance = 0.01f;
/// Highest a spawn is looked for above its place before giving up (m).
constexpr float kSpawnSearch = 200.0f;
/// Voxels along the largest extent of a warped collider's bake, and the range its cell is
/// kept in (m): fine enough for the warp's detail, coarse enough to bake in seconds.
constexpr float kBakeCellsAcross = 64.0f;
constexpr float kMinBakeCell = 0.01f;
constexpr float kMaxBakeCell = 0.25f;

/// `m` as "0.45 m", or with `significant` digits ("0.0312 m") where a small length needs them.
std::string metres(float m, int significant = 0) {
  char text[32];
  if (significant > 0) {
    std::snprintf(text, sizeof text, "%.*g m", significant, double(m));
  } else {
    std::snprintf(text, sizeof text, "%.2f m", double(m));
  }
  return text;
}

void markShapeMaterials(const field::FieldNode& node, std::vector<bool>& used) {
  if (node.material < used.size()) used[node.material] = true;
  for (const field::FieldNode& child : node.children) markShapeMaterials(child, used);
}

/// By MaterialIndex (0 = none): whether some node draws or collides with the material.
std::vector<bool> materialsUsedByNodes(const Scene& sc) {
  std::vector<bool> used(sc.materials.size() + 1, false);
  for (const SceneNode& node : sc.nodes) {
    if (node.material < used.size()) used[node.material] = true;
    if (node.shape) markShapeMaterials(*node.shape, used);
    const auto mesh = node.components.find("mesh");
    if (mesh != node.components.end() && mesh->is_object() && mesh->contains("materials") &&
        (*mesh)["materials"].is_array()) {
      for (const auto& id : (*mesh)["materials"]) {
        const field::MaterialIndex m = sc.findMaterial(id);
        if (m < used.size()) used[m] = true;
      }
    }
  }
  return used;
}

/// Whether the node's shape has no inside: its bounds are empty, or every sample of a grid
/// over them is farther from the surface than half its cell's diagonal (so no point of the
/// cell is inside a distance field). Conservative: a shape it cannot decide is not reported.
bool hasNoVolume(const SceneNode& node) {
  auto program = field::FieldProgram::compile(scene::placeShape(node.world, *node.shape));
  if (!program) return false;
  const Aabb box = program->bounds(0.0);
  if (box.empty()) return true;
  for (int a = 0; a < 3; ++a) {
    if (!std::isfinite(box.min[a]) || !std::isfinite(box.max[a]) ||
        box.max[a] - box.min[a] > kUnbounded)
      return false;
  }
  const Vec3 cell = (box.max - box.min) / float(kVolumeSamples);
  const float halfDiagonal = 0.5f * glm::length(cell);
  for (int i = 0; i < kVolumeSamples; ++i)
    for (int j = 0; j < kVolumeSamples; ++j)
      for (int k = 0; k < kVolumeSamples; ++k) {
        const Vec3 p = box.min + (Vec3(float(i), float(j), float(k)) + 0.5f) * cell;
        if (!(program->sample(p, 0.0).distance > halfDiagonal)) return false;
      }
  return true;
}

/// How far the capsule reaches into the field: radius - the least distance of its axis (m).
float capsuleDepth(const field::FieldProgram& field, Vec3 centre, Vec3 up,
                   const physics::CharacterDesc& desc) {
  constexpr int kAxisSamples = 9;
  float least = std::numeric_limits<float>::infinity();
  for (int s = 0; s < kAxisSamples; ++s) {
    const float along = desc.halfSegment() * (2.0f * float(s) / float(kAxisSamples - 1) - 1.0f);
    least = std::fmin(least, field.sample(centre + up * along, 0.0).distance);
  }
  return desc.radius - least;
}

void checkSpawn(const Scene& sc, const SceneNode& node, const field::FieldProgram& field,
                std::vector<SceneProblem>& out) {
  auto desc = characterFromNode(node, sc);
  if (!desc) return;  // its reader reports a bad component
  const Vec3 g = sc.settings.gravity;
  const Vec3 up = glm::length(g) > 0.0f ? -glm::normalize(g) : Vec3(0.0f, 1.0f, 0.0f);
  if (capsuleDepth(field, desc->position, up, *desc) <= kSpawnTolerance) return;
  SceneProblem p{ProblemKind::SpawnInsideGeometry, node.pointer,
                 "character '" + node.name + "' starts inside the geometry", "", node.name};
  const float step = 0.5f * desc->radius;
  for (float rise = step; rise <= kSpawnSearch; rise += step) {
    if (capsuleDepth(field, desc->position + up * rise, up, *desc) <= 0.0f) {
      p.fix = "move it up " + metres(rise) + " to the surface";
      p.action = FixAction::MoveNode;
      p.move = up * rise;
      break;
    }
  }
  if (p.fix.empty()) p.fix = "move it out of the geometry";
  out.push_back(std::move(p));
}

/// Whether `shape` has a twist that is not the identity (a rate that is not always 0).
bool hasTwist(const field::FieldNode& shape) {
  if (shape.type == field::NodeType::Twist && !shape.params.empty() &&
      (shape.params[0].minValue() != 0.0f || shape.params[0].maxValue() != 0.0f))
    return true;
  return std::any_of(shape.children.begin(), shape.children.end(), hasTwist);
}

/// A warp of the domain that does not preserve distance: the warped field is only a lower
/// bound of the distance (its value divided by the warp's Lipschitz bound), so casts crawl and
/// contact depths come out short. Physics should collide with such a node baked. One row per
/// warp (a tier whose warp has its own bake, such as the morph tier's, adds a row with its own
/// test, bake test and fix); a node is checked against every row.
struct WarpCheck {
  /// The warp in words ("a twist").
  const char* name;
  /// Whether the node's shape is warped by it.
  bool (*warps)(const SceneNode& node);
  /// Whether the node already collides as a bake of its shape.
  bool (*baked)(const SceneNode& node);
  /// The fix that bakes it, and its words (the cell is appended).
  FixAction action;
  const char* fix;
};

constexpr WarpCheck kWarpChecks[] = {
    {"a twist", [](const SceneNode& node) { return node.shape && hasTwist(*node.shape); },
     [](const SceneNode& node) { return node.hasComponent("baked_field"); },
     FixAction::BakeCollider,
     "add a bake: its shape baked into a .vdb beside the scene as its "
     "baked_field, cell "},
};

/// The voxel edge for baking the node's shape (m), from its extent in its own frame.
float bakeCellFor(const SceneNode& node) {
  auto program = field::FieldProgram::compile(*node.shape);
  if (!program) return kMaxBakeCell;
  const Aabb box = program->bounds(0.0);
  if (box.empty()) return kMaxBakeCell;
  const Vec3 size = box.max - box.min;
  const float extent = std::max({size.x, size.y, size.z});
  if (!std::isfinite(extent)) return kMaxBakeCell;
  return std::clamp(extent / kBakeCellsAcross, kMinBakeCell, kMaxBakeCell);
}

void checkWarps(const SceneNode& node, std::vector<SceneProblem>& out) {
  if (!node.collider || !node.collider->collidable) return;
  for (const WarpCheck& check : kWarpChecks) {
    if (!check.warps(node) || check.baked(node)) continue;
    SceneProblem p{ProblemKind::UnbakedWarp, node.pointer,
                   "the collider of '" + node.name + "' is warped by " + check.name +
                       ", which does not preserve distance, and is not baked",
                   "", node.name};
    p.bakeCell = bakeCellFor(node);
    p.fix = check.fix + metres(p.bakeCell, 3);
    p.action = check.action;
    out.push_back(std::move(p));
  }
}

/// The node whose pointer `pointer` is, or is below ("/nodes/2/mesh/file"); null when none.
const SceneNode* nodeAt(const Scene& sc, const std::string& pointer) {
  const SceneNode* best = nullptr;
  for (const SceneNode& node : sc.nodes) {
    const bool within =
        pointer.compare(0, node.pointer.size(), node.pointer) == 0 &&
        (pointer.size() == node.pointer.size() || pointer[node.pointer.size()] == '/');
    if (within && (!best || node.pointer.size() > best->pointer.size())) best = &node;
  }
  return best;
}

}  // namespace

std::string_view problemKindName(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::MissingFile:
      return "missing-file";
    case ProblemKind::UnusedMaterial:
      return "unused-material";
    case ProblemKind::SpawnInsideGeometry:
      return "spawn-inside-geometry";
    case ProblemKind::EmptyCollider:
      return "empty-collider";
    case ProblemKind::DynamicWithoutShape:
      return "dynamic-without-shape";
    case ProblemKind::UnusedRule:
      return "unused-rule";
    case ProblemKind::UnbakedWarp:
      return "unbaked-warp";
  }
  return "problem";
}

std::vector<SceneProblem> findSceneProblems(const Scene& sc,
                                            const std::filesystem::path& sceneFolder) {
  std::vector<SceneProblem> out;
  for (const Error& e : scene::missingReferencedFiles(sc, sceneFolder)) {
    const SceneNode* node = nodeAt(sc, e.where);
    out.push_back({ProblemKind::MissingFile, e.where, e.what,
                   "locate the file, or remove the component", node ? node->name : "",
                   FixAction::LocateFile});
  }
  auto collidable = field::FieldProgram::compile(scene::sceneField(sc, true));
  for (const SceneNode& node : sc.nodes) {
    const bool hasGeometry = node.shape || node.hasComponent("mesh") ||
                             node.hasComponent("baked_field") || node.hasComponent("terrain");
    if (node.collider && node.collider->body == scene::BodyType::Dynamic && !hasGeometry)
      out.push_back({ProblemKind::DynamicWithoutShape, node.pointer,
                     "dynamic body '" + node.name + "' has no shape or mesh to collide as",
                     "make the collider static, or add a shape", node.name, FixAction::MakeStatic});
    if (node.collider && node.shape && hasNoVolume(node))
      out.push_back({ProblemKind::EmptyCollider, node.pointer,
                     "the collider of '" + node.name + "' has zero volume: its shape has no inside",
                     "remove the collider, or change the shape so its parts overlap", node.name,
                     FixAction::RemoveCollider});
    checkWarps(node, out);
    if (collidable && node.hasComponent("character")) checkSpawn(sc, node, *collidable, out);
  }
  const std::vector<bool> used = materialsUsedByNodes(sc);
  for (std::size_t i = 0; i < sc.materials.size(); ++i) {
    if (used[i + 1]) continue;
    const scene::Material& m = sc.materials[i];
    bool ruled = false;
    for (const scene::Interaction& rule : sc.interactions)
      ruled = ruled || rule.a == i + 1 || rule.b == i + 1;
    out.push_back({ProblemKind::UnusedMaterial, m.pointer,
                   "material '" + m.displayId + "' is used by no node",
                   ruled ? "delete it and the rules naming it" : "delete it", "",
                   FixAction::DeleteMaterial});
  }
  for (const scene::Interaction& rule : sc.interactions) {
    const bool aUsed = rule.a < used.size() && used[rule.a];
    const bool bUsed = rule.b < used.size() && used[rule.b];
    if (aUsed && bUsed) continue;
    const scene::Material* unused = sc.material(aUsed ? rule.b : rule.a);
    out.push_back({ProblemKind::UnusedRule, rule.pointer,
                   "the rule names material '" + (unused ? unused->displayId : std::string("?")) +
                       "', which no node uses",
                   "delete the rule", "", FixAction::DeleteRule});
  }
  return out;
}

}  // namespace floptle::runtime
