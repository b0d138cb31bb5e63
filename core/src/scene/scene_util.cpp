// Small shared pieces: pointers, problem lists, type names, material id text.
#include <string>
#include <utility>
#include <vector>

#include "floptle/core/scene/scene_io.h"
#include "scene/scene_internal.h"

namespace floptle::scene {

std::string escapePointerToken(std::string_view token) {
  std::string escaped;
  escaped.reserve(token.size());
  for (char c : token) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

Error joinProblems(const std::vector<Error>& problems) {
  if (problems.empty()) return Error{"", "no problem"};
  Error joined{problems.front().where, problems.front().what};
  for (std::size_t i = 1; i < problems.size(); ++i) {
    joined.what += "\n" + problems[i].message();
  }
  return joined;
}

namespace {

/// Whether any value of `document` lies deeper than maxDepth: the depth alone, no pointer
/// strings, so a large valid level costs one walk without an allocation per value.
bool exceedsDepth(const nlohmann::ordered_json& document, int maxDepth) {
  struct Pending {
    const nlohmann::ordered_json* value;
    int depth;
  };
  std::vector<Pending> stack{{&document, 1}};
  while (!stack.empty()) {
    const Pending current = stack.back();
    stack.pop_back();
    if (!current.value->is_structured()) continue;
    if (current.depth > maxDepth) return true;
    for (const auto& item : *current.value) stack.push_back({&item, current.depth + 1});
  }
  return false;
}

}  // namespace

std::optional<std::string> findTooDeep(const nlohmann::ordered_json& document, int maxDepth) {
  if (!exceedsDepth(document, maxDepth)) return std::nullopt;
  // Explicit stack of (value, pointer, depth): no recursion, whatever the depth.
  struct Pending {
    const nlohmann::ordered_json* value;
    std::string pointer;
    int depth;
  };
  std::vector<Pending> stack{{&document, "", 1}};
  while (!stack.empty()) {
    Pending current = std::move(stack.back());
    stack.pop_back();
    if (!current.value->is_structured()) continue;
    if (current.depth > maxDepth) return current.pointer;
    if (current.value->is_array()) {
      for (std::size_t i = 0; i < current.value->size(); ++i) {
        stack.push_back(
            {&(*current.value)[i], current.pointer + "/" + std::to_string(i), current.depth + 1});
      }
    } else {
      for (const auto& [key, item] : current.value->items()) {
        stack.push_back(
            {&item, current.pointer + "/" + escapePointerToken(key), current.depth + 1});
      }
    }
  }
  return std::nullopt;
}

std::string materialDisplayId(const nlohmann::ordered_json& id) {
  if (id.is_string()) return id.get<std::string>();
  if (id.is_number_unsigned()) return std::to_string(id.get<std::uint64_t>());
  if (id.is_number_integer() && id.get<std::int64_t>() >= 0) {
    return std::to_string(id.get<std::int64_t>());
  }
  return "";
}

std::string describeType(const nlohmann::ordered_json& value) {
  switch (value.type()) {
    case nlohmann::ordered_json::value_t::null:
      return "null";
    case nlohmann::ordered_json::value_t::boolean:
      return "a boolean";
    case nlohmann::ordered_json::value_t::string:
      return "a string";
    case nlohmann::ordered_json::value_t::array:
      return "an array";
    case nlohmann::ordered_json::value_t::object:
      return "an object";
    default:
      return "a number";
  }
}

}  // namespace floptle::scene
