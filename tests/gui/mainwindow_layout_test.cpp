// The first-run layout (no saved window state): the viewport gets most of the window, the log
// and the interaction grid a strip under it.
#include <QDockWidget>
#include <QSettings>

#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

TEST(MainWindowLayout, FirstRunGivesTheViewportMostOfTheWindow) {
  application();
  {
    QSettings settings;
    settings.remove("window/state");
    settings.remove("window/geometry");
  }
  MainWindow window;  // no saved geometry: 1280 x 800
  ASSERT_TRUE(window.openFile(showcasePath()));
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QTest::qWait(50);
  const QWidget* view = window.viewport();
  const auto* log = window.findChild<QDockWidget*>("logDock");
  ASSERT_TRUE(view && log);
  EXPECT_GE(view->height(), 0.6 * window.height())
      << "viewport " << view->height() << " of " << window.height();
  EXPECT_GE(view->width(), 0.5 * window.width())
      << "viewport " << view->width() << " of " << window.width();
  EXPECT_LE(log->height(), 0.25 * window.height()) << "log " << log->height();
  EXPECT_GE(log->height(), 80) << "the log still shows a few lines";
  window.document().undoStack()->setClean();  // close without asking
}

}  // namespace
}  // namespace floptle::editor::test
