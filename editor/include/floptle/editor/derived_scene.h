#pragma once
// DerivedScene: what the editor derives from the document JSON after every change: the typed
// scene of core (scene::buildScene) and a hashed index of its node names. The viewport, picking
// and the document's name look-ups read this.
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "floptle/core/expected.h"
#include "floptle/core/scene/scene.h"

namespace floptle::editor {

class DerivedScene {
 public:
  DerivedScene() = default;
  /// Indexes the names of `built`'s nodes (the first node of a name, as scene::Scene::findNode).
  explicit DerivedScene(scene::Scene built);

  /// The typed scene; read-only, so the name index stays true to it.
  const scene::Scene& scene() const { return scene_; }
  /// Index into scene().nodes of the node called `name`, or -1: one hash look-up, where
  /// scene::Scene::findNode compares every node (a level has 100,000).
  int findNode(std::string_view name) const;

 private:
  scene::Scene scene_;
  /// Name -> index into scene_.nodes. Immutable once built, so copies of this scene (Play's copy
  /// of the document) share one index.
  std::shared_ptr<const std::unordered_map<std::string, int>> nodeIndex_;
};

/// Checks a scene document against the schema and builds its typed form; an Error names
/// every problem as "/json/pointer: what is wrong" (Error::where = the first pointer).
Expected<DerivedScene> deriveScene(const nlohmann::ordered_json& document);

}  // namespace floptle::editor
