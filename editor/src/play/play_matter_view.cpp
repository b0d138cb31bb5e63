// PlayMode, the matter's surface in the viewport: the soft bodies are drawn from the
// simulation's shared brickmaps (runtime::matterSurfaces: one per material, the skinned surface
// re-sampled near moving matter every step) through the viewport's brick atlas, so a body
// squashes, recovers and falls apart on screen as it does in the simulation, in its material's
// colour; each tick sends only the bricks that step re-sampled. Where the atlas refuses a map
// (a limit, named in the log), the bodies stay drawn rigidly on their best rigid transform (the
// moved-node path).
#include "floptle/core/render/brick_atlas.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/play_mode.h"
#include "floptle/editor/raymarch_view.h"
#include "floptle/physics/simulation.h"
#include "floptle/runtime/scene_matter.h"

namespace floptle::editor {

bool PlayMode::syncMatterMap() {
  physics::Simulation* sim = session_.simulation();
  EditorDocument* copy = session_.copy();
  if (!sim || !copy || matterMapFailed_) {
    dropMatterMap();
    return false;
  }
  auto fail = [this](const std::string& why) {
    window_.log()->appendMessage(
        tr("Play: the soft bodies are drawn rigidly: %1").arg(QString::fromStdString(why)));
    matterMapFailed_ = true;
    dropMatterMap();
    return false;
  };
  Expected<std::vector<runtime::MatterSurface>> surfaces = runtime::matterSurfaces(*sim);
  if (!surfaces) return fail(surfaces.error().message());
  if (surfaces->empty()) {
    dropMatterMap();
    return false;
  }
  RaymarchView* view = window_.viewport();
  const scene::Scene& scene = copy->derived().scene();
  const bool whole = surfaces->front().whole || matterMaps_.size() != surfaces->size() ||
                     matterMapSource_ != surfaces->front().map;
  if (whole) {
    // New maps (the first tick, or a new simulation: a branch, a replay) go in whole.
    dropMatterMap();
    for (const runtime::MatterSurface& s : *surfaces) {
      render::BrickMapPlacement placement;
      const int node = copy->derived().findNode(s.firstBody);
      if (node >= 0)
        placement.material = int(scene::surfaceMaterialOf(scene.nodes[std::size_t(node)]));
      Expected<int> id =
          view->addBrickMap(*s.map, placement, "the soft bodies' surface (" + s.material + ")");
      if (!id) return fail(id.error().message());
      matterMaps_.push_back(*id);
    }
    matterMapSource_ = surfaces->front().map;
    return true;
  }
  for (std::size_t i = 0; i < surfaces->size(); ++i) {
    const runtime::MatterSurface& s = (*surfaces)[i];
    if (s.changedCells.empty()) continue;
    if (Expected<void> updated = view->updateBrickMap(matterMaps_[i], *s.map, s.changedCells);
        !updated)
      return fail(updated.error().message());
  }
  return true;
}

void PlayMode::dropMatterMap() {
  for (int id : matterMaps_) window_.viewport()->removeBrickMap(id);
  matterMaps_.clear();
  matterMapSource_ = nullptr;
}

}  // namespace floptle::editor
