#include "floptle/editor/scene_picker.h"

#include "floptle/core/render/cpu_renderer.h"

namespace floptle::editor {

void ScenePicker::rebuild(const scene::Scene& scene) {
  entries_.clear();
  for (const scene::SceneNode& node : scene.nodes) {
    if (!node.shape) continue;
    Expected<field::FieldProgram> program =
        field::FieldProgram::compile(scene::placeShape(node.world, *node.shape));
    if (program) entries_.push_back({node.name, std::move(*program)});
  }
}

std::optional<PickHit> ScenePicker::pick(const Ray& ray, double time, float maxDistance) const {
  std::optional<PickHit> nearest;
  for (const Entry& entry : entries_) {
    float limit = nearest ? nearest->distance : maxDistance;
    // Skip nodes whose bounds the ray misses before the nearest hit so far.
    const Aabb bounds = entry.program.bounds(time);
    float enter = 0.0f, exit = 0.0f;
    if (!bounds.empty() && !intersectRayAabb(ray, bounds.inflated(1e-3f), limit, enter, exit))
      continue;
    std::optional<render::MarchHit> hit = render::marchRay(entry.program, ray, time, limit);
    if (hit && (!nearest || hit->distance < nearest->distance))
      nearest = PickHit{entry.node, hit->distance, hit->point};
  }
  return nearest;
}

Aabb ScenePicker::nodeBounds(const std::string& node, double time) const {
  for (const Entry& entry : entries_)
    if (entry.node == node) return entry.program.bounds(time);
  return {};
}

}  // namespace floptle::editor
