// buildScene: the typed model and the checks a schema cannot express (unique names, ids that
// exist, shapes valid for their type). Every problem is collected before refusing.
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "floptle/core/field/field_json.h"
#include "floptle/core/field/morph.h"
#include "floptle/core/scene/component_values.h"
#include "floptle/core/scene/scene.h"
#include "floptle/core/scene/scene_io.h"
#include "scene/scene_read.h"

namespace floptle::scene {
namespace {

using Json = nlohmann::ordered_json;

/// Component keys a node may carry; kept raw so later systems read them unchanged.
constexpr std::string_view kComponentKeys[] = {
    "collider", "character", "vehicle", "gravity", "gravity_source", "matter",
    "drift",    "mesh",      "import",  "terrain", "baked_field",    "script"};

class SceneBuilder {
 public:
  SceneBuilder(const Json& document, Problems& problems)
      : document_(document), problems_(problems) {}

  Scene build() {
    if (const auto version = document_.find("version");
        version != document_.end() && version->is_number_integer()) {
      scene_.version = static_cast<int>(version->get<std::int64_t>());
    }
    materials();
    interactions();
    settings();
    cameras();
    if (const auto nodes = array("nodes", "")) {
      // The top level's count: all of a flat level's nodes (children only add to it).
      scene_.nodes.reserve(nodes->size());
      nodeNames_.reserve(nodes->size());
      for (std::size_t i = 0; i < nodes->size(); ++i) {
        node((*nodes)[i], "/nodes/" + std::to_string(i), -1, Transform::identity());
      }
    }
    return std::move(scene_);
  }

 private:
  /// document_[key] when it is an array; a problem when it is something else.
  const Json* array(std::string_view key, const std::string& where) {
    const auto found = document_.find(key);
    if (found == document_.end()) return nullptr;
    if (!found->is_array()) {
      problems_.add(childPointer(where, key), "expected an array, found " + describeType(*found));
      return nullptr;
    }
    return &*found;
  }

  Expected<MaterialIndex> resolve(const Json& id) const {
    const std::string text = materialDisplayId(id);
    if (text.empty()) {
      return Error{"", "a material id is a non-empty string or a non-negative integer, found " +
                           describeType(id)};
    }
    const auto found = materialIndex_.find(text);
    if (found == materialIndex_.end()) {
      return Error{"", "no material with id \"" + text + "\" in /materials"};
    }
    return found->second;
  }

  void materials() {
    const Json* list = array("materials", "");
    if (!list) return;
    if (list->size() > 65535) {
      problems_.add("/materials", "more than 65535 materials");
      return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Json& item = (*list)[i];
      const std::string at = "/materials/" + std::to_string(i);
      if (!item.is_object()) {
        problems_.add(at, "expected an object, found " + describeType(item));
        continue;
      }
      Material material;
      material.pointer = at;
      if (item.contains("id")) material.id = item["id"];
      material.displayId = materialDisplayId(material.id);
      if (material.displayId.empty()) {
        problems_.add(at + "/id", "expected a non-empty string or non-negative integer id");
      } else if (const auto first = materialIndex_.find(material.displayId);
                 first != materialIndex_.end()) {
        problems_.add(at + "/id", "duplicate material id \"" + material.displayId +
                                      "\" (first used by " +
                                      scene_.materials[first->second - 1u].pointer + ")");
      }
      if (const auto name = item.find("name"); name != item.end() && name->is_string()) {
        material.name = name->get<std::string>();
      }
      if (const auto in = open(item, "material", at)) {
        note(problems_, in->vec3("color", material.color));
        note(problems_, in->number("density", material.density));
        note(problems_, in->number("friction", material.friction));
        note(problems_, in->number("restitution", material.restitution));
        note(problems_, in->number("bulk_modulus", material.bulkModulus));
        note(problems_, in->number("yield_strength", material.yieldStrength));
      }
      scene_.materials.push_back(std::move(material));
      const std::string& id = scene_.materials.back().displayId;
      if (!id.empty() && !materialIndex_.count(id)) {
        materialIndex_[id] = static_cast<MaterialIndex>(scene_.materials.size());
      }
    }
  }

  /// An interaction's "k": a number in [0, 1000] (m), or a driver (keys, sine) whose every
  /// value stays in that range.
  void readBlendRadius(const Json& item, const ComponentReader& in, const std::string& at,
                       field::AnimatedScalar& k) {
    const auto found = item.find("k");
    if (found == item.end()) return;
    if (!found->is_object()) {
      float constant = 0.0f;
      if (note(problems_, in.number("k", constant))) k = field::AnimatedScalar(constant);
      return;
    }
    auto driver = field::parseAnimatedScalar(*found, at + "/k");
    if (!driver) {
      problems_.add(driver.error().where, driver.error().what);
      return;
    }
    const ValueSpec* row = componentSpec("interaction")->find("k");
    if (!(driver->minValue() >= row->min && driver->maxValue() <= row->max)) {
      problems_.add(at + "/k", "the driver must stay " + rangeText(*row) + ", found values from " +
                                   std::to_string(driver->minValue()) + " to " +
                                   std::to_string(driver->maxValue()));
      return;
    }
    k = *driver;
  }

