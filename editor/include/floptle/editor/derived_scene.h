#pragma once
// DerivedScene: what the editor derives from the document JSON after every change: the typed
// scene of core (scene::buildScene). Panels read names and pointers from the JSON; the
// viewport and picking read this.
#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"

namespace floptle::editor {

struct DerivedScene {
  scene::Scene scene;
};

/// Checks a scene document against the schema and builds its typed form; an Error names
/// every problem as "/json/pointer: what is wrong" (Error::where = the first pointer).
Expected<DerivedScene> deriveScene(const nlohmann::ordered_json& document);

}  // namespace floptle::editor
