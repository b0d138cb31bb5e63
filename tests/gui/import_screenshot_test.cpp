// A screenshot of the editor on the primitives scene with an imported two-material mesh (a
// small house written by the test) and the collider wireframes on, written into the build
// tree (screenshots/editor-import-wireframes.png). Checks the pieces are there: the mesh layer,
// wireframe lines for every collider, and the house's roof colour in the viewport.
#include <QDir>
#include <QFile>
#include <QScreen>

#include "import_test_support.h"

namespace floptle::editor::test {
namespace {

// Walls x in [-0.8, 0.8], y in [0, 1], z in [-0.6, 0.6] (m) and a pyramid roof to y = 1.7.
constexpr const char* kHouseObj = R"(mtllib house.mtl
v -0.8 0 -0.6
v 0.8 0 -0.6
v 0.8 1 -0.6
v -0.8 1 -0.6
v -0.8 0 0.6
v 0.8 0 0.6
v 0.8 1 0.6
v -0.8 1 0.6
v 0 1.7 0
usemtl walls
f 2 1 4 3
f 1 5 8 4
f 6 2 3 7
f 5 6 7 8
f 1 2 6 5
usemtl roof
f 8 7 9
f 7 3 9
f 3 4 9
f 4 8 9
)";
constexpr const char* kHouseMtl = R"(newmtl walls
Kd 0.85 0.75 0.5
newmtl roof
Kd 0.6 0.08 0.05
)";

TEST_F(SmallWindowTest, WritesAScreenshotWithAnImportedMeshAndWireframes) {
  QFile primitives(QStringLiteral(FLOPTLE_SOURCE_DIR "/scenes/primitives.json"));
  ASSERT_TRUE(primitives.open(QIODevice::ReadOnly));
  ASSERT_NO_FATAL_FAILURE(openScene(primitives.readAll().toStdString()));
  window().resize(820, 540);
  writeText(path("house.obj"), kHouseObj);
  writeText(path("house.mtl"), kHouseMtl);

  auto* importer = window().findChild<MeshImporter*>("meshImporter");
  ASSERT_NE(importer, nullptr);
  QSignalSpy imported(importer, &MeshImporter::imported);
  ASSERT_TRUE(importer->start(path("house.obj"), MeshCollision::TriangleMesh));
  ASSERT_TRUE(waitFor([&] { return imported.count() == 1; }, 60000));
  // In front of the round box, nearer the camera.
  ASSERT_TRUE(document()
                  .setValue(document().nodePointer("house") + "/transform",
                            Json{{"position", {1.4, 0.0, 3.0}}})
                  .ok());
  document().setSelection({});

  const QImage frame = view().captureImage();
  // The window grew after it was shown: the whole frame is drawn, not only its first size.
  for (int y = 0; y < frame.height(); y += 16) {
    const QRgb edge = frame.pixel(frame.width() - 2, y);
    EXPECT_GT(qRed(edge) + qGreen(edge) + qBlue(edge), 120) << "black at the right edge, row " << y;
  }
  Vec2 roof;
  ASSERT_TRUE(view().camera().project({1.4f - 0.2f, 1.3f, 3.0f + 0.3f}, frame.width(),
                                      frame.height(), roof));
  const QRgb roofPixel = frame.pixel(int(roof.x), int(roof.y));
  EXPECT_GT(qRed(roofPixel), qGreen(roofPixel) + 40) << "roof not drawn red";

  auto* wireframes = window().findChild<ColliderWireframes*>("colliderWireframes");
  ASSERT_NE(wireframes, nullptr);
  window().action("actionColliderWireframes")->trigger();
  ASSERT_TRUE(waitFor([&] { return !wireframes->busy(); }, 300000));
  EXPECT_GT(wireframes->lineCount("house"), 0u);
  EXPECT_GT(wireframes->lineCount("sphere"), 0u);
  EXPECT_GT(wireframes->lineCount("menger"), 0u);
  EXPECT_TRUE(view().overlayMeshLayers().contains("mesh:house"));
  for (const QString& node : document().nodeNames())
    std::printf("wireframe %s: %zu lines\n", qPrintable(node), wireframes->lineCount(node));

  QTest::qWait(300);  // the window repaints after the capture
  const QPixmap shot = window().screen()->grabWindow(window().winId());
  const QString dir = QStringLiteral(FLOPTLE_BINARY_DIR "/screenshots");
  QDir().mkpath(dir);
  ASSERT_TRUE(shot.save(dir + "/editor-import-wireframes.png"));
}

}  // namespace
}  // namespace floptle::editor::test
