#include "viewport/baked_field_maps.h"

#include <QFileInfo>

#include <set>

#include "floptle/core/render/brick_atlas.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/editor_document.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/physics/baked_field_file.h"

namespace floptle::editor {

std::vector<std::string> BakedFieldMaps::sync(RaymarchView& view, const scene::Scene& scene,
                                              const std::filesystem::path& sceneDir) {
  std::vector<std::string> problems;
  std::set<std::string> seen;
  for (const scene::SceneNode& node : scene.nodes) {
    if (!node.hasComponent("baked_field")) continue;
    const auto& component = node.components["baked_field"];
    const std::string text = component.dump();
    seen.insert(node.pointer);
    render::BrickMapPlacement placement;
    placement.transform = node.world;
    placement.material = int(node.material);
    auto found = entries_.find(node.pointer);
    if (found != entries_.end() && found->second.component == text) {
      view.setBrickMapPlacement(found->second.id, placement);
      continue;
    }
    if (found != entries_.end()) {
      view.removeBrickMap(found->second.id);
      entries_.erase(found);
    }
    const std::string where = node.pointer + "/baked_field";
    auto map = physics::readBakedFieldMap(component, sceneDir);
    if (!map) {
      problems.push_back(node.pointer + "/" + map.error().message());
      continue;
    }
    auto id = view.addBrickMap(*map, placement, where);
    if (!id) {
      problems.push_back(id.error().message());
      continue;
    }
    entries_[node.pointer] = {text, *id};
  }
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (seen.count(it->first)) {
      ++it;
      continue;
    }
    view.removeBrickMap(it->second.id);
    it = entries_.erase(it);
  }
  return problems;
}

BakedFieldView::BakedFieldView(EditorDocument& document, RaymarchView& view, QObject* parent)
    : QObject(parent), document_(document), view_(view) {
  connect(&document_, &EditorDocument::documentChanged, this, &BakedFieldView::refresh);
  refresh();
}

void BakedFieldView::refresh() {
  const std::filesystem::path sceneDir =
      document_.filePath().isEmpty()
          ? std::filesystem::current_path()
          : std::filesystem::path(QFileInfo(document_.filePath()).absolutePath().toStdString());
  for (const std::string& problem : maps_.sync(view_, document_.derived().scene(), sceneDir))
    emit message(tr("Baked field: %1").arg(QString::fromStdString(problem)));
}

}  // namespace floptle::editor
