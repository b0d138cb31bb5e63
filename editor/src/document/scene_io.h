#pragma once
// The editor's door to scene files: atomic writing and the empty scene of File > New (reading
// is core's scene::loadScene, which also builds the typed scene). Thin wrappers over core's
// scene I/O.
#include <string>

#include "document/json_patch.h"
#include "floptle/core/expected.h"

namespace floptle::editor {

Expected<void> writeSceneFile(const std::string& path, const Json& scene);
/// A valid scene with no nodes, one default material and no interactions.
Json emptySceneJson();

}  // namespace floptle::editor
