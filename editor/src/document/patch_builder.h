#pragma once
// PatchBuilder: records a compound edit op by op against a working copy of the document, so
// later ops see the indices earlier ones produced (erase several array elements, insert after
// an insert) and the recorded patch replays exactly.
#include <string>

#include "document/json_patch.h"

namespace floptle::editor {

class PatchBuilder {
 public:
  explicit PatchBuilder(const Json& document) : work_(document) {}

  /// Sets an existing value or inserts an object key.
  void set(const std::string& pointer, const Json& value);
  /// Inserts an array element at `pointer` (index or "-" for the end).
  void insert(const std::string& pointer, const Json& value);
  /// Erases an object key or array element.
  void erase(const std::string& pointer);

  /// The document as it will be after the patch.
  const Json& result() const { return work_; }
  JsonPatch take() { return std::move(patch_); }
  bool empty() const { return patch_.ops.empty(); }

 private:
  Json work_;
  JsonPatch patch_;
};

}  // namespace floptle::editor
