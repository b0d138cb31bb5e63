#include "document/scene_io.h"

#include "floptle/core/scene/scene_io.h"

namespace floptle::editor {

Expected<void> writeSceneFile(const std::string& path, const Json& document) {
  return scene::saveSceneFile(path, document);
}

Json emptySceneJson() {
  // One neutral material so a new node has something to pick (density of water (kg/m^3),
  // mid friction (-), little bounce (-), soft-rock stiffness and strength (Pa)).
  return Json{{"format", "floptle.scene"},
              {"version", 1},
              {"materials", Json::array({Json{{"id", "default"},
                                              {"color", {0.7, 0.7, 0.7}},
                                              {"density", 1000.0},
                                              {"friction", 0.5},
                                              {"restitution", 0.2},
                                              {"bulk_modulus", 1.0e9},
                                              {"yield_strength", 1.0e7}}})},
              {"interactions", Json::array()},
              {"nodes", Json::array()}};
}

}  // namespace floptle::editor
