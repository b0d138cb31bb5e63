// Play draws a soft body where the simulation has it: a soft cube dropped on a floor is drawn at
// its simulated centroid, from the matter's brickmap in the viewport's brick atlas (its skinned
// surface), not at the document pose; the scene field no longer holds it.
#include <gtest/gtest.h>

#include <QDir>
#include <QPixmap>
#include <QScreen>

#include <algorithm>

#include "floptle/core/render/brick_atlas.h"

#include "floptle/core/field/union_field.h"
#include "floptle/core/scene/scene_composition.h"
#include "floptle/editor/derived_scene.h"
#include "floptle/matter/soft_body_stage.h"
#include "floptle/physics/simulation.h"
#include "play_test_support.h"

namespace floptle::editor::test {
namespace {

const char* kSoftCubeScene = R"({
  "format": "floptle.scene", "version": 1,
  "materials": [{"id": "goo", "color": [0.2, 0.8, 0.3], "density": 500, "friction": 0.6,
                 "restitution": 0, "bulk_modulus": 1e9, "yield_strength": 1e6}],
  "interactions": [],
  "nodes": [
    {"name": "floor", "shape": {"type": "box", "half_extents": [4, 0.5, 4]},
     "transform": {"position": [0, -0.5, 0]}},
    {"name": "cube", "material": "goo", "shape": {"type": "box", "half_extents": [0.5, 0.5, 0.5]},
     "transform": {"position": [0, 2.5, 0]},
     "matter": {"tier": "soft_body", "particles": 125, "substeps": 6, "shape_match": 0.8}}
  ]
})";

using PlaySoftBodyTest = PlayWindowTest;

TEST_F(PlaySoftBodyTest, ADroppedSoftCubeIsDrawnAtItsSimulatedCentroid) {
  openText(kSoftCubeScene);
  playPaused();
  const auto* stage =
      dynamic_cast<const matter::SoftBodyStage*>(session().simulation()->matterStage());
  ASSERT_NE(stage, nullptr);
  ASSERT_EQ(stage->bodies().size(), 1u);
  const Vec3 restCentroid = stage->bodies()[0].centroid();
  for (int i = 0; i < 90; ++i) session().stepOnce();  // 1.5 s: fallen 1.5 m and landed
  const Vec3 centroid = stage->bodies()[0].centroid();
  ASSERT_LT(centroid.y, restCentroid.y - 1.2f);
  RaymarchView* view = window().viewport();
  const field::UnionField* field = view->sceneField();
  ASSERT_NE(field, nullptr);
  const render::BrickAtlas* atlas = view->brickAtlas();
  ASSERT_NE(atlas, nullptr) << "the soft body is not drawn from bricks";
  const double t = view->time();
  // What the viewport marches: the nearer of the scene field and the brick maps.
  auto drawn = [&](Vec3 p) { return std::min(field->distance(p, t), atlas->distance(p).x); };
  // The scene field alone no longer has the cube above the floor.
  EXPECT_GT(field->distance(centroid + Vec3(0.0f, 0.5f, 0.0f), t), 0.4f);
  // The cube's closed form about the simulated centroid: inside at its centre, its top face
  // 0.5 m up (within the cage's squash under its weight, the lattice's inset and a bake cell).
  EXPECT_LT(drawn(centroid), -0.2f);
  EXPECT_NEAR(drawn(centroid + Vec3(0.0f, 1.0f, 0.0f)), 0.5f, 0.1f);
  // Where the document put it, there is nothing now: the nearest surface is the cube's top,
  // about a metre below. Away from its band the atlas answers a lower bound (the brick's
  // centre distance less its radius), so what is drawn there is outside and never more than
  // the true distance; the scene field alone has nothing within 0.8 m.
  const Vec3 documentPose(0.0f, 2.5f, 0.0f);
  const float trueDistance = documentPose.y - (centroid.y + 0.5f);
  EXPECT_GT(field->distance(documentPose, t), 0.8f);
  EXPECT_GT(drawn(documentPose), 0.2f);
  EXPECT_LE(drawn(documentPose), trueDistance + 0.1f);
}

// Plays scenes/matter.json for 1.5 s (paused steps), checks the soft bodies are drawn from the
// matter's bricks, and writes a screenshot of the window into the build tree
// (screenshots/editor-play-matter.png; FLOPTLE_PLAY_SCREENSHOT=file.png writes it elsewhere).
TEST_F(PlaySoftBodyTest, MatterScreenshotWhilePlaying) {
  QString out = QString::fromUtf8(qgetenv("FLOPTLE_PLAY_SCREENSHOT"));
  if (out.isEmpty()) {
    QDir().mkpath(QStringLiteral(FLOPTLE_BINARY_DIR "/screenshots"));
    out = QStringLiteral(FLOPTLE_BINARY_DIR "/screenshots/editor-play-matter.png");
  }
  openScene(QStringLiteral(FLOPTLE_SOURCE_DIR "/scenes/matter.json"));
  window().resize(1000, 640);
  playPaused();
  for (int i = 0; i < 90; ++i) session().stepOnce();
  RaymarchView* view = window().viewport();
  ASSERT_NE(view->brickAtlas(), nullptr) << "the soft bodies are not drawn from bricks";
  // One map per material: inside each body the atlas answers its node's material (the steel
  // block resting on the clay slab is steel, the slab clay).
  const auto* stage =
      dynamic_cast<const matter::SoftBodyStage*>(session().simulation()->matterStage());
  ASSERT_NE(stage, nullptr);
  const scene::Scene& scene = session().copy()->derived().scene();
  for (const char* name : {"steel_block", "clay_slab", "soft_cube"}) {
    const matter::SoftBody* body = stage->find(name);
    ASSERT_NE(body, nullptr) << name;
    const Vec2 inside = view->brickAtlas()->distance(body->centroid());
    EXPECT_LT(inside.x, 0.0f) << name;
    const int node = scene.findNode(name);
    ASSERT_GE(node, 0);
    EXPECT_EQ(int(inside.y), int(scene::surfaceMaterialOf(scene.nodes[std::size_t(node)]))) << name;
  }
  render::Camera camera = view->camera();
  camera.position = Vec3(4.0f, 4.5f, 7.0f);
  camera.lookAt = Vec3(2.5f, 0.6f, -1.5f);
  view->setCamera(camera);
  QTest::qWait(2500);
  const QPixmap shot = window().screen()->grabWindow(window().winId());
  ASSERT_FALSE(shot.isNull());
  ASSERT_TRUE(shot.save(out)) << out.toStdString();
}

}  // namespace
}  // namespace floptle::editor::test
