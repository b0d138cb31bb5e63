#pragma once
// A JSON patch: an ordered list of value replacements at JSON pointers, applied forward by
// redo and backward by undo. One op says "the value at `pointer` was `before` and becomes
// `after`"; a missing `before` means the value is inserted (a new object key, or an array
// element inserted at that index), a missing `after` means it is erased. This is the single
// primitive every document edit is made of, so do -> undo -> redo is exact by construction.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace floptle::editor {

using Json = nlohmann::ordered_json;

struct JsonPatchOp {
  std::string pointer;
  std::optional<Json> before;
  std::optional<Json> after;
};

struct JsonPatch {
  std::vector<JsonPatchOp> ops;

  /// Applies every op in order (ops may depend on earlier ones: insert then edit).
  void applyForward(Json& document) const;
  /// Undoes every op, last first.
  void applyBackward(Json& document) const;
  /// True when every op only changes numbers (same keys, same array lengths, same strings):
  /// the viewport may update uniforms instead of recompiling.
  bool parameterOnly() const;
};

/// Writes `value` at `pointer` (inserting an object key or an array element when `insert`),
/// or erases what is there when `value` is empty.
void writeAt(Json& document, const std::string& pointer, const std::optional<Json>& value,
             bool insert);

/// True when a and b have the same shape: same types, object keys, array sizes, strings and
/// booleans; only numbers may differ.
bool sameStructure(const Json& a, const Json& b);

/// A key escaped for use in a JSON pointer (~ -> ~0, / -> ~1).
std::string escapePointerToken(const std::string& token);

/// The first non-finite number below `value` as a pointer relative to it, or nullopt.
std::optional<std::string> findNonFinite(const Json& value, const std::string& where);

}  // namespace floptle::editor
