// deriveScene: the schema check, then core's buildScene (semantic checks + typed model), then
// the index of node names.
#include "floptle/editor/derived_scene.h"

#include "floptle/core/scene/scene_io.h"

namespace floptle::editor {

DerivedScene::DerivedScene(scene::Scene built) : scene_(std::move(built)) {
  auto index = std::make_shared<std::unordered_map<std::string, int>>();
  index->reserve(scene_.nodes.size());
  for (std::size_t i = 0; i < scene_.nodes.size(); ++i)
    index->emplace(scene_.nodes[i].name, static_cast<int>(i));  // keeps the first of a name
  nodeIndex_ = std::move(index);
}

int DerivedScene::findNode(std::string_view name) const {
  if (!nodeIndex_) return -1;  // default-constructed: no nodes
  const auto found = nodeIndex_->find(std::string(name));
  return found == nodeIndex_->end() ? -1 : found->second;
}

Expected<DerivedScene> deriveScene(const nlohmann::ordered_json& document) {
  const std::vector<Error> problems = scene::schemaProblems(document);
  if (!problems.empty()) return scene::joinProblems(problems);
  Expected<scene::Scene> built = scene::buildScene(document);
  if (!built) return built.error();
  return DerivedScene(std::move(*built));
}

}  // namespace floptle::editor
