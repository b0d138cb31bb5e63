#pragma once
// buildScene's reads through the component table: a refused value is recorded as a problem
// (and the default kept) instead of stopping, so buildScene works on any document.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/math.h"
#include "floptle/core/scene/scene_io.h"
#include "scene/scene_internal.h"

namespace floptle::scene {

/// Records a failed read as a problem; true when the read succeeded.
inline bool note(Problems& problems, const Expected<void>& read) {
  if (!read) problems.add(read.error().where, read.error().what);
  return read.ok();
}

/// The optional "transform" object {position, rotation [x,y,z,w], scale} of a node.
Transform readTransform(const nlohmann::ordered_json& object, const std::string& where,
                        Problems& problems);

inline std::string childPointer(const std::string& where, std::string_view key) {
  return where + "/" + escapePointerToken(key);
}

}  // namespace floptle::scene
