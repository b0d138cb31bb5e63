#pragma once
// Typed reads from a JSON object that record a problem (and keep the default) instead of
// throwing, so buildScene works on any document, valid or not.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "floptle/core/math.h"
#include "floptle/core/scene/scene_io.h"
#include "scene/scene_internal.h"

namespace floptle::scene {

class JsonReader {
 public:
  explicit JsonReader(Problems& problems) : problems_(problems) {}

  /// Reads object[key] into out when present: a finite number within [min, max].
  /// Returns false when absent or wrong (a problem is recorded when wrong).
  bool number(const nlohmann::ordered_json& object, std::string_view key,
              const std::string& where, double min, double max, double& out);
  bool number(const nlohmann::ordered_json& object, std::string_view key,
              const std::string& where, double min, double max, float& out);
  /// An array of 3 finite numbers within [min, max].
  bool vec3(const nlohmann::ordered_json& object, std::string_view key, const std::string& where,
            double min, double max, Vec3& out);
  bool boolean(const nlohmann::ordered_json& object, std::string_view key,
               const std::string& where, bool& out);
  /// A non-empty string.
  bool string(const nlohmann::ordered_json& object, std::string_view key,
              const std::string& where, std::string& out);
  /// The optional "transform" object {position, rotation [x,y,z,w], scale} of a node.
  Transform transform(const nlohmann::ordered_json& object, const std::string& where);

  Problems& problems() { return problems_; }

 private:
  Problems& problems_;
};

inline std::string childPointer(const std::string& where, std::string_view key) {
  return where + "/" + escapePointerToken(key);
}

}  // namespace floptle::scene
