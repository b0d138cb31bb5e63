// extractColliderWireframe: one node's collider -> drawn_surface triangles -> unique edges.
// No Qt widgets, no GL: runs on worker threads.
#include <algorithm>
#include <cmath>
#include <limits>

#include "floptle/core/asset/triangle_mesh.h"
#include "floptle/editor/wireframe_overlay.h"
#include "floptle/physics/baked_field_file.h"
#include "floptle/physics/drawn_surface.h"
#include "floptle/physics/field_collider.h"
#include "floptle/physics/mesh_collider.h"

namespace floptle::editor {
namespace {

constexpr float kMinCell = 0.02f;  // (m)
constexpr float kMaxCell = 1.0f;   // (m)

bool bounded(const Aabb& box) {
  constexpr float kHuge = 1e5f;  // (m) FieldCollider answers +-FLT_MAX when unbounded
  return !box.empty() && isFinite(box.min) && isFinite(box.max) &&
         glm::all(glm::lessThan(glm::abs(box.min), Vec3(kHuge))) &&
         glm::all(glm::lessThan(glm::abs(box.max), Vec3(kHuge)));
}

Aabb regionFor(const Aabb& box) {
  const Aabb limit{Vec3(-kWireframeUnboundedHalf), Vec3(kWireframeUnboundedHalf)};
  if (box.empty() || bounded(box)) return box;
  Aabb clipped{glm::max(box.min, limit.min), glm::min(box.max, limit.max)};
  return glm::any(glm::greaterThan(clipped.min, clipped.max)) ? Aabb{} : clipped;
}

/// The collider the physics builds for `node` (physics/scene_collision.cpp: a .vdb level set
/// for "baked_field", the field for a shape), except that a
/// mesh is taken as its triangle mesh even when it collides as a baked field (the same
/// surface, without the bake's cost). Also fills the drawn-surface settings: a terrain draws
/// at its own cell size and bounds.
Expected<std::unique_ptr<physics::CollisionShape>> colliderOf(
    const scene::SceneNode& node, const std::filesystem::path& sceneDir,
    physics::MeshColliderCache* meshCache, physics::DrawnSurfaceSettings& settings) {
  if (node.collider && !node.collider->collidable)
    return std::unique_ptr<physics::CollisionShape>{};
  if (node.hasComponent("mesh")) {
    nlohmann::ordered_json component = node.components["mesh"];
    if (component.is_object()) component["collision"] = "mesh";
    // Not kept in the mesh cache: the overlay is rebuilt at every pose of a node being dragged,
    // and each pose would keep a copy of the whole mesh there. Poses the physics built through
    // the same cache (Play, the import) are still found.
    physics::ColliderBuildOptions options;
    options.meshCache = meshCache;
    options.keepInCache = false;
    return physics::makeMeshCollider(component, sceneDir, node.world, options);
  }
  if (node.hasComponent("baked_field"))
    return physics::makeBakedFieldFileCollider(node.components["baked_field"], sceneDir,
                                               node.world);
  if (!node.shape) return std::unique_ptr<physics::CollisionShape>{};
  auto field = physics::FieldCollider::make(*node.shape, node.world);
  if (!field) return field.error();
  if (node.hasComponent("terrain")) {
    const auto& terrain = node.components["terrain"];
    if (terrain.is_object() && terrain.contains("cell_size") && terrain["cell_size"].is_number()) {
      const float cell = terrain["cell_size"].get<float>();
      if (std::isfinite(cell) && cell > 0.0f) settings.cellSize = cell;
    }
    if (terrain.is_object() && terrain.contains("bounds")) {
      const auto& b = terrain["bounds"];
      try {
        Aabb box;
        box.expand(
            Vec3(b["min"][0].get<float>(), b["min"][1].get<float>(), b["min"][2].get<float>()));
        box.expand(
            Vec3(b["max"][0].get<float>(), b["max"][1].get<float>(), b["max"][2].get<float>()));
        settings.bounds = box;
      } catch (const std::exception&) {
        // Malformed bounds: the physics reports them; draw the default region.
      }
    }
  }
  return std::unique_ptr<physics::CollisionShape>(
      std::make_unique<physics::FieldCollider>(std::move(field).value()));
}

}  // namespace

float wireframeCellSize(const Aabb& box) {
  const Aabb region = regionFor(box);
  if (region.empty()) return kMaxCell;
  const Vec3 size = region.max - region.min;
  const float largest = std::max({size.x, size.y, size.z});
  return std::clamp(largest / kWireframeCellsAcross, kMinCell, kMaxCell);
}

Expected<std::vector<OverlayLine>> extractColliderWireframe(const scene::SceneNode& node,
                                                            const std::vector<scene::Material>&,
                                                            const std::filesystem::path& sceneDir,
                                                            double t,
                                                            physics::MeshColliderCache* meshCache,
                                                            const std::atomic<bool>* cancel) {
  physics::DrawnSurfaceSettings settings;
  settings.cellSize = 0.0f;  // 0: chosen from the box below
  settings.t = t;
  auto shape = colliderOf(node, sceneDir, meshCache, settings);
  if (!shape) return shape.error();
  if (!shape.value()) return std::vector<OverlayLine>{};
  const physics::CollisionShape& collider = **shape;
  if (settings.bounds.empty()) settings.bounds = regionFor(collider.aabb(t));
  if (settings.bounds.empty()) return std::vector<OverlayLine>{};
  if (settings.cellSize <= 0.0f) settings.cellSize = wireframeCellSize(settings.bounds);
  // Pad by a cell so a surface on the box's face is still crossed by grid edges.
  settings.bounds.min -= Vec3(settings.cellSize);
  settings.bounds.max += Vec3(settings.cellSize);

  auto surface = physics::drawnSurface(collider, settings, cancel);
  if (!surface) return surface.error();

  // Unique edges: each interior edge is shared by two triangles.
  std::vector<std::uint64_t> edges;
  edges.reserve(surface->triangles.size() * 3);
  for (const auto& tri : surface->triangles)
    for (int i = 0; i < 3; ++i) {
      const std::uint64_t a = tri[i], b = tri[(i + 1) % 3];
      edges.push_back(std::min(a, b) << 32 | std::max(a, b));
    }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  std::vector<OverlayLine> lines;
  lines.reserve(edges.size());
  // drawn_surface works in whole chunks and may reach past the region: keep the region's edges.
  const Aabb region = settings.bounds.inflated(1e-4f);
  for (std::uint64_t edge : edges) {
    const Vec3 a = surface->positions[edge >> 32], b = surface->positions[edge & 0xffffffffu];
    if (region.contains(a) && region.contains(b)) lines.push_back({a, b, kWireframeColor});
  }
  return lines;
}

}  // namespace floptle::editor