  void interactions() {
    const Json* list = array("interactions", "");
    if (!list) return;
    std::map<std::pair<MaterialIndex, MaterialIndex>, std::string> seen;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Json& item = (*list)[i];
      const std::string at = "/interactions/" + std::to_string(i);
      if (!item.is_object()) {
        problems_.add(at, "expected an object {a, b, rule, k}, found " + describeType(item));
        continue;
      }
      Interaction interaction;
      interaction.pointer = at;
      bool ok = true;
      for (const char* side : {"a", "b"}) {
        if (!item.contains(side)) continue;  // the schema reports it missing
        const auto index = resolve(item[side]);
        if (!index) {
          problems_.add(at + "/" + side, index.error().what);
          ok = false;
        } else {
          (side[0] == 'a' ? interaction.a : interaction.b) = *index;
        }
      }
      if (const auto in = open(item, "interaction", at)) {
        std::string rule;
        if (note(problems_, in->string("rule", rule))) {
          if (rule == "ignore")
            interaction.rule = InteractionRule::Ignore;
          else if (rule == "merge")
            interaction.rule = InteractionRule::Merge;
          else if (rule == "carve")
            interaction.rule = InteractionRule::Carve;
          else if (rule == "hard")
            interaction.rule = InteractionRule::Hard;
        }
        readBlendRadius(item, *in, at, interaction.k);
      }
      if (!ok || interaction.a == 0 || interaction.b == 0) continue;
      const auto [first, inserted] = seen.emplace(std::pair{interaction.a, interaction.b}, at);
      if (!inserted) {
        problems_.add(at, "a second rule for the pair (" +
                              scene_.materials[interaction.a - 1u].displayId + ", " +
                              scene_.materials[interaction.b - 1u].displayId + "), first set at " +
                              first->second);
        continue;
      }
      scene_.interactions.push_back(interaction);
    }
  }

  void settings() {
    const auto found = document_.find("settings");
    if (found == document_.end()) return;
    const auto in = open(*found, "settings", "/settings");
    if (!in) return;
    Settings& settings = scene_.settings;
    note(problems_, in->number("fixed_dt", settings.fixedDt));
    if (found->contains("gravity") && (*found)["gravity"].is_object()) {
      auto field = readGravityField((*found)["gravity"], "/settings/gravity");
      if (field) {
        settings.gravity = field->global.value_or(Vec3(0.0f));
        settings.gravityField = std::move(field.value());
      } else {
        problems_.add(field.error().where, field.error().what);
      }
    } else {
      note(problems_, in->vec3("gravity", settings.gravity));
    }
    note(problems_, in->number("slope_limit", settings.slopeLimitDegrees));
  }

  void cameras() {
    const Json* list = array("cameras", "");
    if (!list) return;
    std::map<std::string, std::string> names;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const Json& item = (*list)[i];
      const std::string at = "/cameras/" + std::to_string(i);
      if (!item.is_object()) {
        problems_.add(at, "expected an object, found " + describeType(item));
        continue;
      }
      Camera camera;
      if (const auto in = open(item, "camera", at)) {
        note(problems_, in->string("name", camera.name));
        note(problems_, in->vec3("position", camera.position));
        note(problems_, in->vec3("look_at", camera.lookAt));
        note(problems_, in->number("fov", camera.fovDegrees));
      }
      if (item.contains("position") && item.contains("look_at") &&
          glm::length(camera.lookAt - camera.position) < 1e-6f) {
        problems_.add(at + "/look_at", "a camera cannot look at its own position");
      }
      if (!camera.name.empty()) {
        const auto [first, inserted] = names.emplace(camera.name, at);
        if (!inserted) {
          problems_.add(at + "/name", "duplicate camera name \"" + camera.name +
                                          "\" (first used by " + first->second + ")");
        }
      }
      scene_.cameras.push_back(std::move(camera));
    }
  }

  void collider(const Json& value, const std::string& at, SceneNode& node) {
    Collider collider;
    const auto in = open(value, "collider", at);
    if (!in) return;
    std::string body;
    if (note(problems_, in->string("body", body))) {
      if (body == "static")
        collider.body = BodyType::Static;
      else if (body == "dynamic")
        collider.body = BodyType::Dynamic;
      else if (body == "kinematic")
        collider.body = BodyType::Kinematic;
    }
    note(problems_, in->boolean("collidable", collider.collidable));
    node.collider = collider;
  }

