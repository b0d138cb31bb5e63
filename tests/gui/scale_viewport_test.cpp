// The editor's viewport on levels from the generator in tests/large_scene: on the 10,000-node
// level a node moved through the document is drawn at its new place in the next frame by the
// program already compiled (the move changes scene data only); a level over the GPU's
// scene-data limit is named in the window's log while the document keeps the edit.
#include <QTemporaryDir>

#include "../large_scene/large_scene.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/editor/log_panel.h"
#include "floptle/editor/raymarch_view.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

constexpr int kSpheres = 10000;

class LargeLevelViewportTest : public PlayWindowTest {};

TEST_F(LargeLevelViewportTest, ANodeMovedInTheEditorIsDrawnThereWithoutAShaderCompile) {
  QTemporaryDir folder;
  ASSERT_TRUE(folder.isValid());
  const QString path = folder.filePath("level.json");
  floptle::test::LargeSceneSpec spec;
  spec.spheres = kSpheres;
  ASSERT_TRUE(floptle::test::writeLargeScene(path.toStdString(), spec));
  const Json written = floptle::test::largeScene(spec);
  openScene(path);
  ASSERT_EQ(document().derived().scene().nodes.size(), std::size_t{kSpheres + 1});

  // One sphere of the level, seen from 6 m off; after the move it stands 4 m along +x.
  const std::string name = "sphere_4242";
  const Json& node = written["nodes"][4243];
  ASSERT_EQ(node["name"], name);
  const Vec3 at(node["transform"]["position"][0].get<float>(),
                node["transform"]["position"][1].get<float>(),
                node["transform"]["position"][2].get<float>());
  const float radius = node["shape"]["radius"].get<float>();
  const Vec3 moved = at + Vec3(4.0f, 0.0f, 0.0f);
  RaymarchView* view = window().viewport();
  render::Camera camera;
  camera.position = at + Vec3(2.0f, 2.5f, 6.0f);
  camera.lookAt = at + Vec3(2.0f, 0.0f, 0.0f);
  view->setCamera(camera);
  const QImage before = view->captureImage();
  ASSERT_FALSE(before.isNull());
  ASSERT_GE(view->shaderCompiles(), 1u);
  ASSERT_TRUE(view->lastShaderError().isEmpty()) << view->lastShaderError().toStdString();
  const std::uint64_t compiles = view->shaderCompiles();
  const std::uint64_t uploads = view->sceneDataUploads();

  const std::string pointer = document().nodePointer(QString::fromStdString(name));
  ASSERT_TRUE(document().setValue(pointer + "/transform/position/0", double(moved.x)));
  ASSERT_TRUE(waitFor([&] { return view->sceneDataUploads() > uploads; }, 10000));
  const QImage after = view->captureImage();

  // The field the frame drew: the sphere's closed form at its new place, none at the old one
  // (only the ground, `at.y` below its centre, and no other sphere that near).
  const field::UnionField* field = view->sceneField();
  ASSERT_NE(field, nullptr);
  const double t = view->time();
  EXPECT_NEAR(field->distance(moved, t), -radius, 1e-4f);
  EXPECT_NEAR(field->distance(moved + Vec3(0.0f, radius + 1.0f, 0.0f), t), 1.0f, 1e-4f);
  EXPECT_GT(field->distance(at, t), 0.0f);
  // Data only: the program stays, the picture changes.
  EXPECT_EQ(view->shaderCompiles(), compiles);
  EXPECT_NE(before, after);
}

// The view's row limit lowered to one row stands for a GPU too small for the level: the edit that
// uploads the scene is kept in the document (one undo step), the log names the limit, the view
// keeps its image; back under the limit, the next edit is drawn and the message is cleared.
TEST_F(LargeLevelViewportTest, ALevelOverTheGpuLimitIsLoggedByNameAndTheEditIsKept) {
  QTemporaryDir folder;
  ASSERT_TRUE(folder.isValid());
  const QString path = folder.filePath("level.json");
  floptle::test::LargeSceneSpec spec;
  spec.spheres = 500;  // more than one row of scene data
  ASSERT_TRUE(floptle::test::writeLargeScene(path.toStdString(), spec));
  openScene(path);
  RaymarchView* view = window().viewport();
  const QImage before = view->captureImage();
  ASSERT_FALSE(before.isNull());
  ASSERT_TRUE(view->lastShaderError().isEmpty()) << view->lastShaderError().toStdString();
  const std::uint64_t uploads = view->sceneDataUploads();
  const int undoSteps = document().undoStack()->count();

  view->setSceneRowLimit(1);
  const std::string pointer = document().nodePointer("sphere_7") + "/transform/position/1";
  ASSERT_TRUE(document().setValue(pointer, 3.5));
  ASSERT_TRUE(waitFor([&] { return !view->lastShaderError().isEmpty(); }, 10000));
  const QString log = window().log()->toPlainText();
  EXPECT_TRUE(log.contains("Shader error: ")) << log.toStdString();
  EXPECT_TRUE(log.contains("GL_MAX_TEXTURE_SIZE")) << log.toStdString();
  EXPECT_TRUE(log.contains("limit of 1")) << log.toStdString();
  EXPECT_EQ(view->sceneDataUploads(), uploads);
  EXPECT_EQ(view->captureImage(), before);
  EXPECT_EQ(*document().valueAt(pointer), Json(3.5));
  EXPECT_EQ(document().undoStack()->count(), undoSteps + 1);

  view->setSceneRowLimit(0);
  document().undoStack()->undo();
  ASSERT_TRUE(waitFor([&] { return view->sceneDataUploads() > uploads; }, 10000));
  EXPECT_TRUE(view->lastShaderError().isEmpty()) << view->lastShaderError().toStdString();
  EXPECT_NE(*document().valueAt(pointer), Json(3.5));
}

}  // namespace
}  // namespace floptle::editor::test
