// Scene look-ups and placing a node's shape at its world transform.
#include "floptle/core/field/node_spec.h"
#include "floptle/core/scene/scene.h"
#include "scene/scene_internal.h"

namespace floptle::scene {

int Scene::findNode(std::string_view name) const {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

MaterialIndex Scene::findMaterial(std::string_view displayId) const {
  for (std::size_t i = 0; i < materials.size(); ++i) {
    if (materials[i].displayId == displayId) return static_cast<MaterialIndex>(i + 1);
  }
  return 0;
}

MaterialIndex Scene::findMaterial(const nlohmann::ordered_json& id) const {
  const std::string text = materialDisplayId(id);
  return text.empty() ? MaterialIndex{0} : findMaterial(std::string_view(text));
}

const Material* Scene::material(MaterialIndex index) const {
  if (index == 0 || index > materials.size()) return nullptr;
  return &materials[index - 1u];
}

const Camera* Scene::findCamera(std::string_view name) const {
  for (const Camera& camera : cameras) {
    if (camera.name == name) return &camera;
  }
  return nullptr;
}

const Interaction* Scene::findInteraction(MaterialIndex a, MaterialIndex b) const {
  for (const Interaction& interaction : interactions) {
    if (interaction.a == a && interaction.b == b) return &interaction;
  }
  return nullptr;
}

field::FieldNode placeShape(const Transform& world, field::FieldNode child) {
  using field::NodeType;
  field::FieldNode placed = field::makeDefaultNode(NodeType::Transform);
  const int position = field::paramSlotOffset(NodeType::Transform, "position");
  const int rotation = field::paramSlotOffset(NodeType::Transform, "rotation");
  const int scale = field::paramSlotOffset(NodeType::Transform, "scale");
  auto set = [&placed](int slot, float value) {
    if (slot >= 0 && static_cast<std::size_t>(slot) < placed.params.size()) {
      placed.params[static_cast<std::size_t>(slot)] = field::AnimatedScalar(value);
    }
  };
  for (int i = 0; i < 3; ++i) set(position + i, world.position[i]);
  // The spec stores a quaternion as [x, y, z, w].
  set(rotation + 0, world.rotation.x);
  set(rotation + 1, world.rotation.y);
  set(rotation + 2, world.rotation.z);
  set(rotation + 3, world.rotation.w);
  set(scale, world.scale);
  // The wrapper carries the child's material so inheritance cannot replace it.
  placed.material = child.material;
  placed.hasOwnMaterial = child.material != 0;
  placed.children.push_back(std::move(child));
  return placed;
}

}  // namespace floptle::scene
