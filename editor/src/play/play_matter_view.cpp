// PlayMode, the matter's surface in the viewport: the soft bodies are drawn from the
// simulation's shared brickmap (runtime::matterSurface, the skinned surface re-sampled near
// moving matter every step) through the viewport's brick atlas, so a body squashes, recovers and
// falls apart on screen as it does in the simulation; each tick sends only the bricks that step
// re-sampled. Where the atlas refuses the map (a limit, named in the log), the bodies stay drawn
// rigidly on their best rigid transform (the moved-node path).
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
  if (!sim || !copy) {
    dropMatterMap();
    return false;
  }
  Expected<std::optional<runtime::MatterSurface>> surface = runtime::matterSurface(*sim);
  if (!surface || !*surface || !(*surface)->map) {
    if (!surface && !matterMapFailed_) {
      window_.log()->appendMessage(tr("Play: the soft bodies are drawn rigidly: %1")
                                       .arg(QString::fromStdString(surface.error().message())));
      matterMapFailed_ = true;
    }
    dropMatterMap();
    return false;
  }
  const runtime::MatterSurface& s = **surface;
  RaymarchView* view = window_.viewport();
  if (matterMap_ < 0 || matterMapSource_ != s.map || s.whole) {
    // A new map (the first tick, or a new simulation: a branch, a replay) goes in whole.
    dropMatterMap();
    // One map holds every body: it takes the first soft body's surface material.
    render::BrickMapPlacement placement;
    for (const MovedNode& m : session_.movedNodes())
      if (!m.softBody.empty()) {
        placement.material =
            int(scene::surfaceMaterialOf(copy->derived().scene.nodes[std::size_t(m.sceneIndex)]));
        break;
      }
    Expected<int> id = view->addBrickMap(*s.map, placement, "the soft bodies' surface");
    if (!id) {
      if (!matterMapFailed_)
        window_.log()->appendMessage(tr("Play: the soft bodies are drawn rigidly: %1")
                                         .arg(QString::fromStdString(id.error().message())));
      matterMapFailed_ = true;
      return false;
    }
    matterMap_ = *id;
    matterMapSource_ = s.map;
    return true;
  }
  if (!s.changedCells.empty()) {
    if (Expected<void> updated = view->updateBrickMap(matterMap_, *s.map, s.changedCells);
        !updated) {
      window_.log()->appendMessage(tr("Play: the soft bodies are drawn rigidly: %1")
                                       .arg(QString::fromStdString(updated.error().message())));
      matterMapFailed_ = true;
      dropMatterMap();
      return false;
    }
  }
  return true;
}

void PlayMode::dropMatterMap() {
  if (matterMap_ >= 0) window_.viewport()->removeBrickMap(matterMap_);
  matterMap_ = -1;
  matterMapSource_ = nullptr;
}

}  // namespace floptle::editor
