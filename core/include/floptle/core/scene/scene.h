#pragma once
// The typed scene model, built from a scene document (resources/scene-format.md).
// The JSON text is the source of truth: the editor holds and edits the ordered_json, and a
// Scene is rebuilt from it (buildScene) whenever something needs typed values. A Scene is
// never half-built: buildScene returns either the whole model or every problem it found.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/field/field_node.h"
#include "floptle/core/math.h"
#include "floptle/core/scene/gravity_desc.h"

namespace floptle::scene {

using field::MaterialIndex;

/// A surface material. Indices into Scene::materials are 1-based in MaterialIndex (0 = none).
struct Material {
  /// The id as written in the file: a JSON string or a non-negative integer.
  nlohmann::ordered_json id;
  /// The id as text ("rock", "3"); ids are unique by this text.
  std::string displayId;
  /// Optional human name ("name" key); empty when absent.
  std::string name;
  /// Linear RGB, each 0..1 (-).
  Vec3 color{0.8f};
  /// (kg/m^3)
  float density = 1000.0f;
  /// Coulomb friction coefficient (-).
  float friction = 0.5f;
  /// Bounce, 0 = none, 1 = perfectly elastic (-).
  float restitution = 0.0f;
  /// Resistance to compression (Pa).
  float bulkModulus = 1e9f;
  /// Stress at which the material starts to deform plastically (Pa).
  float yieldStrength = 1e6f;
  /// JSON pointer of this material in the document ("/materials/2").
  std::string pointer;
};

enum class InteractionRule { Ignore, Merge, Carve, Hard };

/// How material a meets material b (ordered pair: for Carve, b bites into a).
struct Interaction {
  MaterialIndex a = 0;
  MaterialIndex b = 0;
  InteractionRule rule = InteractionRule::Hard;
  /// Blend radius of merge / carve (m), a number or a driver of t (keys, sine) such as a
  /// curve from 0 to 0.8 over 2 s; 0 = a crisp seam. Never negative.
  field::AnimatedScalar k = 0.0f;
  std::string pointer;
};

/// Scene-wide simulation settings ("settings" object; every key optional).
struct Settings {
  /// Fixed simulation step (s).
  double fixedDt = 1.0 / 60.0;
  /// Uniform gravity acceleration (m/s^2): the vector form, or the field's "global" (zero
  /// when the field has none).
  Vec3 gravity{0.0f, -9.81f, 0.0f};
  /// The object form of "gravity" (regions, sources, ...); absent for the vector form.
  std::optional<GravityFieldDesc> gravityField;
  /// Steepest surface that counts as ground (deg).
  float slopeLimitDegrees = 60.0f;
};

/// A named viewpoint ("cameras" array), used by `floptle render --camera NAME`.
struct Camera {
  std::string name;
  /// Eye position (m).
  Vec3 position{0.0f, 2.0f, 8.0f};
  /// Point the camera looks at (m); never equal to position.
  Vec3 lookAt{0.0f};
  /// Vertical field of view (deg).
  float fovDegrees = 60.0f;
};

enum class BodyType { Static, Dynamic, Kinematic };

/// The "collider" component.
struct Collider {
  BodyType body = BodyType::Static;
  /// False keeps the component but takes the node out of collision queries.
  bool collidable = true;
};

struct SceneNode {
  /// Unique within the scene.
  std::string name;
  /// JSON pointer of the node object ("/nodes/0/children/2").
  std::string pointer;
  /// Index of the parent in Scene::nodes, -1 for a root node.
  int parent = -1;
  /// Indices of the direct children in Scene::nodes, in document order.
  std::vector<int> children;
  /// Relative to the parent (identity when the node has no "transform").
  Transform local;
  /// Parent's world transform composed with local.
  Transform world;
  /// The node's field graph in its local frame; its root's material is the node's material
  /// when the shape names none of its own.
  std::optional<field::FieldNode> shape;
  /// Index into Scene::materials + 1; 0 = none.
  MaterialIndex material = 0;
  /// The "collider" component, typed; also present in `components`.
  std::optional<Collider> collider;
  /// Every component object as written (collider, character, vehicle, gravity, matter,
  /// drift, mesh, terrain), keyed by component name; systems read their own.
  nlohmann::ordered_json components = nlohmann::ordered_json::object();

  bool hasComponent(std::string_view key) const { return components.contains(key); }
};

struct Scene {
  int version = 1;
  std::vector<Material> materials;
  std::vector<Interaction> interactions;
  Settings settings;
  std::vector<Camera> cameras;
  /// Every node of the tree, depth-first in document order: a parent precedes its children.
  std::vector<SceneNode> nodes;

  /// Index into nodes of the node called `name`, or -1.
  int findNode(std::string_view name) const;
  /// MaterialIndex (1-based) of the material whose id is `id` (string or integer), or 0.
  MaterialIndex findMaterial(const nlohmann::ordered_json& id) const;
  MaterialIndex findMaterial(std::string_view displayId) const;
  /// The material at a MaterialIndex, or nullptr for 0 / out of range.
  const Material* material(MaterialIndex index) const;
  /// The camera called `name`, or nullptr.
  const Camera* findCamera(std::string_view name) const;
  /// The rule for the ordered pair (a, b), or nullptr when the document sets none.
  const Interaction* findInteraction(MaterialIndex a, MaterialIndex b) const;
};

/// Builds the typed model and checks what a schema cannot: unique node, material and
/// camera names, material ids that exist, shapes valid for their type (field::parseShape),
/// non-degenerate rotations and cameras. Assumes nothing about `document`: a document that
/// breaks the schema is refused with an error, never a crash. On failure every problem is
/// reported, one `/json/pointer: what` per line (Error::where = the first pointer).
Expected<Scene> buildScene(const nlohmann::ordered_json& document);

/// The scene's one composed field (scene_composition.h): every node's shape at its world
/// transform, nodes of different materials combined by the interaction matrix. What the
/// viewport, the CPU renderer and the shader draw. With collidableOnly, only nodes whose
/// collider is collidable. An empty scene gives a Union with no children (the empty field:
/// distance +infinity).
field::FieldNode sceneField(const Scene& scene, bool collidableOnly = false);

/// A node's world transform as a field Transform node around `child`.
field::FieldNode placeShape(const Transform& world, field::FieldNode child);

}  // namespace floptle::scene
