// EditorDocument: the subtrees of imported files, reloaded when their file changes.
#include <QFileInfo>

#include "floptle/editor/editor_document.h"

namespace floptle::editor {

std::filesystem::path EditorDocument::sceneFolder() const {
  if (filePath_.isEmpty()) return {};
  return std::filesystem::path(QFileInfo(filePath_).absolutePath().toStdString());
}

std::optional<asset::SubtreeSource> EditorDocument::meshSubtreeSource(
    const std::filesystem::path& meshFile) const {
  const std::string group = asset::findMeshSubtree(json_, meshFile, sceneFolder());
  if (group.empty()) return std::nullopt;
  auto source = asset::subtreeSource(json_.at(Json::json_pointer(group)));
  if (!source) return std::nullopt;
  return std::move(source).value();
}

Expected<asset::ResyncReport> EditorDocument::reloadMeshSubtree(
    const std::filesystem::path& meshFile, const asset::MeshObjectTree& tree) {
  const std::filesystem::path folder = sceneFolder();
  const std::string group = asset::findMeshSubtree(json_, meshFile, folder);
  if (group.empty()) return Error{meshFile.string(), "no node of the scene holds this file"};
  const auto source = asset::subtreeSource(json_.at(Json::json_pointer(group)));
  if (!source) return Error{group + "/" + source.error().where, source.error().what};
  auto resync = asset::resyncMeshSubtree(json_, group, tree, meshFile, folder, *source);
  if (!resync) return resync.error();
  const Json materials = json_.value("materials", Json::array());
  if (resync->node == json_.at(Json::json_pointer(group)) && resync->materials == materials)
    return resync->report;  // the file changed nothing the scene holds
  const QString name =
      QString::fromStdString(json_.at(Json::json_pointer(group)).value("name", std::string()));
  auto pushed = setValues({{group, resync->node}, {"/materials", resync->materials}},
                          tr("Reload %1").arg(name));
  if (!pushed) return pushed.error();
  return resync->report;
}

}  // namespace floptle::editor
