#pragma once
// The editor's door to scene files: reading (parse + schema validation), atomic writing, and
// the empty scene of File > New. Thin wrappers over core's scene I/O.
#include <string>

#include "document/json_patch.h"
#include "floptle/core/expected.h"

namespace floptle::editor {

Expected<Json> readSceneFile(const std::string& path);
Expected<void> writeSceneFile(const std::string& path, const Json& scene);
/// A valid scene with no nodes, one default material and no interactions.
Json emptySceneJson();

}  // namespace floptle::editor
