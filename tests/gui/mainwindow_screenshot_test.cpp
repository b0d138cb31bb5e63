// A screenshot of the main window on the showcase, written into the build tree, after the
// viewport has drawn a refined frame. Checks that the viewport part of the grab is a picture
// (sky and ground differ), not a blank rectangle.
#include <QDir>
#include <QScreen>
#include <QSet>

#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

TEST_F(WindowTest, WritesAScreenshotOfTheMainWindow) {
  RaymarchView* view = window().viewport();
  // The viewport draws only when something changes: after opening, a coarse frame and then one
  // refined full-resolution frame, however slow the GL. Wait for a full-resolution frame.
  ASSERT_TRUE(waitFor(
      [&] { return view->frameCount() >= 1 && view->lastResolutionScale() >= 1.0f; }, 120000))
      << "frames: " << view->frameCount() << ", scale " << view->lastResolutionScale();
  // The viewport region must show more than one colour: a rendered scene, not a blank grab.
  // The drawn frame reaches the window's pixels on a later paint than the one that counted it,
  // so under a slow build the first grab can still be blank: grab until the picture is there.
  const QRect area(view->mapTo(&window(), QPoint(0, 0)), view->size());
  QPixmap shot;
  QSet<QRgb> colours;
  const auto grabShowsAPicture = [&] {
    shot = window().screen()->grabWindow(window().winId());
    const QImage image = shot.toImage();
    colours.clear();
    for (int y = area.top(); y < area.bottom(); y += 7)
      for (int x = area.left(); x < area.right(); x += 7)
        colours.insert(image.pixel(x, y) & 0xF0F0F0);
    return colours.size() > 20;
  };
  waitFor(grabShowsAPicture, 30000);
  ASSERT_FALSE(shot.isNull());
  EXPECT_EQ(shot.size(), window().size() * window().devicePixelRatio());
  const QString dir = QStringLiteral(FLOPTLE_BINARY_DIR "/screenshots");
  QDir().mkpath(dir);
  const QString path = dir + "/mainwindow-showcase.png";
  ASSERT_TRUE(shot.save(path));
  EXPECT_GT(colours.size(), 20) << "the viewport looks blank in " << path.toStdString();
}

}  // namespace
}  // namespace floptle::editor::test
