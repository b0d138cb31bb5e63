#include "document/patch_builder.h"

namespace floptle::editor {

void PatchBuilder::set(const std::string& pointer, const Json& value) {
  const Json::json_pointer p(pointer);
  std::optional<Json> before;
  if (work_.contains(p)) before = work_.at(p);
  JsonPatchOp op{pointer, before, value};
  writeAt(work_, pointer, value, !before.has_value());
  patch_.ops.push_back(std::move(op));
}

void PatchBuilder::insert(const std::string& pointer, const Json& value) {
  std::string resolved = pointer;
  if (resolved.size() >= 2 && resolved.compare(resolved.size() - 2, 2, "/-") == 0) {
    const Json::json_pointer parent = Json::json_pointer(pointer).parent_pointer();
    resolved = resolved.substr(0, resolved.size() - 1) + std::to_string(work_.at(parent).size());
  }
  writeAt(work_, resolved, value, true);
  patch_.ops.push_back({resolved, std::nullopt, value});
}

void PatchBuilder::erase(const std::string& pointer) {
  Json before = work_.at(Json::json_pointer(pointer));
  writeAt(work_, pointer, std::nullopt, false);
  patch_.ops.push_back({pointer, std::move(before), std::nullopt});
}

}  // namespace floptle::editor