  /// A Morph tier's terms and bake (field/morph.h), read as every reader of the composition
  /// will: a bad term is refused here, naming its key, not skipped later.
  void morph(const Json& matter, const std::string& at) {
    if (matter.value("tier", "") != "morph") return;
    if (auto read = field::readMorph(matter, at); !read)
      problems_.add(read.error().where, read.error().what);
  }

  /// A reader of `value` with table `table`, or nothing (the problem recorded).
  std::optional<ComponentReader> open(const Json& value, std::string_view table,
                                      const std::string& at) {
    auto in = ComponentReader::open(value, table, at);
    if (!in) {
      problems_.add(in.error().where, in.error().what);
      return std::nullopt;
    }
    return std::move(*in);
  }

  void node(const Json& item, const std::string& at, int parent, const Transform& parentWorld) {
    if (!item.is_object()) {
      problems_.add(at, "expected a node object, found " + describeType(item));
      return;
    }
    SceneNode node;
    node.pointer = at;
    node.parent = parent;
    if (!item.contains("name")) problems_.add(at + "/name", "is required but missing");
    if (const auto in = open(item, "node", at)) note(problems_, in->string("name", node.name));
    if (!node.name.empty()) {
      const auto [first, inserted] =
          nodeNames_.emplace(node.name, static_cast<int>(scene_.nodes.size()));
      if (!inserted) {
        problems_.add(at + "/name",
                      "duplicate node name \"" + node.name + "\" (first used by " +
                          scene_.nodes[static_cast<std::size_t>(first->second)].pointer + ")");
      }
    }
    node.local = readTransform(item, at, problems_);
    node.world = parentWorld.compose(node.local);
    if (const auto material = item.find("material"); material != item.end()) {
      const auto index = resolve(*material);
      if (index)
        node.material = *index;
      else
        problems_.add(at + "/material", index.error().what);
    }
    if (const auto shape = item.find("shape"); shape != item.end()) {
      auto parsed =
          field::parseShape(*shape, at + "/shape", [this](const Json& id) { return resolve(id); });
      if (!parsed) {
        problems_.add(parsed.error().where, parsed.error().what);
      } else {
        if (!parsed->hasOwnMaterial) parsed->material = node.material;
        node.shape = std::move(*parsed);
      }
    }
    for (std::string_view key : kComponentKeys) {
      const auto component = item.find(key);
      if (component == item.end()) continue;
      const std::string componentAt = childPointer(at, key);
      if (!component->is_object()) {
        problems_.add(componentAt, "a component is an object, found " + describeType(*component));
        continue;
      }
      node.components[std::string(key)] = *component;
      if (key == "collider") collider(*component, componentAt, node);
      if (key == "matter") morph(*component, componentAt);
    }
    const int index = static_cast<int>(scene_.nodes.size());
    if (parent >= 0) scene_.nodes[static_cast<std::size_t>(parent)].children.push_back(index);
    const Transform world = node.world;
    scene_.nodes.push_back(std::move(node));
    if (const auto children = item.find("children"); children != item.end()) {
      if (!children->is_array()) {
        problems_.add(at + "/children",
                      "expected an array of nodes, found " + describeType(*children));
        return;
      }
      for (std::size_t i = 0; i < children->size(); ++i) {
        this->node((*children)[i], at + "/children/" + std::to_string(i), index, world);
      }
    }
  }

  const Json& document_;
  Problems& problems_;
  Scene scene_;
  std::map<std::string, MaterialIndex> materialIndex_;
  /// Node name -> index in scene_.nodes of the first node so named (hashed: a level has
  /// 100,000 names, and an ordered map's compares would grow with the log of that).
  std::unordered_map<std::string, int> nodeNames_;
};

}  // namespace

Scene buildSceneCollecting(const nlohmann::ordered_json& document, Problems& problems) {
  if (!document.is_object()) {
    problems.add("", "a scene document is a JSON object, found " + describeType(document));
    return {};
  }
  if (auto deep = findTooDeep(document, kMaxSceneDepth)) {
    problems.add(*deep, "nesting deeper than " + std::to_string(kMaxSceneDepth) +
                            " arrays/objects (the limit of a scene file)");
    return {};
  }
  try {
    return SceneBuilder(document, problems).build();
  } catch (const std::exception& e) {
    // Every read above checks its type first; this only keeps a missed case from escaping.
    problems.add("", std::string("internal error while building the scene: ") + e.what());
  }
  return {};
}

Expected<Scene> buildScene(const nlohmann::ordered_json& document) {
  Problems problems;
  Scene scene = buildSceneCollecting(document, problems);
  if (!problems.empty()) return joinProblems(problems.list);
  return scene;
}

}  // namespace floptle::scene
