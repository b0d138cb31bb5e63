// The editor's viewport on the generated 10,000-node level (tests/large_scene): a node
// moved through the document is drawn at its new place in the next frame by the program already
// compiled (the move changes scene data only).
#include <QTemporaryDir>

#include "../large_scene/large_scene.h"
#include "floptle/editor/derived_scene.h"
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
  ASSERT_EQ(document().derived().scene.nodes.size(), std::size_t{kSpheres + 1});

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

}  // namespace
}  // namespace floptle::editor::test
