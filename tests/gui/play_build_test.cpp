// Play builds its simulation on a worker thread: a scene whose Play imports and bakes a large
// mesh (a ~100k-triangle OBJ written here, "collision": "field") shows a progress dialog
// after kBuildDialogDelayMs while the event loop keeps running, and Cancel there leaves the
// editor in edit mode with the document unchanged and no field cached; a small scene still
// plays once its build is in, built from the document as it was at Play; Play or Stop pressed
// during the build cancels it.
#include <QLabel>
#include <QProgressDialog>
#include <QPushButton>
#include <QTimer>

#include <cmath>
#include <string>

#include "floptle/editor/import_mesh_view.h"
#include "floptle/editor/log_panel.h"
#include "floptle/physics/mesh_collider_cache.h"
#include "floptle/physics/simulation.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

/// A height-field terrain of cells x cells quads (2 triangles each), `spacing` m apart, as OBJ.
std::string terrainObj(int cells, float spacing) {
  std::string obj;
  obj.reserve(std::size_t(cells + 1) * std::size_t(cells + 1) * 40 +
              std::size_t(cells) * cells * 60);
  const float half = 0.5f * float(cells) * spacing;
  for (int j = 0; j <= cells; ++j)
    for (int i = 0; i <= cells; ++i) {
      const float x = float(i) * spacing - half, z = float(j) * spacing - half;
      const float y = 0.6f * std::sin(0.31f * x) * std::cos(0.23f * z);
      obj += "v " + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z) + "\n";
    }
  const auto at = [cells](int i, int j) { return std::to_string(j * (cells + 1) + i + 1); };
  for (int j = 0; j < cells; ++j)
    for (int i = 0; i < cells; ++i) {
      obj += "f " + at(i, j) + " " + at(i, j + 1) + " " + at(i + 1, j + 1) + "\n";
      obj += "f " + at(i, j) + " " + at(i + 1, j + 1) + " " + at(i + 1, j) + "\n";
    }
  return obj;
}

void writeFile(const QString& path, const std::string& text) {
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly)) << path.toStdString();
  file.write(text.data(), qint64(text.size()));
}

/// A ball over a baked-field terrain mesh of 224 x 224 quads (100,352 triangles, 56 m across),
/// baked at 0.1 m: seconds of work, however fast the machine.
constexpr const char* kTerrainScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "rock", "color": [0.5, 0.5, 0.5], "friction": 0.8, "restitution": 0.1,
                 "density": 2600, "bulk_modulus": 5e10, "yield_strength": 1e8}],
  "interactions": [],
  "nodes": [
    {"name": "terrain", "material": "rock", "collider": {"body": "static"},
     "mesh": {"file": "terrain.obj", "collision": "field", "cell_size": 0.1}},
    {"name": "ball", "transform": {"position": [0, 3, 0]},
     "shape": {"type": "sphere", "radius": 0.4}, "material": "rock",
     "collider": {"body": "dynamic"}}
  ]
})";

class PlayBuildTest : public PlayWindowTest {};

