#include "floptle/core/render/scene_render.h"

#include <cmath>
#include <string>

#include "floptle/core/render/shading_model.h"

namespace floptle::render {

namespace {
/// A node whose bounds reach beyond this is treated as unbounded when framing (m).
constexpr float kFramingLimit = 1e4f;

bool boundedBox(const Aabb& box) {
  if (box.empty()) return false;
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(box.min[i]) || !std::isfinite(box.max[i]) ||
        std::abs(box.min[i]) > kFramingLimit || std::abs(box.max[i]) > kFramingLimit)
      return false;
  return true;
}
}  // namespace

MaterialColors materialColors(const scene::Scene& scene) {
  MaterialColors colors;
  colors.reserve(scene.materials.size() + 1);
  colors.push_back(shading::kDefaultAlbedo);
  for (const scene::Material& material : scene.materials) colors.push_back(material.color);
  return colors;
}

Expected<Camera> namedCamera(const scene::Scene& scene, std::string_view name) {
  if (const scene::Camera* found = scene.findCamera(name)) {
    Camera camera;
    camera.position = found->position;
    camera.lookAt = found->lookAt;
    camera.fovYDegrees = found->fovDegrees;
    return camera;
  }
  std::string known;
  for (const scene::Camera& camera : scene.cameras)
    known += (known.empty() ? "" : ", ") + camera.name;
  return Error{"--camera", "the scene has no camera called '" + std::string(name) + "'" +
                               (known.empty() ? std::string(" (it has no cameras)")
                                              : " (cameras: " + known + ")")};
}

Camera defaultCamera(const scene::Scene& scene, double time) {
  if (!scene.cameras.empty()) {
    auto camera = namedCamera(scene, scene.cameras.front().name);
    if (camera) return *camera;
  }
  Aabb framed;
  for (const scene::SceneNode& node : scene.nodes) {
    if (!node.shape) continue;
    auto program = field::FieldProgram::compile(scene::placeShape(node.world, *node.shape));
    if (!program) continue;
    const Aabb box = program->bounds(time);
    if (boundedBox(box)) framed.expand(box);
  }
  if (framed.empty()) framed = Aabb::fromCenterHalf(Vec3(0.0f), Vec3(2.0f));
  return framingCamera(framed);
}

}  // namespace floptle::render
