// JsonReader: typed, non-throwing reads that record problems at their JSON pointer.
#include <cmath>

#include "scene/scene_read.h"

namespace floptle::scene {
namespace {

std::string rangeText(double min, double max) {
  return "[" + nlohmann::json(min).dump() + ", " + nlohmann::json(max).dump() + "]";
}

}  // namespace

bool JsonReader::number(const nlohmann::ordered_json& object, std::string_view key,
                        const std::string& where, double min, double max, double& out) {
  const auto found = object.find(key);
  if (found == object.end()) return false;
  const std::string at = childPointer(where, key);
  if (!found->is_number()) {
    problems_.add(at, "expected a number, found " + describeType(*found));
    return false;
  }
  const double value = found->get<double>();
  if (!std::isfinite(value)) {
    problems_.add(at, "must be a finite number");
    return false;
  }
  if (value < min || value > max) {
    problems_.add(at, "must be within " + rangeText(min, max) + ", found " + found->dump());
    return false;
  }
  out = value;
  return true;
}

bool JsonReader::number(const nlohmann::ordered_json& object, std::string_view key,
                        const std::string& where, double min, double max, float& out) {
  double value = 0.0;
  if (!number(object, key, where, min, max, value)) return false;
  out = static_cast<float>(value);
  return true;
}

bool JsonReader::vec3(const nlohmann::ordered_json& object, std::string_view key,
                      const std::string& where, double min, double max, Vec3& out) {
  const auto found = object.find(key);
  if (found == object.end()) return false;
  const std::string at = childPointer(where, key);
  if (!found->is_array() || found->size() != 3) {
    problems_.add(at, "expected an array of 3 numbers, found " + describeType(*found));
    return false;
  }
  Vec3 value{0.0f};
  bool ok = true;
  for (int i = 0; i < 3; ++i) {
    const auto& item = (*found)[static_cast<std::size_t>(i)];
    const std::string itemAt = at + "/" + std::to_string(i);
    if (!item.is_number() || !std::isfinite(item.get<double>())) {
      problems_.add(itemAt, "expected a finite number, found " + describeType(item));
      ok = false;
    } else if (item.get<double>() < min || item.get<double>() > max) {
      problems_.add(itemAt, "must be within " + rangeText(min, max) + ", found " + item.dump());
      ok = false;
    } else {
      value[i] = static_cast<float>(item.get<double>());
    }
  }
  if (ok) out = value;
  return ok;
}

bool JsonReader::boolean(const nlohmann::ordered_json& object, std::string_view key,
                         const std::string& where, bool& out) {
  const auto found = object.find(key);
  if (found == object.end()) return false;
  if (!found->is_boolean()) {
    problems_.add(childPointer(where, key), "expected true or false, found " + describeType(*found));
    return false;
  }
  out = found->get<bool>();
  return true;
}

bool JsonReader::string(const nlohmann::ordered_json& object, std::string_view key,
                        const std::string& where, std::string& out) {
  const auto found = object.find(key);
  if (found == object.end()) return false;
  if (!found->is_string() || found->get_ref<const std::string&>().empty()) {
    problems_.add(childPointer(where, key),
                  "expected a non-empty string, found " + describeType(*found));
    return false;
  }
  out = found->get<std::string>();
  return true;
}

Transform JsonReader::transform(const nlohmann::ordered_json& object, const std::string& where) {
  Transform result;
  const auto found = object.find("transform");
  if (found == object.end()) return result;
  const std::string at = where + "/transform";
  if (!found->is_object()) {
    problems_.add(at, "expected an object {position, rotation, scale}, found " +
                          describeType(*found));
    return result;
  }
  vec3(*found, "position", at, -1e6, 1e6, result.position);
  if (const auto rotation = found->find("rotation"); rotation != found->end()) {
    const std::string rotationAt = at + "/rotation";
    bool ok = rotation->is_array() && rotation->size() == 4;
    double xyzw[4] = {0, 0, 0, 1};
    for (std::size_t i = 0; ok && i < 4; ++i) {
      const auto& item = (*rotation)[i];
      ok = item.is_number() && std::isfinite(item.get<double>()) &&
           std::abs(item.get<double>()) <= 1e6;
      if (ok) xyzw[i] = item.get<double>();
    }
    const double length =
        std::sqrt(xyzw[0] * xyzw[0] + xyzw[1] * xyzw[1] + xyzw[2] * xyzw[2] + xyzw[3] * xyzw[3]);
    if (!ok) {
      problems_.add(rotationAt, "expected a quaternion [x, y, z, w] of 4 finite numbers");
    } else if (length < 1e-6) {
      problems_.add(rotationAt, "a rotation quaternion must not have zero length");
    } else {
      // Stored as written; the model holds it normalized.
      result.rotation = glm::normalize(Quat(static_cast<float>(xyzw[3] / length),
                                            static_cast<float>(xyzw[0] / length),
                                            static_cast<float>(xyzw[1] / length),
                                            static_cast<float>(xyzw[2] / length)));
    }
  }
  // Uniform scale (-), the same range the field's Transform node accepts.
  number(*found, "scale", at, 1e-4, 1e4, result.scale);
  for (const auto& [key, value] : found->items()) {
    if (key != "position" && key != "rotation" && key != "scale") {
      problems_.add(childPointer(at, key), "unknown key \"" + key + "\" here");
    }
  }
  return result;
}

}  // namespace floptle::scene
