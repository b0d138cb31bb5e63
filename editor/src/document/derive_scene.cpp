// deriveScene: the schema check, then core's buildScene (semantic checks + typed model).
#include "floptle/editor/derived_scene.h"

#include "floptle/core/scene/scene_io.h"

namespace floptle::editor {

Expected<DerivedScene> deriveScene(const nlohmann::ordered_json& document) {
  const std::vector<Error> problems = scene::schemaProblems(document);
  if (!problems.empty()) return scene::joinProblems(problems);
  Expected<scene::Scene> built = scene::buildScene(document);
  if (!built) return built.error();
  return DerivedScene{std::move(*built)};
}

}  // namespace floptle::editor