TEST_F(PlayBuildTest, LargeMeshBuildShowsProgressKeepsTheWindowLiveAndCancels) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  ASSERT_NO_FATAL_FAILURE(writeFile(dir.filePath("terrain.obj"), terrainObj(224, 0.25f)));
  ASSERT_NO_FATAL_FAILURE(writeFile(dir.filePath("scene.json"), kTerrainScene));
  ASSERT_NO_FATAL_FAILURE(openScene(dir.filePath("scene.json")));
  // The viewport reads the mesh through the window's cache first (its triangle collider, no
  // field): Play then has the bake left to do.
  auto* meshes = window().findChild<ImportedMeshView*>(QStringLiteral("importedMeshView"));
  ASSERT_NE(meshes, nullptr);
  ASSERT_TRUE(waitFor([&] { return meshes->pendingLoads() == 0; }, 60000));
  const physics::MeshColliderCacheStats cached = window().meshCache().stats();
  const Json before = document().json();
  const int undoCount = document().undoStack()->count();
  QSignalSpy failed(&session(), &PlaySession::buildFailed);
  QSignalSpy progress(&session(), &PlaySession::buildProgress);
  // A timer of the window's thread: it fires while the build runs (the viewport's own frames,
  // software GL here, take their share of the thread, so only a few are asked for).
  int frames = 0;
  QTimer frame;
  frame.setInterval(20);
  // Only the ticks that fire while the build runs count.
  QObject::connect(&frame, &QTimer::timeout, [&] { frames += session().building() ? 1 : 0; });
  frame.start();

  window().action("actionPlay")->trigger();
  ASSERT_TRUE(session().building());
  EXPECT_EQ(session().state(), PlayState::Stopped) << "Playing before the simulation exists";
  EXPECT_FALSE(play().playing());
  EXPECT_TRUE(window().action("actionStop")->isEnabled());
  frames = 0;
  // Longer than kBuildDialogDelayMs: the progress dialog shows, the event loop runs meanwhile.
  ASSERT_TRUE(waitFor(
      [&] { return play().buildProgressDialog() != nullptr || !session().building(); }, 30000));
  ASSERT_TRUE(session().building()) << "the terrain was built before its dialog could show";
  QProgressDialog* dialog = play().buildProgressDialog();
  ASSERT_NE(dialog, nullptr);
  EXPECT_TRUE(dialog->isVisible());
  EXPECT_FALSE(dialog->isModal()) << "the window must stay usable during the build";
  // A few ticks while the build still runs (a slow machine may show the dialog before the
  // third): a build that held the event loop would let at most one through, after it ended.
  waitFor([&] { return frames >= 3 || !session().building(); }, 30000);
  EXPECT_GE(frames, 3) << "the event loop stalled during the build";
  ASSERT_TRUE(session().building()) << "the terrain was built before the test could cancel it";
  EXPECT_GT(progress.count(), 0);
  ASSERT_TRUE(waitFor([&] { return dialog->labelText().contains("terrain"); }, 30000))
      << dialog->labelText().toStdString();
  EXPECT_EQ(session().state(), PlayState::Stopped);

  QPushButton* cancel = dialog->findChild<QPushButton*>();
  ASSERT_NE(cancel, nullptr);
  QTest::mouseClick(cancel, Qt::LeftButton);
  ASSERT_TRUE(waitForBuild(session(), 60000)) << "the cancelled build did not stop";
  ASSERT_EQ(failed.count(), 1);
  EXPECT_TRUE(failed.first().at(1).toBool()) << "not reported as a cancel";
  EXPECT_EQ(session().state(), PlayState::Stopped);
  EXPECT_EQ(session().copy(), nullptr);
  EXPECT_FALSE(window().property("playTinted").toBool());
  EXPECT_EQ(document().json(), before);
  EXPECT_EQ(document().undoStack()->count(), undoCount);
  EXPECT_TRUE(window().log()->toPlainText().contains("cancelled"));
  const physics::MeshColliderCacheStats after = window().meshCache().stats();
  EXPECT_EQ(after.entries, cached.entries);
  EXPECT_EQ(after.bytes, cached.bytes) << "the cancelled bake left a field in the cache";
  EXPECT_TRUE(waitFor([&] { return play().buildProgressDialog() == nullptr; }, 2000));
}

TEST_F(PlayBuildTest, SmallSceneStillPlaysBuiltFromTheDocumentAsItWasAtPlay) {
  openText(kWalkScene);
  const std::string radius = document().nodePointer("ball") + "/shape/radius";
  QSignalSpy states(&session(), &PlaySession::stateChanged);
  window().action("actionPlay")->trigger();
  EXPECT_TRUE(session().building());
  EXPECT_EQ(states.count(), 0);
  // An edit of the document while the simulation builds: not in the copy, not simulated.
  ASSERT_TRUE(document().setValue(radius, 0.8).ok());
  ASSERT_TRUE(waitForBuild(session()));
  ASSERT_EQ(session().state(), PlayState::Playing);
  ASSERT_EQ(states.count(), 1);
  EditorDocument* copy = session().copy();
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->valueAt(copy->nodePointer("ball") + "/shape/radius")->get<double>(), 0.4);
  ASSERT_NE(session().simulation(), nullptr);
  EXPECT_EQ(session().simulation()->bodies().size(), 1u);
  EXPECT_TRUE(window().property("playTinted").toBool());
  ASSERT_TRUE(waitFor([&] { return session().tick() >= 5; }, 5000));
  window().action("actionStop")->trigger();
  EXPECT_EQ(session().state(), PlayState::Stopped);
  EXPECT_EQ(document().valueAt(radius)->get<double>(), 0.8);
}

TEST_F(PlayBuildTest, PlayOrStopDuringTheBuildCancelsIt) {
  openText(kWalkScene);
  const Json before = document().json();
  for (const char* second : {"actionPlay", "actionStop"}) {
    SCOPED_TRACE(second);
    QSignalSpy failed(&session(), &PlaySession::buildFailed);
    window().action("actionPlay")->trigger();
    ASSERT_TRUE(session().building());
    window().action(second)->trigger();
    ASSERT_TRUE(waitForBuild(session()));
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.first().at(1).toBool());
    EXPECT_EQ(session().state(), PlayState::Stopped);
    EXPECT_FALSE(window().property("playTinted").toBool());
    EXPECT_EQ(document().json(), before);
  }
  // And the next Play plays.
  window().action("actionPlay")->trigger();
  ASSERT_TRUE(waitForBuild(session()));
  EXPECT_EQ(session().state(), PlayState::Playing);
}

}  // namespace
}  // namespace floptle::editor::test
