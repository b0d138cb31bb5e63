// The files behind a scene's meshes, as the editor sees them change on disk: a missing file
// still opens the scene and is named once in the log, then drawn when it is exported into
// place; a rewritten file (a re-export from Blender) is read again and drawn in place of the
// old one, with its collider wireframe; a broken rewrite keeps the last version drawn.
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "floptle/editor/derived_scene.h"
#include "floptle/editor/import_mesh_view.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/wireframe_overlay.h"
#include "gui_fixture.h"

namespace floptle::editor::test {
namespace {

/// A cube of half extent `half` (m) centred on the origin, as OBJ text.
std::string cubeObj(float half) {
  std::string obj;
  for (int i = 0; i < 8; ++i)
    obj += "v " + std::to_string((i & 1) ? half : -half) + " " +
           std::to_string((i & 2) ? half : -half) + " " + std::to_string((i & 4) ? half : -half) +
           "\n";
  return obj + "f 1 5 7 3\nf 2 4 8 6\nf 1 2 6 5\nf 1 3 4 2\nf 5 6 8 7\nf 3 7 8 4\n";
}

class MeshFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    application();
    ASSERT_TRUE(dir_.isValid());
  }
  void TearDown() override {
    if (window_) window_->document().undoStack()->setClean();  // close without asking
  }
  /// Absolute path of `name` in the scene's folder.
  std::string file(const std::string& name) const {
    return (std::filesystem::path(dir_.path().toStdString()) / name).lexically_normal().string();
  }
  /// Writes a scene of one node `node` whose mesh component names `meshFile`, and opens it.
  void open(const std::string& node, const std::string& meshFile) {
    const std::string scene = file("scene.json");
    std::ofstream(scene)
        << R"({"format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
      "nodes": [{"name": ")" +
               node + R"(", "mesh": {"file": ")" + meshFile +
               R"("}, "collider": {"body": "static"}}]})";
    window_ = std::make_unique<MainWindow>();
    ASSERT_TRUE(window_->openFile(QString::fromStdString(scene)));
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    meshes_ = window_->findChild<ImportedMeshView*>(QStringLiteral("importedMeshView"));
    ASSERT_TRUE(meshes_);
  }
  /// Whether the drawn mesh is hit straight down from (0, 5, 0) at `distance` (m).
  bool hitDownAt(float distance) const {
    const auto hit = meshes_->pick(Ray{Vec3(0.0f, 5.0f, 0.0f), Vec3(0.0f, -1.0f, 0.0f)});
    return hit && std::abs(hit->distance - distance) < 1e-4f;
  }
  std::string log() const { return window_->log()->toPlainText().toStdString(); }

  QTemporaryDir dir_;
  std::unique_ptr<MainWindow> window_;
  ImportedMeshView* meshes_ = nullptr;
};

TEST_F(MeshFilesTest, AMissingFileIsNamedOnceAndDrawnWhenItIsExportedIntoPlace) {
  ASSERT_NO_FATAL_FAILURE(open("rock", "gone.obj"));
  ASSERT_TRUE(waitFor([&] { return log().find("cannot draw mesh") != std::string::npos; }, 10000))
      << log();
  const std::string line = log().substr(log().find("cannot draw mesh"));
  EXPECT_NE(line.find(file("gone.obj") + ": file not found"), std::string::npos) << line;
  EXPECT_EQ(line.find(file("gone.obj")), line.rfind(file("gone.obj")))
      << "the path is said once: " << line;
  EXPECT_EQ(window_->document().derived().scene().nodes.size(), 1u);

  // Another file written in the folder: not read again, not logged again.
  std::ofstream(file("notes.txt")) << "something else in the folder\n";
  QTest::qWait(2 * ImportedMeshView::kReloadSettleMs + 200);
  EXPECT_EQ(window_->log()->toPlainText().count("cannot draw mesh"), 1) << log();
  std::ofstream(file("gone.obj"))
      << "v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nf 1 3 2\nf 1 4 3\n";  // a square at y = 0
  EXPECT_TRUE(waitFor([&] { return hitDownAt(5.0f); }, 10000)) << log();
}

TEST_F(MeshFilesTest, ARewrittenFileIsDrawnAgainAndABrokenOneKeepsTheLast) {
  std::ofstream(file("cube.obj")) << cubeObj(0.5f);
  ASSERT_NO_FATAL_FAILURE(open("crate", "cube.obj"));
  // Straight down onto the cube's top: 5 - half (m).
  ASSERT_TRUE(waitFor([&] { return hitDownAt(4.5f); }, 10000)) << "the first read";
  auto* wireframes = window_->findChild<ColliderWireframes*>(QStringLiteral("colliderWireframes"));
  ASSERT_TRUE(wireframes);
  window_->action("actionColliderWireframes")->trigger();
  ASSERT_TRUE(waitFor(
      [&] { return !wireframes->busy() && wireframes->lineCount(QStringLiteral("crate")) > 0; },
      60000));
  const std::size_t extracted = wireframes->extractions();

  std::ofstream(file("cube.obj"), std::ios::trunc) << cubeObj(1.0f);  // re-exported, twice as large
  ASSERT_TRUE(waitFor([&] { return hitDownAt(4.0f); }, 10000)) << log();
  EXPECT_EQ(meshes_->reloads(), 1);
  EXPECT_NE(log().find("Reloaded mesh"), std::string::npos) << log();
  // The node did not change, its file did: the collider wireframe is extracted again.
  EXPECT_TRUE(
      waitFor([&] { return !wireframes->busy() && wireframes->extractions() > extracted; }, 60000))
      << "the wireframe of the old file stayed";

  std::ofstream(file("cube.obj"), std::ios::trunc)
      << "f 1 2 3\n";  // broken: faces without vertices
  ASSERT_TRUE(waitFor([&] { return log().find("cannot reload mesh") != std::string::npos; }, 10000))
      << log();
  EXPECT_TRUE(hitDownAt(4.0f)) << "the last good version stays drawn";
  EXPECT_EQ(meshes_->reloads(), 1);

  std::ofstream(file("cube.obj"), std::ios::trunc) << cubeObj(0.25f);  // fixed again
  ASSERT_TRUE(waitFor([&] { return hitDownAt(4.75f); }, 10000)) << log();
  EXPECT_EQ(meshes_->reloads(), 2);
}

}  // namespace
}  // namespace floptle::editor::test
