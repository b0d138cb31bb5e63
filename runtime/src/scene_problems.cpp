// findSceneProblems: what is wrong or suspicious in a valid scene, with its fix.
#include "floptle/runtime/scene_problems.h"

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

std::string metres(float m) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f m", double(m));
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
                 "character '" + node.name + "' starts inside the geometry", ""};
  const float step = 0.5f * desc->radius;
  for (float rise = step; rise <= kSpawnSearch; rise += step) {
    if (capsuleDepth(field, desc->position + up * rise, up, *desc) <= 0.0f) {
      p.fix = "move it up " + metres(rise) + " to the surface";
      break;
    }
  }
  if (p.fix.empty()) p.fix = "move it out of the geometry";
  out.push_back(std::move(p));
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
  }
  return "problem";
}

std::vector<SceneProblem> findSceneProblems(const Scene& sc,
                                            const std::filesystem::path& sceneFolder) {
  std::vector<SceneProblem> out;
  for (const Error& e : scene::missingReferencedFiles(sc, sceneFolder))
    out.push_back(
        {ProblemKind::MissingFile, e.where, e.what, "locate the file, or remove the component"});
  auto collidable = field::FieldProgram::compile(scene::sceneField(sc, true));
  for (const SceneNode& node : sc.nodes) {
    const bool hasGeometry = node.shape || node.hasComponent("mesh") ||
                             node.hasComponent("baked_field") || node.hasComponent("terrain");
    if (node.collider && node.collider->body == scene::BodyType::Dynamic && !hasGeometry)
      out.push_back({ProblemKind::DynamicWithoutShape, node.pointer,
                     "dynamic body '" + node.name + "' has no shape or mesh to collide as",
                     "add a shape, or make the collider static"});
    if (node.collider && node.shape && hasNoVolume(node))
      out.push_back({ProblemKind::EmptyCollider, node.pointer,
                     "the collider of '" + node.name + "' has zero volume: its shape has no inside",
                     "change the shape so its parts overlap, or remove the collider"});
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
                   ruled ? "delete it and the rules naming it" : "delete it"});
  }
  for (const scene::Interaction& rule : sc.interactions) {
    const bool aUsed = rule.a < used.size() && used[rule.a];
    const bool bUsed = rule.b < used.size() && used[rule.b];
    if (aUsed && bUsed) continue;
    const scene::Material* unused = sc.material(aUsed ? rule.b : rule.a);
    out.push_back({ProblemKind::UnusedRule, rule.pointer,
                   "the rule names material '" + (unused ? unused->displayId : std::string("?")) +
                       "', which no node uses",
                   "delete the rule"});
  }
  return out;
}

}  // namespace floptle::runtime
