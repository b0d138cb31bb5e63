#pragma once
// Private helpers shared by the scene sources.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"

namespace floptle::scene {

namespace detail {
/// resources/scene.schema.json, embedded at build time (generated scene_schema_text.cpp).
extern const char* const kSceneSchemaText;
}  // namespace detail

/// The pointer of the first array/object nested deeper than `maxDepth`, or nullopt.
/// Iterative, so an arbitrarily deep document cannot overflow the stack.
std::optional<std::string> findTooDeep(const nlohmann::ordered_json& document, int maxDepth);

/// Problems collected while checking; reported together.
struct Problems {
  std::vector<Error> list;
  void add(std::string where, std::string what) {
    list.push_back(Error{std::move(where), std::move(what)});
  }
  bool empty() const { return list.empty(); }
};

/// "rock" for "rock", "3" for 3; empty for anything else.
std::string materialDisplayId(const nlohmann::ordered_json& id);

/// Type name for messages: "a string", "an array", ...
std::string describeType(const nlohmann::ordered_json& value);

}  // namespace floptle::scene

namespace floptle::scene {
struct Scene;
/// buildScene's work: fills `problems` with every problem found; the Scene is only
/// meaningful when none was.
Scene buildSceneCollecting(const nlohmann::ordered_json& document, Problems& problems);
}  // namespace floptle::scene
