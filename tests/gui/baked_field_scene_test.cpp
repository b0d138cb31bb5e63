// A scene of only a baked field (a .vdb level set, no analytic shape) is drawn in the editor:
// the viewport marches the empty scene's field (scene::emptySceneField) and the node's brick
// map, so the sphere baked into the file is where its collider is.
#include <QImage>

#include <cmath>
#include <filesystem>

#include "floptle/core/brickmap/brick_map.h"
#include "floptle/core/brickmap/brick_map_vdb.h"
#include "floptle/core/render/brick_atlas.h"
#include "floptle/editor/raymarch_view.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

using BakedFieldSceneTest = PlayWindowTest;

TEST_F(BakedFieldSceneTest, ASceneOfOnlyABakedFieldIsDrawnFromItsBricks) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "floptle_baked_field_scene_test";
  fs::create_directories(dir);
  constexpr float kRadius = 0.8f;
  BrickMapSettings s;
  s.bounds = Aabb::fromCenterHalf(Vec3(0.0f), Vec3(kRadius));
  s.cellSize = 0.05f;
  auto map = BrickMap::bake(s, [](std::span<const Vec3> points, float, std::span<float> out) {
    for (std::size_t i = 0; i < points.size(); ++i) out[i] = glm::length(points[i]) - kRadius;
  });
  ASSERT_TRUE(map.ok());
  ASSERT_TRUE(writeBrickMapVdb(*map, dir / "ball.vdb").ok());
  QFile file(QString::fromStdString((dir / "scene.json").string()));
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(R"({"format": "floptle.scene", "version": 1, "materials": [], "interactions": [],
    "cameras": [{"name": "front", "position": [0, 1, 4], "look_at": [0, 1, 0], "fov": 40}],
    "nodes": [{"name": "rock", "transform": {"position": [0, 1, 0]},
               "baked_field": {"file": "ball.vdb"}}]})");
  file.close();
  openScene(file.fileName());
  RaymarchView* view = window().viewport();
  ASSERT_NE(view->sceneField(), nullptr) << "a scene without shapes has no field to march";
  ASSERT_NE(view->brickAtlas(), nullptr);
  // The closed form: the ball's surface 0.8 m from its centre at (0, 1, 0).
  EXPECT_NEAR(view->brickAtlas()->distance(Vec3(0.0f, 1.0f + kRadius, 0.0f)).x, 0.0f, 0.01f);
  view->setAdaptiveResolution(false);
  render::Camera camera = view->camera();
  camera.position = Vec3(0.0f, 1.0f, 4.0f);
  camera.lookAt = Vec3(0.0f, 1.0f, 0.0f);
  view->setCamera(camera);
  const std::uint64_t frames = view->frameCount();
  ASSERT_TRUE(waitFor([&] { return view->frameCount() > frames; }, 30000));
  ASSERT_TRUE(view->hasShader()) << view->lastShaderError().toStdString();
  const QImage image = view->captureImage();
  ASSERT_FALSE(image.isNull());
  // The centre sees the ball, a top corner the sky: they differ.
  const QColor centre = image.pixelColor(image.width() / 2, image.height() / 2);
  const QColor corner = image.pixelColor(2, 2);
  EXPECT_GT(std::abs(centre.red() - corner.red()) + std::abs(centre.green() - corner.green()) +
                std::abs(centre.blue() - corner.blue()),
            60)
      << "centre " << centre.name().toStdString() << ", corner " << corner.name().toStdString();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace floptle::editor::test
