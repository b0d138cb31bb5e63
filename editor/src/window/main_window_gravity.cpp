// MainWindow: the gravity tools (regions and sources drawn, picked and moved; View > Gravity
// Arrows) and the inspector's Gravity section hooks (new items at the viewport's focus).
#include <QAction>
#include <QMenu>

#include "floptle/editor/gravity_tools.h"
#include "floptle/editor/inspector_panel.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/main_window.h"
#include "floptle/editor/raymarch_view.h"

namespace floptle::editor {

void MainWindow::installGravityTools(QMenu* view) {
  gravityTools_ = new GravityTools(document_, *viewport_, this);
  gravityTools_->setObjectName("gravityTools");
  connect(gravityTools_, &GravityTools::message, log_, &LogPanel::appendMessage);
  connect(gravityTools_, &GravityTools::selectionChanged, this, [this] {
    syncSelectionOverlay();
    inspector_->scheduleRebuild();
  });
  GravityHooks hooks;
  hooks.placement = [this] { return viewport_->camera().lookAt; };
  hooks.select = [this](const std::string& pointer) { gravityTools_->select(pointer); };
  hooks.selected = [this] { return gravityTools_->selected(); };
  inspector_->setGravityHooks(std::move(hooks));

  view->addSeparator();
  QAction* arrows = view->addAction(tr("&Gravity Arrows"));
  arrows->setObjectName("actionGravityArrows");
  arrows->setCheckable(true);
  arrows->setShortcut(QKeySequence(tr("Alt+G")));
  arrows->setToolTip(
      tr("Draw g as arrows over a slice plane through the selection, coloured by "
         "|g| (blue 0, green 9.81 m/s^2, red 19.62 m/s^2 or more)"));
  connect(arrows, &QAction::toggled, gravityTools_, &GravityTools::setArrowsShown);
}

}  // namespace floptle::editor
