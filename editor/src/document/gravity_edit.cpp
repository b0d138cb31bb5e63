// Edits of the scene's gravity field: the object form, deep sets, regions and sources.
#include "document/gravity_edit.h"

namespace floptle::editor {
namespace {

/// Today's gravity when the scene says nothing (m/s^2), as scene::Settings has it.
const Json kDefaultGlobal = Json::array({0.0, -9.81, 0.0});

/// Writes `value` at `path` inside `object`, creating objects on the way.
void writeInto(Json& object, const GravityPath& path, std::size_t from, const Json& value) {
  Json* at = &object;
  for (std::size_t i = from; i < path.size(); ++i) {
    Json& parent = *at;
    if (parent.is_array()) {
      at = &parent[std::stoul(path[i])];
    } else {
      if (!parent.is_object()) parent = Json::object();
      at = &parent[path[i]];
    }
  }
  *at = value;
}

/// The subtree holding `value` at path[from..].
Json nested(const GravityPath& path, std::size_t from, const Json& value) {
  if (from >= path.size()) return value;
  Json object = Json::object();
  writeInto(object, path, from, value);
  return object;
}

/// Replaces the whole gravity value (a conversion to the object form) as one undo step.
Expected<void> setWholeGravity(EditorDocument& document, const Json& gravity, int mergeId) {
  if (!document.valueAt("/settings"))
    return document.setValue("/settings", Json{{"gravity", gravity}}, mergeId);
  return document.setValue(std::string(kGravityPointer), gravity, mergeId);
}

}  // namespace

Json vec3Json(Vec3 v) {
  return Json::array({double(v.x), double(v.y), double(v.z)});
}

Json gravityObject(const EditorDocument& document) {
  const std::optional<Json> gravity = document.valueAt(std::string(kGravityPointer));
  if (gravity && gravity->is_object()) return *gravity;
  return Json{{"global", gravity && gravity->is_array() ? *gravity : kDefaultGlobal}};
}

bool gravityIsObject(const EditorDocument& document) {
  const std::optional<Json> gravity = document.valueAt(std::string(kGravityPointer));
  return gravity && gravity->is_object();
}

std::string gravityPointer(const GravityPath& path) {
  std::string pointer(kGravityPointer);
  for (const std::string& key : path) pointer += "/" + key;
  return pointer;
}

Expected<void> setGravityValue(EditorDocument& document, const GravityPath& path, const Json& value,
                               int mergeId) {
  if (!gravityIsObject(document)) {
    Json object = gravityObject(document);
    writeInto(object, path, 0, value);
    return setWholeGravity(document, object, mergeId);
  }
  // Write at the first key that does not exist yet (its subtree holds the value), so an edit
  // of an existing number stays a parameter change the viewport takes without recompiling.
  std::string pointer(kGravityPointer);
  for (std::size_t i = 0; i < path.size(); ++i) {
    pointer += "/" + path[i];
    if (!document.valueAt(pointer))
      return document.setValue(pointer, nested(path, i + 1, value), mergeId);
  }
  return document.setValue(pointer, value, mergeId);
}

Expected<void> removeGravityValue(EditorDocument& document, const GravityPath& path) {
  if (gravityIsObject(document)) return document.removeValue(gravityPointer(path));
  // The vector form (or none) holds only "global": removing anything else changes nothing.
  Json object = gravityObject(document);
  if (path.size() != 1 || !object.contains(path.front())) return {};
  object.erase(path.front());
  return setWholeGravity(document, object, kNoMerge);
}

Expected<std::string> addGravityItem(EditorDocument& document, std::string_view list,
                                     const Json& item) {
  const Json object = gravityObject(document);
  Json items = object.contains(list) && object[std::string(list)].is_array()
                   ? object[std::string(list)]
                   : Json::array();
  items.push_back(item);
  const std::size_t index = items.size() - 1;
  if (auto written = setGravityValue(document, {std::string(list)}, items); !written)
    return written.error();
  return gravityPointer({std::string(list), std::to_string(index)});
}

Expected<void> removeGravityItem(EditorDocument& document, const std::string& pointer) {
  if (pointer.rfind(std::string(kGravityPointer) + "/", 0) != 0)
    return Error{pointer, "not a region or source of the gravity field"};
  return document.removeValue(pointer);
}

Json defaultGravitySource(std::string_view type, Vec3 at) {
  if (type == "point") return Json{{"type", "point"}, {"center", vec3Json(at)}, {"mass", 1000.0}};
  if (type == "sphere")
    return Json{{"type", "sphere"},
                {"center", vec3Json(at)},
                {"mass", 1000.0},
                {"radius", 2.0},
                {"r_outer", 20.0}};
  if (type == "line")
    return Json{{"type", "line"},
                {"a", vec3Json(at - Vec3(5.0f, 0.0f, 0.0f))},
                {"b", vec3Json(at + Vec3(5.0f, 0.0f, 0.0f))},
                {"lambda", 100.0},
                {"r_outer", 10.0}};
  return Json{{"type", "planet"}, {"center", vec3Json(at)}, {"strength", 9.81}, {"r_outer", 20.0}};
}

Json defaultGravityRegion(std::string_view shape, Vec3 at) {
  if (shape == "sphere")
    return Json{{"shape", "sphere"},
                {"center", vec3Json(at)},
                {"radius", 5.0},
                {"radial", "in"},
                {"strength", 9.81}};
  return Json{{"shape", "box"},
              {"center", vec3Json(at)},
              {"half_extents", Json::array({5.0, 5.0, 5.0})},
              {"direction", Json::array({0.0, -1.0, 0.0})},
              {"strength", 9.81}};
}

Json defaultGravityTier(std::string_view tier) {
  if (tier == "global") return kDefaultGlobal;
  if (tier == "regions" || tier == "sources") return Json::array();
  if (tier == "sdf")
    return Json{{"strength", 9.81}, {"range", 5.0}, {"smoothing", {{"epsilon", 0.05}}}};
  // Tier 3: cell (m) and cadence (ticks); bounds absent = the collidable field's, padded.
  return Json{{"cell", 1.0}, {"cadence", 10}};
}

}  // namespace floptle::editor
