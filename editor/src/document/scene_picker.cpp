#include "floptle/editor/scene_picker.h"

#include "floptle/core/render/cpu_renderer.h"

namespace floptle::editor {
namespace {

std::optional<field::FieldProgram> worldProgram(const scene::SceneNode& node) {
  if (!node.shape) return std::nullopt;
  Expected<field::FieldProgram> program =
      field::FieldProgram::compile(scene::placeShape(node.world, *node.shape));
  if (!program) return std::nullopt;
  return std::move(*program);
}

}  // namespace

void ScenePicker::setScene(const DerivedScene& scene) {
  scene_ = &scene;
  entries_.reset();
}

const std::vector<ScenePicker::Entry>& ScenePicker::entries() const {
  if (entries_) return *entries_;
  entries_.emplace();
  if (!scene_) return *entries_;
  for (const scene::SceneNode& node : scene_->scene().nodes) {
    if (std::optional<field::FieldProgram> program = worldProgram(node))
      entries_->push_back({node.name, std::move(*program)});
  }
  return *entries_;
}

std::optional<PickHit> ScenePicker::pick(const Ray& ray, double time, float maxDistance) const {
  std::optional<PickHit> nearest;
  for (const Entry& entry : entries()) {
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
  if (!scene_) return {};
  const int index = scene_->findNode(node);
  if (index < 0) return {};
  const std::optional<field::FieldProgram> program =
      worldProgram(scene_->scene().nodes[std::size_t(index)]);
  return program ? program->bounds(time) : Aabb{};
}

}  // namespace floptle::editor
