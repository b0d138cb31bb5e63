#pragma once
// An ordered_json built from a RapidJSON reader's events, so that one pass over a scene text
// gives both trees. It is the tree nlohmann's own parser builds from the same text:
//   - an integer written with a minus (the reader's Int/Int64) is number_integer, one without
//     (Uint/Uint64) number_unsigned, anything else number_float;
//   - an object keeps the text's key order.
// The text must have no duplicate key (the caller refuses those before any key arrives here).
//
// The members of the open containers wait on two scratch stacks; a container is made when it
// closes, with exactly the room it needs: one allocation for its items, none to regrow them.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace floptle::scene {

class OrderedJsonBuilder {
 public:
  using Json = nlohmann::ordered_json;

  void null() { put(Json(nullptr)); }
  void boolean(bool value) { put(Json(value)); }
  void integer(std::int64_t value) { put(Json(Json::number_integer_t{value})); }
  void unsignedInteger(std::uint64_t value) { put(Json(Json::number_unsigned_t{value})); }
  void number(double value) { put(Json(Json::number_float_t{value})); }
  void string(std::string_view value) { put(Json(Json::string_t(value))); }
  void startObject() { open_.push_back({true, values_.size(), keys_.size()}); }
  void startArray() { open_.push_back({false, values_.size(), keys_.size()}); }
  /// The key of the next value in the innermost object.
  void key(std::string_view name) { keys_.emplace_back(name); }
  /// Closes the innermost container: its waiting members move into it.
  void end() {
    const Open open = open_.back();
    open_.pop_back();
    const auto first = values_.begin() + static_cast<std::ptrdiff_t>(open.firstValue);
    Json container;
    if (open.isObject) {
      Json::object_t members;
      members.reserve(values_.size() - open.firstValue);
      auto key = keys_.begin() + static_cast<std::ptrdiff_t>(open.firstKey);
      for (auto value = first; value != values_.end(); ++value, ++key) {
        members.emplace_back(std::move(*key), std::move(*value));
      }
      container = Json(std::move(members));
    } else {
      container = Json(
          Json::array_t(std::make_move_iterator(first), std::make_move_iterator(values_.end())));
    }
    values_.resize(open.firstValue);
    keys_.resize(open.firstKey);
    put(std::move(container));
  }

  /// The keys read so far in the innermost open object, in order.
  std::span<const std::string> openObjectKeys() const {
    return std::span<const std::string>(keys_).subspan(open_.back().firstKey);
  }

  /// The whole value, once the reader has finished.
  Json& root() { return root_; }

 private:
  struct Open {
    bool isObject;
    /// Where this container's members start on values_ and keys_.
    std::size_t firstValue;
    std::size_t firstKey;
  };

  void put(Json&& value) {
    if (open_.empty()) {
      root_ = std::move(value);
    } else {
      values_.push_back(std::move(value));
    }
  }

  Json root_;
  std::vector<Open> open_;
  std::vector<Json> values_;
  std::vector<std::string> keys_;
};

}  // namespace floptle::scene
